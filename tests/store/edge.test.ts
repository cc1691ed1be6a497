import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { copyFileSync, openSync, statSync, truncateSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { discover, hitsInSessions } from '../../src/store/search.js';
import { readSession } from '../../src/store/messages.js';
import { compressionChain, rootOf } from '../../src/store/lineage.js';
import { scroll } from '../../src/store/recall.js';
import { StoreError } from '../../src/store/errors.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { fixtureCopy, tempDir } from '../helpers/fixtures.js';

const T0 = 1_790_000_000;

describe('discover returns `limit` distinct conversations', () => {
  it('even when one conversation holds more hits than the agent fetches', () => {
    const path = buildStore(30, (db) => {
      const busy = insertSession(db, { id: 'busy', started_at: T0 });
      for (let i = 0; i < 80; i++)
        insertMessage(db, {
          session_id: busy,
          role: i % 2 ? 'assistant' : 'user',
          content: 'zebra zebra zebra crossing',
        });
      for (let k = 0; k < 12; k++) {
        const s = insertSession(db, { id: `quiet${k}`, started_at: T0 + 100 + k });
        insertMessage(db, {
          session_id: s,
          content: `a long message that mentions a zebra only once among many other words ${k}`,
        });
      }
    });
    const store = Store.open(path);
    for (const sort of ['relevance', 'newest', 'oldest'] as const) {
      const r = discover(store, 'zebra', { limit: 10, sort });
      expect(r.results).toHaveLength(10);
      expect(new Set(r.results.map((x) => x.session_id)).size).toBe(10);
    }
    // Ranked first, as the agent would rank it.
    expect(discover(store, 'zebra', { limit: 10 }).results[0]!.session_id).toBe('busy');
    store.close();
  });
});

describe('rows the store hides never surface', () => {
  it.each([16, 30] as const)('schema %i', (layout) => {
    let visibleId = 0;
    let rewound = 0;
    const path = buildStore(layout, (db) => {
      const s = insertSession(db, { id: 's1', started_at: T0 });
      insertMessage(db, { session_id: s, content: 'an ordinary opening about narwhals' });
      rewound = insertMessage(db, {
        session_id: s,
        role: 'assistant',
        content: 'rewound unicorn text',
        active: 0,
      });
      if (layout === 30)
        insertMessage(db, {
          session_id: s,
          role: 'assistant',
          content: 'hidden unicorn scaffolding',
          display_kind: 'hidden',
        });
      visibleId = insertMessage(db, {
        session_id: s,
        role: 'assistant',
        content: 'visible reply about narwhals',
      });
    });
    const store = Store.open(path);
    expect(discover(store, 'unicorn', { limit: 10 }).results).toEqual([]);
    expect(
      discover(store, 'unicorn', { limit: 10, roles: ['user', 'assistant', 'tool'] }).results,
    ).toEqual([]);
    const hit = discover(store, 'narwhals', { limit: 10 }).results[0]!;
    expect(hit.messages.map((m) => m.content)).not.toContain('rewound unicorn text');
    expect(readSession(store, 's1').messages.map((m) => m.id)).not.toContain(rewound);
    expect(
      scroll(store, 's1', visibleId, 5).messages.every(
        (m) => !String(m.content).includes('unicorn'),
      ),
    ).toBe(true);
    expect(() => scroll(store, 's1', rewound, 5)).toThrow(StoreError);
    store.close();
  });
});

describe('a store with no full-text index', () => {
  it('searches with LIKE and says so', () => {
    const path = buildStore(
      16,
      (db) => {
        const s = insertSession(db, { id: 'plain', started_at: T0 });
        insertMessage(db, {
          session_id: s,
          content: 'we decided to use pgbouncer in transaction mode',
        });
        insertMessage(db, { session_id: s, role: 'assistant', content: 'ok, pgbouncer it is' });
      },
      { withFts: false },
    );
    const store = Store.open(path);
    expect(store.layout.fts).toBe('none');
    expect(store.warnings.join(' ')).toMatch(/no full-text index/);
    const r = discover(store, 'pgbouncer transaction', { limit: 5 });
    expect(r.path).toBe('like');
    expect(r.results.map((x) => x.match_message_id)).toHaveLength(1);
    store.close();
  });
});

describe('lineage', () => {
  it('survives parent cycles and orphans', () => {
    const path = buildStore(
      30,
      (db) => {
        insertSession(db, { id: 'a', parent_session_id: 'b', started_at: T0 });
        insertSession(db, {
          id: 'b',
          parent_session_id: 'a',
          started_at: T0 + 1,
          end_reason: 'compression',
          ended_at: T0 + 2,
        });
        insertSession(db, { id: 'orphan', parent_session_id: 'gone', started_at: T0 + 3 });
        insertSession(db, {
          id: 'self',
          parent_session_id: 'self',
          started_at: T0 + 4,
          end_reason: 'compression',
        });
        for (const s of ['a', 'b', 'orphan', 'self'])
          insertMessage(db, { session_id: s, content: `cyclic words in ${s}` });
      },
      { foreignKeys: false },
    );
    const store = Store.open(path);
    expect(['a', 'b']).toContain(rootOf(store, 'a'));
    expect(rootOf(store, 'orphan')).toBe('orphan');
    expect(rootOf(store, 'self')).toBe('self');
    expect(compressionChain(store, 'self')).toEqual(['self']);
    expect(compressionChain(store, 'a').length).toBeLessThanOrEqual(2);
    const r = discover(store, 'cyclic', { limit: 10 });
    expect(r.results.length).toBeGreaterThanOrEqual(2);
    expect(() => browse(store, { limit: 10, all: true })).not.toThrow();
    store.close();
  });

  it('walks hits across a compression chain in order', () => {
    const path = buildStore(30, (db) => {
      insertSession(db, {
        id: 'root',
        started_at: T0,
        ended_at: T0 + 100,
        end_reason: 'compression',
      });
      insertSession(db, { id: 'tip', parent_session_id: 'root', started_at: T0 + 101 });
      insertMessage(db, {
        session_id: 'root',
        content: 'first mention of kestrel',
        timestamp: T0 + 1,
      });
      insertMessage(db, { session_id: 'root', content: 'unrelated', timestamp: T0 + 2 });
      insertMessage(db, {
        session_id: 'tip',
        content: '[CONTEXT SUMMARY] kestrel again',
        timestamp: T0 + 102,
      });
      insertMessage(db, {
        session_id: 'tip',
        role: 'assistant',
        content: 'kestrel for the third time',
        timestamp: T0 + 103,
      });
    });
    const store = Store.open(path);
    const chain = compressionChain(store, 'tip');
    expect(chain).toEqual(['root', 'tip']);
    expect(hitsInSessions(store, 'kestrel', chain)).toHaveLength(3);
    const rows = browse(store, { limit: 5 });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      session_id: 'tip',
      root_id: 'root',
      chain_length: 2,
      started_at: T0,
    });
    store.close();
  });
});

describe('unusual stores', () => {
  it('a newer schema with unknown tables and columns works with a warning', () => {
    const path = buildStore(30, (db) => {
      db.exec(
        `UPDATE schema_version SET version = 99; ALTER TABLE messages ADD COLUMN sentiment TEXT; CREATE TABLE future_things (x)`,
      );
      insertSession(db, { id: 'f', started_at: T0 });
      insertMessage(db, { session_id: 'f', content: 'hello from the future' });
    });
    const store = Store.open(path);
    expect(store.warnings.join(' ')).toMatch(/schema version 99 is newer/);
    expect(discover(store, 'future', { limit: 3 }).results).toHaveLength(1);
    store.close();
  });

  it('missing tables or required columns are a one-line error', () => {
    const dir = tempDir();
    const noMessages = join(dir, 'a.db');
    const db = new Database(noMessages);
    db.exec(
      `CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, parent_session_id TEXT, started_at REAL)`,
    );
    db.close();
    expect(() => Store.open(noMessages)).toThrow(/no "messages" table/);
    const noRole = join(dir, 'b.db');
    const db2 = new Database(noRole);
    db2.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, parent_session_id TEXT, started_at REAL);
              CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, content TEXT, timestamp REAL)`);
    db2.close();
    expect(() => Store.open(noRole)).toThrow(/missing required columns: messages.role/);
  });

  it('a truncated store is reported, not thrown raw', () => {
    const path = fixtureCopy(6);
    truncateSync(path, Math.floor(statSync(path).size / 3));
    let message = '';
    try {
      const store = Store.open(path);
      discover(store, 'billing', { limit: 10 });
      browse(store, { limit: 100 });
      store.close();
    } catch (err) {
      expect(err).toBeInstanceOf(StoreError);
      message = (err as Error).message;
    }
    expect(message).toMatch(/corrupt|malformed|cannot read/);
    expect(message).not.toContain('\n');
  });

  it('garbage pages in the middle are reported, not thrown raw', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    copyFileSync(fixtureCopy(6), path);
    const fd = openSync(path, 'r+');
    const junk = Buffer.alloc(4096 * 20, 0x5a);
    writeSync(fd, junk, 0, junk.length, 4096 * 4);
    closeSync(fd);
    let threw: unknown = null;
    try {
      const store = Store.open(path);
      discover(store, 'billing', { limit: 10 });
      browse(store, { limit: 100 });
      readSession(store, browse(store, { limit: 1 })[0]?.session_id ?? 'x');
      store.close();
    } catch (err) {
      threw = err;
    }
    if (threw) {
      expect(threw).toBeInstanceOf(StoreError);
      expect((threw as Error).message).not.toContain('\n');
    }
  });
});
