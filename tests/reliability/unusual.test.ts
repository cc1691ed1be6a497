/**
 * Unusual but legitimate (or merely odd) content: broken timestamps, bytes
 * that are not UTF-8, a 5 MB message, a 50,000-message session. Each works,
 * through the store layer and the CLI, in JSON and in text, within bounds.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { countBefore, countVisible, readSession } from '../../src/store/messages.js';
import { scroll } from '../../src/store/recall.js';
import { quote } from '../../src/anchors/format.js';
import { conversationMarkdown } from '../../src/export/conversation.js';
import type { Layout } from '../../src/demo/schema.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { lookback, type Run } from '../helpers/cli.js';
import { stderrProblems, unsafeIn } from '../helpers/inert.js';

const T0 = 1_790_000_000;
const ISO_OR_UNKNOWN = /^(?:[+-]\d{6}|\d{4})-\d\d-\d\dT\d\d:\d\d:\d\dZ$|^unknown$/;
const BROKEN_TEXT = /NaN|Invalid Date|Infinity|undefined|\[object /;

function ok(r: Run): Run {
  expect(r.code, r.stderr).toBe(0);
  expect(stderrProblems(r.stderr)).toEqual([]);
  return r;
}

const timed = (label: string, fn: () => Run): Run => {
  const t = performance.now();
  const r = fn();
  console.log(`${label}: ${(performance.now() - t).toFixed(0)} ms`);
  return r;
};

describe('NULL, zero, negative, far-future, infinite and text timestamps', () => {
  // The schema says NOT NULL; a store rebuilt by `.recover` or an old migration may not.
  function clockStore(): string {
    const path = buildStore(30, () => {});
    const loosen = new Database(path);
    loosen.unsafeMode(true);
    loosen.pragma('writable_schema = ON');
    loosen
      .prepare(
        `UPDATE sqlite_master SET sql = replace(replace(sql, 'timestamp REAL NOT NULL', 'timestamp REAL'),
           'started_at REAL NOT NULL', 'started_at REAL') WHERE name IN ('messages', 'sessions')`,
      )
      .run();
    loosen.pragma('writable_schema = OFF');
    loosen.close();
    const db = new Database(path);
    const kinds: [string, string][] = [
      ['ts-null', 'NULL'],
      ['ts-zero', '0'],
      ['ts-negative', '-315360000'],
      ['ts-future', '32503680000'],
      ['ts-far', '1e15'],
      ['ts-huge', '1e300'],
      ['ts-inf', '9e999'],
      ['ts-neginf', '-9e999'],
      ['ts-text', `'yesterday'`],
      ['ts-normal', String(T0)],
    ];
    for (const [id, t] of kinds) {
      db.exec(
        `INSERT INTO sessions (id, source, started_at, title) VALUES ('${id}', 'cli', ${t}, 'clock ${id}')`,
      );
      db.exec(`INSERT INTO messages (session_id, role, content, timestamp)
               VALUES ('${id}', 'user', 'chronos question in ${id}', ${t}),
                      ('${id}', 'assistant', 'chronos answer in ${id}', ${t})`);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    return path;
  }

  it('the store layer lists, sorts and searches them without failing', () => {
    const path = clockStore();
    const store = Store.open(path);
    try {
      const rows = browse(store, { limit: 50 });
      expect(rows).toHaveLength(10);
      expect(browse(store, { limit: 50 })).toEqual(rows);
      for (const sort of ['relevance', 'newest', 'oldest'] as const) {
        const r = discover(store, 'chronos', { limit: 50, sort });
        expect(r.results).toHaveLength(10);
        for (const x of r.results) expect(x.when).toMatch(ISO_OR_UNKNOWN);
      }
      const far = discover(store, 'chronos', { limit: 50 }).results.find(
        (x) => x.session_id === 'ts-far',
      );
      expect(far?.when).toBe('unknown');
      for (const m of readSession(store, 'ts-null').messages) {
        expect(() =>
          quote({
            profile: 'default',
            sessionId: 'ts-null',
            messageId: m.id,
            ...m,
            content: String(m.content),
          }),
        ).not.toThrow();
      }
      const window = readSession(store, 'ts-inf').messages;
      expect(
        conversationMarkdown({ profile: 'default', sessionId: 'ts-inf' }, window).text,
      ).not.toMatch(BROKEN_TEXT);
    } finally {
      store.close();
    }
  });

  it('the CLI prints them: JSON as stored (non-finite as null), text with "?" or "unknown"', () => {
    const path = clockStore();
    const recent = ok(lookback(['recent', '--db', path, '--json', '--limit', '50'])).json();
    expect(recent.count).toBe(10);
    for (const sort of ['relevance', 'newest', 'oldest']) {
      const found = ok(
        lookback(['search', 'chronos', '--db', path, '--json', '--limit', '50', '--sort', sort]),
      ).json();
      expect(found.count).toBe(10);
      for (const r of found.results as { when: string }[]) expect(r.when).toMatch(ISO_OR_UNKNOWN);
    }
    const texts = [
      ok(lookback(['recent', '--db', path, '--limit', '50'])).stdout,
      ok(lookback(['search', 'chronos', '--db', path, '--limit', '50'])).stdout,
      ...['ts-null', 'ts-inf', 'ts-neginf', 'ts-text', 'ts-far', 'ts-huge'].map(
        (id) => ok(lookback(['read', id, '--db', path])).stdout,
      ),
    ];
    for (const t of texts) expect(t).not.toMatch(BROKEN_TEXT);
    expect(texts[0]).toContain('   ?  cli'); // a NULL or text activity shows as "?"
  });
});

describe('bytes that are not UTF-8, and lone surrogates, in TEXT columns', () => {
  it('read as U+FFFD everywhere, searchable, inert in text', () => {
    const path = buildStore(30, (db) => {
      insertSession(db, { id: 'bytes', started_at: T0 });
      // Truncated sequence, invalid bytes, a CESU-8 lone surrogate, an overlong slash, > U+10FFFF.
      const bad = `X'C3' || ' ' || X'FFFE' || ' ' || X'EDA080' || ' ' || X'C0AF' || ' ' || X'F4908080'`;
      db.exec(`UPDATE sessions SET title = CAST(X'4D6F6A69FF62616B65' AS TEXT) WHERE id = 'bytes'`);
      db.exec(`INSERT INTO messages (session_id, role, content, timestamp)
               VALUES ('bytes', 'user', 'mojibake here: ' || CAST(${bad} AS TEXT) || ' end', ${T0 + 1})`);
      db.exec(`INSERT INTO messages (session_id, role, content, tool_name, tool_calls, timestamp)
               VALUES ('bytes', 'assistant', CAST(X'ED' AS TEXT) || ' mojibake reply', CAST(X'7465726DFF' AS TEXT),
                       '[{"id":"c1","type":"function","function":{"name":"' || CAST(X'FF' AS TEXT) || '","arguments":"{}"}}]', ${T0 + 2})`);
      // JavaScript's own lone surrogates go in as CESU-8 bytes, the same thing.
      insertMessage(db, {
        session_id: 'bytes',
        content: 'mojibake from js \ud800 and \udfff',
        timestamp: T0 + 3,
      });
    });
    const store = Store.open(path);
    try {
      const r = discover(store, 'mojibake', { limit: 5 });
      expect(r.results).toHaveLength(1);
      const texts = r.results[0]!.messages.map((m) => String(m.content));
      expect(texts.join('')).toContain('\ufffd');
      for (const t of texts) expect(unsafeIn(t)).toEqual([]);
    } finally {
      store.close();
    }
    const json = ok(lookback(['search', 'mojibake', '--db', path, '--json']));
    expect(unsafeIn(json.stdout)).toEqual([]);
    expect(json.stdout).toContain('\ufffd');
    for (const args of [
      ['search', 'mojibake'],
      ['read', 'bytes'],
      ['recent'],
      ['scroll', 'bytes', '2'],
    ]) {
      const r = ok(lookback([...args, '--db', path]));
      expect(unsafeIn(r.stdout + r.stderr), args.join(' ')).toEqual([]);
    }
  });
});

describe('a 5 MB message', () => {
  it('is found, capped at 4,000 characters in JSON (with its length) and cut short in text, quickly', () => {
    const big = `needle at the start ${'lorem ipsum dolor sit amet '.repeat(194_000)} and a needle at the end`;
    expect(big.length).toBeGreaterThan(5_000_000);
    const path = buildStore(30, (db) => {
      insertSession(db, { id: 'huge', started_at: T0, title: 'a pasted log' });
      insertMessage(db, { session_id: 'huge', content: 'please look at this log' });
      insertMessage(db, { session_id: 'huge', role: 'assistant', content: big });
      insertMessage(db, { session_id: 'huge', role: 'tool', tool_name: 'terminal', content: big });
      insertMessage(db, {
        session_id: 'huge',
        role: 'assistant',
        content: 'the needle is a timeout',
      });
    });
    const json = ok(
      timed('5 MB: search --json', () => lookback(['search', 'needle', '--db', path, '--json'])),
    );
    // The agent's cap: the window shows 4,000 characters and says how long the message was.
    const hit = (
      json.json().results as {
        messages: {
          content: string;
          content_truncated?: boolean;
          original_content_chars?: number;
        }[];
      }[]
    )[0]!;
    const cut = hit.messages.filter((m) => m.content_truncated === true);
    expect(cut.length).toBeGreaterThan(0);
    for (const m of cut) {
      expect(m.original_content_chars).toBe(big.length);
      expect(m.content).toBe(`${big.slice(0, 4000)}…`);
    }
    const text = ok(
      timed('5 MB: search (text)', () => lookback(['search', 'needle', '--db', path])),
    );
    expect(text.stdout.length).toBeLessThan(5_000);
    const read = ok(timed('5 MB: read (text)', () => lookback(['read', 'huge', '--db', path])));
    expect(read.stdout.length).toBeLessThan(5_000);
    const scrolled = ok(
      timed('5 MB: scroll --json', () => lookback(['scroll', 'huge', '2', '--db', path, '--json'])),
    );
    expect(scrolled.json().messages).toHaveLength(4);
    const tools = ok(lookback(['search', 'needle', '--roles', 'tool', '--db', path, '--json']));
    expect(tools.json().count).toBe(1);
  });
});

describe('a 50,000-message session', () => {
  const N = 50_000;
  function longSession(layout: Layout): string {
    return buildStore(layout, (db) => {
      insertSession(db, { id: 'long', started_at: T0, title: 'the marathon' });
      insertSession(db, { id: 'short', started_at: T0 + 10, title: 'a short one' });
      insertMessage(db, {
        session_id: 'short',
        content: 'a turn about zeppelin design',
        timestamp: T0 + 11,
      });
      const words = ['pool', 'cache', 'retry', 'index', 'vacuum', 'deploy', 'ledger'];
      for (let i = 0; i < N; i++)
        insertMessage(
          db,
          {
            session_id: 'long',
            role: i % 2 ? 'assistant' : 'user',
            content:
              i === N / 2
                ? 'the zeppelin decision, finally'
                : `turn ${i} about ${words[i % words.length]}`,
            timestamp: T0 + 20 + i,
          },
          { updateCounts: false },
        );
      db.prepare(`UPDATE sessions SET message_count = ? WHERE id = 'long'`).run(N);
    });
  }

  it.each([16, 30] as const)(
    'schema %i: read, scroll, search and recent stay correct and quick',
    (layout) => {
      const path = longSession(layout);
      const recent = ok(
        timed(`50k v${layout}: recent`, () => lookback(['recent', '--db', path, '--json'])),
      ).json();
      expect((recent.results as { message_count: number }[]).map((r) => r.message_count)).toContain(
        N,
      );
      const read = ok(
        timed(`50k v${layout}: read`, () => lookback(['read', 'long', '--db', path, '--json'])),
      ).json();
      expect(read).toMatchObject({ message_count: N, truncated: true });
      expect(read.messages).toHaveLength(30);
      const found = ok(
        timed(`50k v${layout}: search`, () =>
          lookback(['search', 'zeppelin', '--db', path, '--json']),
        ),
      ).json();
      const hit = (found.results as Record<string, unknown>[]).find(
        (r) => r.session_id === 'long',
      )!;
      expect(hit).toMatchObject({ messages_before: 5, messages_after: 5 });
      expect(hit.bookend_start).toHaveLength(3);
      expect(hit.bookend_end).toHaveLength(3);
      const middle = Number(hit.match_message_id);
      const scrolled = ok(
        timed(`50k v${layout}: scroll`, () =>
          lookback(['scroll', 'long', String(middle), '--window', '20', '--db', path, '--json']),
        ),
      ).json();
      expect(scrolled.messages).toHaveLength(41);
      const common = ok(
        timed(`50k v${layout}: search common word`, () =>
          lookback(['search', 'vacuum', '--db', path, '--json']),
        ),
      ).json();
      expect(common.count).toBe(1);

      const store = Store.open(path);
      try {
        expect(countVisible(store, 'long')).toBe(N);
        expect(countBefore(store, 'long', middle)).toBe(N / 2);
        const tail = scroll(store, 'long', middle + N / 2 - 1, 20);
        expect(tail.messages_after).toBe(0);
      } finally {
        store.close();
      }
    },
  );
});
