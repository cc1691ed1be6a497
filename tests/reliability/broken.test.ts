/**
 * Broken and unusual stores, one defined behaviour each: it works, it works
 * with a one-line warning, or it is a one-line error with a non-zero exit.
 * Never a stack trace, never a hang (every CLI run has a 30 s kill timer).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/errors.js';
import { browse } from '../../src/store/browse.js';
import { discover, hitsInSessions } from '../../src/store/search.js';
import { readSession } from '../../src/store/messages.js';
import { scroll } from '../../src/store/recall.js';
import type { Layout } from '../../src/demo/schema.js';
import { buildStore, insertMessage, insertSession, type Db } from '../helpers/stores.js';
import { fixtureCopy, sha256, tempDir } from '../helpers/fixtures.js';
import { BIN, lookback, type Run } from '../helpers/cli.js';
import { stderrProblems } from '../helpers/inert.js';

const T0 = 1_790_000_000;

/** A run that ended on its own, said at most one-line things on stderr, and no stack trace. */
function clean(r: Run): Run {
  expect(r.code, `killed or hung: ${r.stderr}`).not.toBeNull();
  expect(stderrProblems(r.stderr)).toEqual([]);
  return r;
}

/** The one-line error contract: exit 1, `{"success": false, "error": "<one line>"}`. */
function oneLineError(r: Run, pattern: RegExp): void {
  clean(r);
  expect(r.code).toBe(1);
  const out = r.json();
  expect(out.success).toBe(false);
  expect(String(out.error)).toMatch(pattern);
  expect(String(out.error)).not.toContain('\n');
}

const open: Store[] = [];
afterEach(() => {
  while (open.length > 0) open.pop()!.close();
});
function track(store: Store): Store {
  open.push(store);
  return store;
}

function sidecars(path: string): void {
  for (const s of ['-wal', '-shm', '-journal']) rmSync(path + s, { force: true });
}

describe('the store file changes under an open Store', () => {
  it('replaced (restored, repaired, renamed over): reopens on the next read, with a warning', () => {
    const path = fixtureCopy(30);
    const store = track(Store.open(path));
    const before = browse(store, { limit: 5 }).map((r) => r.session_id);
    expect(before.length).toBe(5);
    const version = store.dataVersion();

    const replacement = buildStore(16, (db) => {
      insertSession(db, { id: 'restored', started_at: T0, title: 'after the restore' });
      insertMessage(db, { session_id: 'restored', content: 'the replacement mentions a narwhal' });
    });
    // A careful restore: the old sidecars go, the new file is renamed into place.
    sidecars(path);
    renameSync(replacement, path);

    expect(browse(store, { limit: 5 }).map((r) => r.session_id)).toEqual(['restored']);
    expect(discover(store, 'narwhal', { limit: 3 }).results[0]?.session_id).toBe('restored');
    expect(store.generation).toBe(1);
    expect(store.layout.schemaVersion).toBe(16);
    expect(store.warnings.join('\n')).toMatch(/was replaced on disk .*reopened it/);
    expect(store.dataVersion()).toBeGreaterThan(version);
  });

  it('replaced by something that is not a store: a one-line error until a store is back', () => {
    const path = fixtureCopy(30);
    const store = track(Store.open(path));
    const good = join(tempDir(), 'good.db');
    copyFileSync(path, good);
    sidecars(path);
    rmSync(path);
    writeFileSync(path, 'this is not a database, just text that happens to be here\n'.repeat(200));
    expect(() => browse(store, { limit: 5 })).toThrow(StoreError);
    try {
      browse(store, { limit: 5 });
    } catch (err) {
      expect((err as StoreError).message).toMatch(/is not a SQLite database/);
      expect((err as StoreError).message).not.toContain('\n');
    }
    rmSync(path);
    renameSync(good, path);
    expect(browse(store, { limit: 5 })).toHaveLength(5);
  });

  it('deleted: a one-line "deleted" error, not the old content; back when the file is', () => {
    const path = fixtureCopy(30);
    const keep = join(tempDir(), 'keep.db');
    copyFileSync(path, keep);
    const store = track(Store.open(path));
    expect(browse(store, { limit: 3 })).toHaveLength(3);
    rmSync(path);
    sidecars(path);
    const t = performance.now();
    let err: unknown;
    try {
      browse(store, { limit: 3 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('not-found');
    expect((err as StoreError).message).toMatch(/was deleted while lookback had it open/);
    // It waits a moment for a non-atomic replace, then says so: no hang.
    expect(performance.now() - t).toBeLessThan(2_000);
    expect(() => store.dataVersion()).toThrow(/was deleted/);
    copyFileSync(keep, path);
    expect(browse(store, { limit: 3 })).toHaveLength(3);
  });

  it('deleted before the CLI runs: a one-line error and exit 1', () => {
    const path = fixtureCopy(30);
    rmSync(path);
    oneLineError(lookback(['recent', '--db', path, '--json']), /^no store at /);
    const text = clean(lookback(['search', 'billing', '--db', path]));
    expect(text.code).toBe(1);
    expect(text.stderr.trim().split('\n')).toHaveLength(1);
  });
});

// Root can write anywhere, so as root a directory lookback cannot write needs a
// user that really cannot: the CLI runs as `nobody` through setpriv. Any other
// user cannot write a 0555 directory, so the CLI runs as it is.
const asRoot = process.getuid?.() === 0;

function asNobody(args: string[]): Run {
  const r = spawnSync(
    asRoot ? 'setpriv' : process.execPath,
    asRoot
      ? ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, BIN, ...args]
      : [BIN, ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, HOME: '/nonexistent-home', HERMES_HOME: '' },
      timeout: 30_000,
    },
  );
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout) as Record<string, unknown>,
  };
}

describe('a WAL store in a directory lookback cannot write', () => {
  // As root the test needs setpriv (util-linux) to drop to nobody: fail, never skip, without it.
  beforeAll(() => {
    if (asRoot && spawnSync('setpriv', ['--version']).status !== 0)
      throw new Error('setpriv is not on PATH: as root this test cannot drop to nobody');
  });

  /** A stopped writer's store whose last commit lives only in its -wal, with no -shm. */
  function stoppedWriter(): string {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    copyFileSync(
      buildStore(30, (db) => {
        insertSession(db, { id: 'old', started_at: T0 });
        insertMessage(db, { session_id: 'old', content: 'checkpointed osprey' });
      }),
      path,
    );
    const writer = new Database(path);
    writer.pragma('wal_autocheckpoint = 0');
    insertMessage(writer, { session_id: 'old', content: 'uncheckpointed osprey' });
    const wal = readFileSync(`${path}-wal`);
    writer.close();
    writeFileSync(`${path}-wal`, wal);
    rmSync(`${path}-shm`, { force: true });
    for (const f of readdirSync(dir)) chmodSync(join(dir, f), 0o644);
    chmodSync(dir, 0o555);
    return path;
  }

  it('-wal with data, -shm missing: reads a private copy, with one warning line', () => {
    const path = stoppedWriter();
    const hash = sha256(path);
    try {
      const r = clean(asNobody(['search', 'osprey', '--db', path, '--json']));
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^lookback: warning: .* not writable, so reading a private copy/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.json().count).toBe(1);
      const read = clean(asNobody(['read', 'old', '--db', path, '--json'])).json();
      expect(read.message_count).toBe(2);
      expect(existsSync(`${path}-shm`)).toBe(false);
      expect(sha256(path)).toBe(hash);
    } finally {
      chmodSync(dirname(path), 0o755);
    }
  });

  it('empty -wal, -shm missing: reads the file as immutable, with one warning line', () => {
    const path = fixtureCopy(30);
    writeFileSync(`${path}-wal`, '');
    rmSync(`${path}-shm`, { force: true });
    chmodSync(path, 0o644);
    chmodSync(dirname(path), 0o555);
    try {
      const r = clean(asNobody(['recent', '--db', path, '--json', '--limit', '3']));
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/reading the store as immutable/);
      expect(r.json().count).toBe(3);
      expect(existsSync(`${path}-shm`)).toBe(false);
    } finally {
      chmodSync(dirname(path), 0o755);
    }
  });
});

/** Writes into a store with SQLite's defensive mode off, so FTS shadow tables can be damaged. */
function damage(path: string, sql: string): void {
  const db = new Database(path);
  db.unsafeMode(true);
  try {
    db.exec(sql);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

function searchable(layout: Layout): string {
  return buildStore(layout, (db) => {
    for (let k = 0; k < 6; k++) {
      const s = insertSession(db, { id: `s${k}`, started_at: T0 + k * 100, title: `talk ${k}` });
      insertMessage(db, { session_id: s, content: `we chose pgbouncer for pooling, round ${k}` });
      insertMessage(db, {
        session_id: s,
        role: 'assistant',
        content: `transaction mode then, and a note about 数据库迁移 ${k}`,
      });
    }
  });
}

const FTS_DAMAGE: [string, string][] = [
  ['corrupt structure record', `UPDATE messages_fts_data SET block = X'0102030405' WHERE id = 10`],
  ['missing segments', `DELETE FROM messages_fts_data WHERE id > 10`],
  [
    'garbage segments',
    `UPDATE messages_fts_data SET block = randomblob(length(block)) WHERE id > 10`,
  ],
  ['lost config (unreadable at open)', `DELETE FROM messages_fts_config`],
];

describe('a damaged full-text index: LIKE instead, with a one-line warning', () => {
  for (const layout of [6, 16, 30] as const)
    it.each(FTS_DAMAGE)(`schema ${layout}: %s`, (_name, sql) => {
      const path = searchable(layout);
      damage(path, sql);
      const store = track(Store.open(path));
      const answer = discover(store, 'pgbouncer pooling', { limit: 10 });
      expect(answer.path).toBe('like');
      expect(answer.results).toHaveLength(6);
      expect(answer.warning).toMatch(/full-text index is damaged .*LIKE/);
      expect(answer.warning).not.toContain('\n');
      expect(hitsInSessions(store, 'pgbouncer', ['s1', 's2'])).toHaveLength(2);

      const json = clean(lookback(['search', 'pgbouncer pooling', '--db', path, '--json']));
      expect(json.code).toBe(0);
      expect(json.json().count).toBe(6);
      expect(json.json().warning).toMatch(/full-text index is damaged/);
      const text = clean(lookback(['search', 'pgbouncer', '--db', path]));
      expect(text.code).toBe(0);
      expect(text.stderr).toMatch(/^lookback: warning: .*full-text index is damaged/m);
      expect(text.stdout).toContain('talk 5');
    });

  it('a damaged trigram index: CJK searches fall back the same way', () => {
    const path = searchable(30);
    damage(path, `DELETE FROM messages_fts_trigram_data WHERE id > 10`);
    const store = track(Store.open(path));
    const answer = discover(store, '数据库迁移', { limit: 10 });
    expect(answer.path).toBe('like');
    expect(answer.results).toHaveLength(6);
    expect(answer.warning).toMatch(/damaged/);
    // Latin queries still use the healthy main index, without a warning.
    const latin = discover(store, 'pgbouncer', { limit: 10 });
    expect(latin.path).toBe('fts');
    expect(latin.warning).toBeUndefined();
  });

  it('a healthy index gives no warning (the fallback is not the normal path)', () => {
    const path = searchable(30);
    const json = clean(lookback(['search', 'pgbouncer', '--db', path, '--json'])).json();
    expect(json.warning).toBeUndefined();
    expect(json.count).toBe(6);
  });
});

describe('a full-text index whose triggers are gone (stale)', () => {
  it.each([6, 16, 30] as const)(
    'schema %i: new messages are found with LIKE, with a warning',
    (layout) => {
      const path = searchable(layout);
      const db = new Database(path);
      for (const t of db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'messages_fts%'`,
        )
        .pluck()
        .all() as string[])
        db.exec(`DROP TRIGGER ${t}`);
      db.close();

      // Triggers gone but nothing written since: the index is still whole, FTS is used.
      let store = track(Store.open(path));
      expect(store.warnings.join('\n')).toMatch(/not kept up to date/);
      const whole = discover(store, 'pgbouncer', { limit: 10 });
      expect(whole.path).toBe('fts');
      expect(whole.warning).toBeUndefined();
      store.close();

      const writer = new Database(path);
      insertSession(writer, { id: 'late', started_at: T0 + 5_000 });
      insertMessage(writer, {
        session_id: 'late',
        content: 'a narwhal arrived after the triggers went',
      });
      insertMessage(writer, {
        session_id: 'late',
        role: 'assistant',
        content: '新的数据库迁移计划',
      });
      writer.pragma('wal_checkpoint(TRUNCATE)');
      writer.close();

      store = track(Store.open(path));
      const stale = discover(store, 'narwhal', { limit: 10 });
      expect(stale.path).toBe('like');
      expect(stale.warning).toMatch(/full-text index is stale .*LIKE/);
      expect(stale.results.map((r) => r.session_id)).toEqual(['late']);
      expect(hitsInSessions(store, 'narwhal', ['late'])).toHaveLength(1);
      if (layout >= 16) {
        // The trigram index is not maintained either: CJK goes to the substring scan.
        expect(store.layout.trigram).toBe(false);
        const cjk = discover(store, '数据库迁移', { limit: 10 });
        expect(cjk.path).toBe('like');
        expect(cjk.results.map((r) => r.session_id)).toContain('late');
      }
      const json = clean(lookback(['search', 'narwhal', '--db', path, '--json']));
      expect(json.code).toBe(0);
      expect(json.json().count).toBe(1);
      expect(json.json().warning).toMatch(/stale/);
    },
  );
});

describe('parent_session_id cycles, self-links, orphans and very deep chains', () => {
  function lineageStore(): string {
    return buildStore(
      30,
      (db: Db) => {
        const end = { end_reason: 'compression' };
        insertSession(db, {
          id: 'a',
          parent_session_id: 'b',
          started_at: T0,
          ...end,
          ended_at: T0 + 1,
        });
        insertSession(db, {
          id: 'b',
          parent_session_id: 'a',
          started_at: T0 + 2,
          ...end,
          ended_at: T0 + 3,
        });
        insertSession(db, { id: 'self', parent_session_id: 'self', started_at: T0 + 4, ...end });
        // A continuation whose compressed-away parent was deleted by hand: the live tip of a conversation.
        insertSession(db, { id: 'orphan', parent_session_id: 'pruned-away', started_at: T0 + 5 });
        for (const s of ['a', 'b', 'self', 'orphan'])
          insertMessage(db, { session_id: s, content: `cyclic words in ${s}` });
        // 150 compression segments: deeper than the walk's cap of 100.
        let parent: string | null = null;
        for (let i = 0; i < 150; i++) {
          const id = `deep${i}`;
          insertSession(db, {
            id,
            parent_session_id: parent,
            started_at: T0 + 10 + i * 10,
            ...(i < 149 ? { end_reason: 'compression', ended_at: T0 + 15 + i * 10 } : {}),
          });
          insertMessage(db, { session_id: id, content: `deep segment ${i} about cyclic things` });
          parent = id;
        }
      },
      { foreignKeys: false },
    );
  }

  it('recent lists orphans and self-linked rows as roots; cycle members are reached by search', () => {
    const path = lineageStore();
    const r = clean(lookback(['recent', '--db', path, '--json', '--limit', '50']));
    expect(r.code).toBe(0);
    const ids = (r.json().results as { session_id: string }[]).map((x) => x.session_id);
    expect(ids).toContain('orphan');
    expect(ids).toContain('self');
    expect(ids).not.toContain('a');
    expect(ids).not.toContain('b');
    // The deep chain is one row; its walk stops at the cap rather than running away.
    expect(ids.filter((id) => id.startsWith('deep'))).toHaveLength(1);

    const found = clean(lookback(['search', 'cyclic', '--db', path, '--json', '--limit', '20']));
    expect(found.code).toBe(0);
    const hits = (found.json().results as { session_id: string }[]).map((x) => x.session_id);
    for (const s of ['self', 'orphan']) expect(hits).toContain(s);
    expect(hits.some((s) => s === 'a' || s === 'b')).toBe(true);
    for (const s of ['a', 'b', 'self', 'orphan', 'deep0', 'deep149']) {
      const read = clean(lookback(['read', s, '--db', path, '--json']));
      expect(read.code).toBe(0);
      expect(read.json().message_count).toBe(1);
    }
  });

  it('every store call on them returns, with bounded walks', () => {
    const path = lineageStore();
    const store = track(Store.open(path));
    const rows = browse(store, { limit: 200, all: true });
    const deep = rows.find((x) => x.root_id === 'deep0');
    expect(deep?.chain_length).toBeLessThanOrEqual(101);
    const orphan = rows.find((x) => x.session_id === 'orphan');
    expect(orphan).toMatchObject({ root_id: 'orphan', chain_length: 1 });
    const mid = store.db
      .prepare(`SELECT id FROM messages WHERE session_id = 'a'`)
      .pluck()
      .get() as number;
    expect(scroll(store, 'a', mid, 5).messages).toHaveLength(1);
    expect(readSession(store, 'deep75').total).toBe(1);
  });
});

describe('a newer schema with unknown columns, tables and views', () => {
  it('works through every command with one warning line', () => {
    const path = buildStore(30, (db) => {
      db.exec(`UPDATE schema_version SET version = 41;
        ALTER TABLE messages ADD COLUMN sentiment TEXT NOT NULL DEFAULT 'neutral';
        ALTER TABLE sessions ADD COLUMN workspace_id TEXT;
        CREATE TABLE future_things (x, y);
        CREATE VIEW future_view AS SELECT id FROM sessions;
        CREATE INDEX future_idx ON messages(sentiment)`);
      insertSession(db, { id: 'f', started_at: T0, title: 'from the future' });
      insertMessage(db, { session_id: 'f', content: 'hello from schema forty-one' });
    });
    for (const args of [['recent'], ['search', 'hello'], ['scroll', 'f', '1'], ['read', 'f']]) {
      const r = clean(lookback([...args, '--db', path, '--json']));
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^lookback: warning: schema version 41 is newer/),
      ]);
      expect(r.json().success).toBe(true);
    }
  });
});
