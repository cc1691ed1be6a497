/**
 * lookback_snippet() (native/snippet.c) against FTS5's own snippet(): the shown rows'
 * snippets are built from what the ranking statement recorded (lookback_note()) and
 * must be byte-identical to snippet(table, -1, open, close, ellipsis, n) run directly,
 * for every row of many queries (words, phrases, prefixes, OR, NOT, NEAR, column
 * filters, initial tokens, CJK over the trigram table, diacritics, punctuation,
 * emoji, rows whose best column is reasoning or tool_calls, texts of one token to
 * hundreds) at several snippet lengths. Then: a record is never used for another
 * query; a search's snippets come from the record (counted), and its answers equal
 * those of a search without the extension (snippet() itself); and each of 25 hits,
 * their windows read ten to a statement, gets its own window and bookends.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { findRankExtension, hasSnippetNotes } from '../../src/agents/rankExt.js';

let dir: string;
let file: string;
const saved = process.env.LOOKBACK_RANK_EXT;
afterEach(() => {
  if (saved === undefined) delete process.env.LOOKBACK_RANK_EXT;
  else process.env.LOOKBACK_RANK_EXT = saved;
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'deploy',
  'deployment',
  'deployed',
  'pgbouncer',
  'timeout',
  'connection',
  'pool',
  'migration',
  'webhook',
  'ledger',
  'café',
  'naïve',
  'Straße',
  'Ærø',
  'résumé',
  'cache',
  'worker',
  'retry',
  'the',
  'a',
  'of',
  'and',
  'to',
  'in',
  'error',
  'failed',
  'queue',
  'index',
  'rebuild',
  'schema',
];
const PUNCT = [
  '.',
  '.\n',
  ':\n\n',
  '.\t',
  ',',
  ':',
  ';',
  '!',
  '?',
  ' —',
  ' (x)',
  ' "q"',
  ' 🚀',
  ' 👍🏽',
  '\n',
  '\n\n',
  '...',
];
const CJK = ['连接池超时', '数据库迁移', '部署失败', '缓存', '队列', '重试', '索引重建'];

function sentence(r: () => number, n: number, cjk: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let w =
      cjk && r() < 0.3
        ? CJK[Math.floor(r() * CJK.length)]!
        : WORDS[Math.floor(r() * WORDS.length)]!;
    if (r() < 0.15) w += PUNCT[Math.floor(r() * PUNCT.length)]!;
    out.push(w);
  }
  return out.join(r() < 0.1 ? '  ' : ' ');
}

const LENGTHS = [1, 2, 5, 12, 39, 40, 41, 80, 200, 600];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-snip-'));
  file = join(dir, 'index.db');
  const { db } = openIndex(file);
  const r = rng(18);
  const ins = db.prepare(
    `INSERT INTO messages (conv_id, ordinal, anchor, role, kind, text, reasoning, tool_calls, created_at, cjk)
     VALUES (?, ?, ?, ?, 'text', ?, ?, ?, ?, ?)`,
  );
  const conv = db.prepare(
    `INSERT INTO conversations (agent, native_id, title, started_at, last_active_at) VALUES ('codex', ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let c = 1; c <= 40; c++) {
      const convId = Number(
        conv.run(`s${c}`, `session ${c}`, c * 1000, c * 1000 + 999).lastInsertRowid,
      );
      for (let o = 0; o < 30; o++) {
        const cjk = r() < 0.25;
        const len = LENGTHS[Math.floor(r() * LENGTHS.length)]!;
        const text = sentence(r, len, cjk);
        // Some rows hold the words only in reasoning or tool_calls, so that column wins.
        const reasoning = r() < 0.3 ? sentence(r, LENGTHS[Math.floor(r() * 7)]!, cjk) : null;
        const tools =
          r() < 0.2
            ? JSON.stringify([{ name: 'shell', arguments: { cmd: sentence(r, 6, cjk) } }])
            : null;
        ins.run(
          convId,
          o,
          `m${o}`,
          o % 2 ? 'assistant' : 'user',
          text,
          reasoning,
          tools,
          c * 1000 + o,
          cjk ? 1 : 0,
        );
      }
    }
    // Edge rows: the match only in reasoning / only in tool_calls, empty text, one token.
    ins.run(
      1,
      100,
      'e1',
      'assistant',
      '',
      'zanzibar appears only in reasoning. and again zanzibar',
      null,
      1,
      0,
    );
    ins.run(
      1,
      101,
      'e2',
      'assistant',
      'ok',
      null,
      '[{"name":"shell","arguments":{"cmd":"zanzibar --fix"}}]',
      2,
      0,
    );
    ins.run(1, 102, 'e3', 'user', 'zanzibar', null, null, 3, 0);
    // Scores that only the exact weights order: a sentence-start-0 window (1 + 120)
    // against a later sentence's 16 instances (16 + 100) at 40 tokens; a later
    // sentence's 14 instances (+ 100) against 64 repeats at 64 tokens.
    const f = (n: number) => Array(n).fill('filler').join(' ');
    const k = (n: number) => Array(n).fill('kumquat').join(' ');
    ins.run(
      1,
      103,
      'e4',
      'user',
      `filler kumquat ${f(45)}. filler ${k(16)} ${f(30)}`,
      null,
      null,
      4,
      0,
    );
    ins.run(1, 104, 'e5', 'user', `alpha beta gamma. ${f(50)} ${k(70)} end`, null, null, 5, 0);
  })();
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORD_QUERIES = [
  'deploy',
  'pgbouncer timeout',
  '"connection pool"',
  'webhook OR ledger',
  'deploy*',
  'dep*',
  'cafe',
  'café',
  'naive',

  'straße',

  'ærø',
  'resume',
  'error NOT timeout',
  'NEAR(pgbouncer timeout, 3)',
  'NEAR(cache worker retry, 10)',
  'reasoning: deploy',
  '{reasoning tool_calls}: retry',
  'tool_calls: shell',
  '^the',
  '^deploy',
  'text: pool AND reasoning: queue',
  '"the a of"',
  'the',
  'a OR of OR and',
  'zanzibar',
  'kumquat',
  '"failed queue" OR (cache AND index)',
  'schema* NOT rebuild',
  '"pool" + "timeout"',
];
const TRIGRAM_QUERIES = [
  '连接池超时',
  '数据库',
  '部署失败',
  '索引重建 OR 缓存队列',
  '"池超时"',
  'connection',
  'ool',
];

type Table = 'messages_fts' | 'messages_fts_trigram';
const TOKENIZER: Record<Table, string> = {
  messages_fts: 'unicode61',
  messages_fts_trigram: 'trigram',
};

/** Each matching row: [rowid, snippet() directly, lookback_snippet() from the record]. */
function both(db: Database.Database, t: Table, q: string, n: number, gen: number) {
  const direct = db
    .prepare(
      `SELECT rowid, snippet(${t}, -1, '>>>', '<<<', '...', ?) FROM ${t} WHERE ${t} MATCH ? ORDER BY rowid DESC`,
    )
    .raw(true)
    .all(n, q) as [number, string | null][];
  // The ranking statement's shape (queries.ts rankedPool), recording every row.
  db.prepare(
    `SELECT rowid, lookback_bm25(${t}), lookback_note(${t}, ?) FROM ${t} WHERE ${t} MATCH ? ORDER BY rowid DESC`,
  )
    .raw(true)
    .all(gen, q);
  const made = new Map(
    (
      db
        .prepare(
          `SELECT id, lookback_snippet(?, id, ?, '>>>', '<<<', '...', ?, text, reasoning, tool_calls)
           FROM messages WHERE id IN (SELECT value FROM json_each(?))`,
        )
        .raw(true)
        .all(gen, TOKENIZER[t], n, JSON.stringify(direct.map((d) => d[0]))) as [
        number,
        string | null,
      ][]
    ).map(([id, s]) => [id, s]),
  );
  return direct.map(([id, s]) => [id, s, made.get(id)] as const);
}

function withExtension(): Database.Database {
  const ext = findRankExtension();
  expect(ext, 'the extension is built (npm install)').not.toBeNull();
  const db = new Database(file);
  db.loadExtension(ext!);
  return db;
}

it('lookback_snippet() equals snippet() byte for byte on every row of every query', () => {
  const db = withExtension();
  let gen = 0;
  let rows = 0;
  let fromOther = 0; // snippets taken from reasoning or tool_calls
  let elided = 0;
  const mismatches: string[] = [];
  for (const [t, qs] of [
    ['messages_fts', WORD_QUERIES],
    ['messages_fts_trigram', TRIGRAM_QUERIES],
  ] as const) {
    for (const q of qs) {
      let matched = 0;
      for (const n of [1, 3, 10, 40, 64]) {
        for (const [id, direct, made] of both(db, t, q, n, ++gen)) {
          matched++;
          rows++;
          if (made !== direct)
            mismatches.push(
              `${t} ${q} n=${n} row ${id}: ${JSON.stringify(direct)} vs ${JSON.stringify(made)}`,
            );
          const text = db
            .prepare(`SELECT text FROM messages WHERE id = ?`)
            .pluck()
            .get(id) as string;
          if (direct && !text.includes(direct.replace(/>>>|<<<|^\.\.\.|\.\.\.$/g, '').slice(0, 8)))
            fromOther++;
          if (direct?.startsWith('...') || direct?.endsWith('...')) elided++;
        }
      }
      expect(matched, `${t} "${q}" matches something`).toBeGreaterThan(0);
    }
  }
  expect(mismatches.slice(0, 5)).toEqual([]);
  expect(rows).toBeGreaterThan(5000);
  expect(fromOther).toBeGreaterThan(50);
  expect(elided).toBeGreaterThan(500);
  db.close();
});

it('never uses a record for another query: another number, an unrecorded row, a reset', () => {
  const db = withExtension();
  const snip = db
    .prepare(
      `SELECT lookback_snippet(?, id, 'unicode61', '>>>', '<<<', '...', 40, text, reasoning, tool_calls) FROM messages WHERE id = ?`,
    )
    .pluck();
  const ids = db
    .prepare(
      `SELECT rowid, lookback_note(messages_fts, 7) FROM messages_fts WHERE messages_fts MATCH 'zanzibar' ORDER BY rowid DESC`,
    )
    .raw(true)
    .all() as [number][];
  expect(ids.length).toBe(3);
  const id = ids[0]![0];
  expect(snip.get(7, id)).toMatch(/>>>zanzibar<<</);
  expect(snip.get(6, id)).toBeNull(); // another query's number
  const other = db
    .prepare(`SELECT id FROM messages WHERE text NOT LIKE '%zanzibar%' LIMIT 1`)
    .pluck()
    .get();
  expect(snip.get(7, other)).toBeNull(); // a row the ranking never visited
  // A new query's record replaces the old one.
  db.prepare(
    `SELECT lookback_note(messages_fts, 8) FROM messages_fts WHERE messages_fts MATCH 'pgbouncer' ORDER BY rowid DESC LIMIT 5`,
  ).all();
  expect(snip.get(7, id)).toBeNull();
  db.prepare(`SELECT lookback_note_reset()`).get();
  expect(db.prepare(`SELECT lookback_snippet_counts()`).pluck().get()).toMatch(
    /"made":1,"declined":3/,
  );
  db.close();
});

it('search takes its snippets from the record, and answers as snippet() does without the extension', () => {
  const queries = [
    'deploy',
    'pgbouncer timeout',
    '"connection pool"',
    'webhook OR ledger',
    'dep*',
    'zanzibar',
    '连接池超时',
    'cafe resume',
  ];
  // By relevance (snippets from the record), by time (from snippet()), with tool rows.
  const asks = queries.flatMap((q) =>
    [
      { limit: 10, all: false },
      { limit: 10, all: false, sort: 'newest' as const },
      { limit: 5, all: true, roles: ['user', 'assistant', 'tool'] },
    ].map((o) => [q, o] as const),
  );
  const withExt = new Database(file, { readonly: true });
  expect(hasSnippetNotes(withExt)).toBe(true);
  const a = asks.map(([q, o]) => JSON.stringify(searchAgentsJson(withExt, q, AGENTS, o)));
  const counts = JSON.parse(
    withExt.prepare(`SELECT lookback_snippet_counts()`).pluck().get() as string,
  ) as {
    made: number;
    declined: number;
  };
  expect(counts.declined).toBe(0);
  expect(counts.made).toBeGreaterThan(40);
  withExt.close();
  process.env.LOOKBACK_RANK_EXT = 'off';
  const without = new Database(file, { readonly: true });
  expect(hasSnippetNotes(without)).toBe(false);
  const b = asks.map(([q, o]) => JSON.stringify(searchAgentsJson(without, q, AGENTS, o)));
  without.close();
  expect(a).toEqual(b);
  expect(a.join('').match(/>>>/g)?.length ?? 0).toBeGreaterThan(40);
});

it('gives each of 25 hits its own window and bookends (three statements of up to ten hits)', () => {
  const db = new Database(file, { readonly: true });
  const r = searchAgentsJson(db, 'the OR a OR deploy', AGENTS, { limit: 25, all: false });
  const results = r.results as {
    session_id: string;
    match_message_id: string;
    messages: { id: string }[];
    bookend_start: { id: string }[];
    bookend_end: { id: string }[];
    messages_before: number;
    messages_after: number;
  }[];
  expect(results.length).toBe(25);
  type Row = { anchor: string; ordinal: number; role: string; text: string };
  for (const h of results) {
    // The oracle: the conversation's rows in order (every generated row is shown).
    const rows = db
      .prepare(
        `SELECT m.anchor, m.ordinal, m.role, m.text FROM messages m JOIN conversations c ON c.id = m.conv_id
         WHERE c.native_id = ? ORDER BY m.ordinal`,
      )
      .all(h.session_id) as Row[];
    const at = rows.findIndex((x) => x.anchor === h.match_message_id);
    const win = rows.slice(Math.max(0, at - 5), at + 6);
    const edge = rows.filter((x) => x.text !== '');
    const ids = (xs: { anchor: string }[]) => xs.map((x) => x.anchor);
    expect(h.messages.map((m) => m.id)).toEqual(ids(win));
    expect(h.messages_before).toBe(Math.min(5, at));
    expect(h.messages_after).toBe(Math.min(5, rows.length - at - 1));
    expect(h.bookend_start.map((m) => m.id)).toEqual(
      ids(edge.slice(0, 3).filter((x) => x.ordinal < win[0]!.ordinal)),
    );
    expect(h.bookend_end.map((m) => m.id)).toEqual(
      ids(edge.slice(-3).filter((x) => x.ordinal > win[win.length - 1]!.ordinal)),
    );
  }
  db.close();
});
