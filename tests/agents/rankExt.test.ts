/**
 * lookback_bm25() (native/rank.c, loaded by src/agents/rankExt.ts) against FTS5's
 * bm25() on a generated index: the same rows in the same order, with the same
 * scores wherever a query has several phrases; the document counts come from
 * `term_df` (counted, not timed: lookback_rank_counts() says how many phrase
 * counts were read from the table and how many walked live); a missing word is
 * walked live; and search without the extension (absent, or not loadable) gives
 * the same answers through bm25().
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex, refreshTermDocs } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { IndexReader } from '../../src/agents/appReads.js';
import { findRankExtension, hasRankExtension, rankFunction } from '../../src/agents/rankExt.js';
import { generateHistories } from './generate.js';

let dir: string;
let file: string;
let env: Record<string, string>;
/** Two words found next to each other in the sample, as a quoted phrase. */
let phrase = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-rank-'));
  const home = join(dir, 'home');
  generateHistories(home, 80, 4000);
  env = { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' };
  file = join(dir, 'index.db');
  const { db } = openIndex(file);
  indexAll(db, { env });
  const text = db
    .prepare(`SELECT text FROM messages WHERE text GLOB 'w* w* w*' ORDER BY id LIMIT 1`)
    .pluck()
    .get() as string;
  phrase = `"${text.split(' ').slice(0, 2).join(' ')}"`;
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const saved = process.env.LOOKBACK_RANK_EXT;
afterEach(() => {
  if (saved === undefined) delete process.env.LOOKBACK_RANK_EXT;
  else process.env.LOOKBACK_RANK_EXT = saved;
});

type Scored = { rowid: number; s: number };
function ranked(
  db: Database.Database,
  fn: string,
  match: string,
  t: 'messages_fts' | 'messages_fts_trigram' = 'messages_fts',
): Scored[] {
  const rows = db
    .prepare(`SELECT rowid, ${fn}(${t}) AS s FROM ${t} WHERE ${t} MATCH ? ORDER BY rowid DESC`)
    .all(match) as Scored[];
  // The order rankedPool (src/agents/queries.ts) sorts in: best score, then newest.
  return rows.sort((a, b) => a.s - b.s || b.rowid - a.rowid);
}
const counts = (db: Database.Database) =>
  JSON.parse(db.prepare(`SELECT lookback_rank_counts()`).pluck().get() as string) as {
    scored: number;
    table: number;
    live: number;
    fixed: number;
  };

// [query, phrases counted live]: a phrase of several words among other phrases is walked.
// PHRASE stands for two words found side by side in the sample.
const QUERIES: [string, number][] = [
  ['migration', 0],
  ['pgbouncer timeout', 0],
  ['webhook OR ledger', 0],
  ['migration NOT webhook', 0],
  ['NEAR(retry cache, 30)', 0],
  ['cache OR invalidation OR schema OR index', 0],
  ['PHRASE', 0],
  ['PHRASE OR timeout', 1],
];

it('finds the built extension and ranks word queries with it', () => {
  expect(findRankExtension()).not.toBeNull();
  const db = new Database(file, { readonly: true });
  try {
    expect(hasRankExtension(db)).toBe(true);
    expect(rankFunction(db, 'messages_fts', 'pgbouncer timeout')).toBe('lookback_bm25');
    // One phrase needs no count, prefix or trigram alike.
    for (const m of ['deploy*', '"connection pool"', '"pool"*'])
      expect(rankFunction(db, 'messages_fts', m)).toBe('lookback_bm25');
    expect(rankFunction(db, 'messages_fts_trigram', '"连接池超时"')).toBe('lookback_bm25');
    // Several phrases with a prefix, an initial token or a column filter, or over
    // the trigram table: bm25().
    for (const m of ['deploy* OR cache', '^deploy', 'text: deploy', '"pgbounc"* OR "timeout"*'])
      expect(rankFunction(db, 'messages_fts', m)).toBe('bm25');
    expect(rankFunction(db, 'messages_fts_trigram', '"连接池超时" OR "缓存失效"')).toBe('bm25');
  } finally {
    db.close();
  }
});

it.each(QUERIES)(
  '%s: the same rows in the same order as bm25(), counts from term_df',
  (query, live) => {
    const q = query.replace('PHRASE', phrase);
    const db = new Database(file, { readonly: true });
    try {
      expect(hasRankExtension(db)).toBe(true);
      const a = ranked(db, 'bm25', q);
      const before = counts(db);
      const b = ranked(db, 'lookback_bm25', q);
      const after = counts(db);
      expect(a.length).toBeGreaterThan(0);
      expect(b.map((r) => r.rowid)).toEqual(a.map((r) => r.rowid));
      // With one phrase of several words its rarest word's count stands in for the
      // phrase's: a different positive factor on every score, the same order. Else
      // the counts are bm25()'s own, and so is every score, bit for bit.
      if (query !== 'PHRASE') expect(b.map((r) => r.s)).toEqual(a.map((r) => r.s));
      expect(after.scored - before.scored).toBe(b.length);
      expect(after.live - before.live).toBe(live);
      expect(after.table - before.table).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  },
);

// [query, table, [live, table, fixed]]: a lone prefix takes its word's count as the
// factor (any positive one keeps the order); trigrams take 1; no match, no count.
it.each([
  ['deploy*', 'messages_fts', [0, 1, 0]],
  ['"zzznotaword"', 'messages_fts', [0, 0, 0]],
  ['"连接池超时"', 'messages_fts_trigram', [0, 0, 1]],
] as const)("%s (one phrase, %s): bm25()'s order, nothing walked", (q, t, want) => {
  const db = new Database(file, { readonly: true });
  try {
    expect(hasRankExtension(db)).toBe(true);
    const a = ranked(db, 'bm25', q, t);
    const c0 = counts(db);
    const b = ranked(db, 'lookback_bm25', q, t);
    const c1 = counts(db);
    if (!q.includes('zzz')) expect(a.length).toBeGreaterThan(5);
    expect(b.map((r) => r.rowid)).toEqual(a.map((r) => r.rowid));
    expect([c1.live - c0.live, c1.table - c0.table, c1.fixed - c0.fixed]).toEqual(want);
  } finally {
    db.close();
  }
});

it('fills term_df at the first build with fts5vocab counts, refills only after growth', () => {
  const { db } = openIndex(file);
  try {
    db.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, messages_fts, row)`);
    const mismatched = db
      .prepare(
        `SELECT count(*) FROM temp.v LEFT JOIN term_df d USING (term) WHERE d.docs IS NOT v.doc`,
      )
      .pluck()
      .get();
    expect(mismatched).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM term_df`).pluck().get()).toBeGreaterThan(1000);
    const at = db.prepare(`SELECT at FROM term_df_fill`).pluck().get();
    // An idle pass writes nothing and leaves the counts as they are.
    expect(indexAll(db, { env }).messages).toBe(0);
    expect(db.prepare(`SELECT at FROM term_df_fill`).pluck().get()).toBe(at);
    expect(refreshTermDocs(db)).toBe(false);
    // 4 % more messages since the fill: kept; 6 %: filled again.
    const top = db.prepare(`SELECT top FROM term_df_fill`).pluck().get() as number;
    db.prepare(`UPDATE term_df_fill SET top = ?`).run(Math.ceil(top / 1.04));
    expect(refreshTermDocs(db)).toBe(false);
    db.prepare(`UPDATE term_df_fill SET top = ?`).run(Math.floor(top / 1.06));
    expect(refreshTermDocs(db)).toBe(true);
    expect(db.prepare(`SELECT top FROM term_df_fill`).pluck().get()).toBe(top);
  } finally {
    db.close();
  }
});

it('walks a word missing from term_df live, and every word without the table', () => {
  const { db } = openIndex(file);
  try {
    expect(hasRankExtension(db)).toBe(true);
    const a = ranked(db, 'bm25', 'ledger retry');
    db.exec(`DELETE FROM term_df WHERE term = 'ledger'`);
    let c0 = counts(db);
    expect(ranked(db, 'lookback_bm25', 'ledger retry')).toEqual(a);
    let c1 = counts(db);
    expect([c1.live - c0.live, c1.table - c0.table]).toEqual([1, 1]);
    db.exec(`ALTER TABLE term_df RENAME TO term_df_away`);
    c0 = counts(db);
    expect(ranked(db, 'lookback_bm25', 'ledger retry')).toEqual(a);
    c1 = counts(db);
    expect([c1.live - c0.live, c1.table - c0.table]).toEqual([2, 0]);
    db.exec(`ALTER TABLE term_df_away RENAME TO term_df`);
    expect(refreshTermDocs(db, true)).toBe(true);
  } finally {
    db.close();
  }
});

const SEARCHES = ['migration', 'pgbouncer timeout', '"connection pool"', 'webhook OR ledger'];
function answers(): string {
  const db = new Database(file, { readonly: true });
  const reader = new IndexReader(file, AGENTS);
  try {
    return JSON.stringify(
      SEARCHES.map((q) => [
        searchAgentsJson(db, q, AGENTS, { limit: 10, all: false }).results,
        reader
          .search(q, {
            limit: 50,
            roles: ['user', 'assistant'],
            sort: 'relevance',
            markers: ['[', ']'],
          })
          .map((h) => [h.conv.id, h.msg.id, h.snippet]),
      ]),
    );
  } finally {
    reader.close();
    db.close();
  }
}

it('answers the same without the extension: not built, or not loadable (bm25(), no error)', () => {
  const withExt = answers();
  expect(withExt).toContain('pgbouncer');
  process.env.LOOKBACK_RANK_EXT = 'off';
  expect(answers()).toBe(withExt);
  // A file that is no SQLite extension: loadExtension throws, search carries on.
  process.env.LOOKBACK_RANK_EXT = join(process.cwd(), 'package.json');
  const db = new Database(file, { readonly: true });
  try {
    expect(hasRankExtension(db)).toBe(false);
    expect(rankFunction(db, 'messages_fts', 'migration')).toBe('bm25');
  } finally {
    db.close();
  }
  expect(answers()).toBe(withExt);
});
