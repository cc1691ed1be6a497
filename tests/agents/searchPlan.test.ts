/**
 * What a search over the agents' index costs, counted instead of timed: the
 * statements one search runs (a fixed few plus three per shown hit, whatever the
 * index holds) and their query plans (no full scan of messages or conversations,
 * no sort of every match). The bench has the times; these fail on any machine.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { hasRankExtension } from '../../src/agents/rankExt.js';
import { generateHistories } from './generate.js';

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-plan-'));
  const home = join(dir, 'home');
  generateHistories(home, 60, 3000);
  file = join(dir, 'index.db');
  const { db } = openIndex(file);
  indexAll(db, { env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' } });
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The statements one search runs (after a first one prepared them). */
function statementsOf(query: string, limit: number): { sql: string[]; results: number } {
  const sql: string[] = [];
  const db = new Database(file, { readonly: true, verbose: (s) => sql.push(String(s)) });
  try {
    searchAgentsJson(db, query, AGENTS, { limit, all: false });
    sql.length = 0;
    const r = searchAgentsJson(db, query, AGENTS, { limit, all: false });
    return { sql, results: (r.results as unknown[]).length };
  } finally {
    db.close();
  }
}

it.each(['migration', 'pgbouncer timeout', 'webhook OR ledger', 'deploy*'])(
  'a search for %s runs a fixed few statements plus three per shown hit',
  (q) => {
    const { sql, results } = statementsOf(q, 10);
    expect(results).toBeGreaterThan(0);
    // The ranked pool and its wider windows, the rows it keeps (a chunk at a time), the
    // snippets (1), the relaxed leg when a page is short; per hit its conversation, its row
    // and its window with bookends. Never a statement per candidate match.
    expect(sql.length).toBeLessThanOrEqual(8 + 3 * results);
  },
);

it('plans every statement of a search without a full scan of messages or conversations', () => {
  const db = new Database(file, { readonly: true });
  try {
    // The ranked statements call lookback_bm25() (native/rank.c): it must be known to plan them.
    expect(hasRankExtension(db)).toBe(true);
    const seen = new Set<string>();
    for (const q of ['migration', 'pgbouncer timeout', 'webhook OR ledger', 'deploy*'])
      for (const s of statementsOf(q, 10).sql) seen.add(s);
    expect(seen.size).toBeGreaterThan(3);
    for (const sql of seen) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join('\n');
      expect(plan, sql).not.toMatch(/^SCAN (m|messages|c|conversations)\b(?! VIRTUAL)/m);
      expect(plan, sql).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  } finally {
    db.close();
  }
});

it.each(['migration', 'pgbouncer timeout', 'webhook OR ledger', 'deploy*'])(
  'a search for %s scores each leg with bm25() or lookback_bm25() in one statement',
  (q) => {
    // bm25() first walks each phrase's whole doclist to count its rows (the IDF),
    // the largest cost of a search over a million messages: a second ranked
    // statement for the same MATCH (a widened window, a re-run) pays that walk
    // again. The exact leg has one; the relaxed leg, when a page is short, one more.
    // Word queries rank with lookback_bm25() (no walk: tests/agents/rankExt.test.ts);
    // several prefix phrases stay on bm25(),
    const { sql } = statementsOf(q, 10);
    const ranked = sql.filter((s) => /\b(?:lookback_)?bm25\(/.test(s));
    // and so does the relaxed leg's OR of stems, several prefix phrases; a lone
    // prefix (`deploy*`, one phrase) needs no count and takes lookback_bm25().
    for (const s of ranked) {
      const match = /MATCH '((?:[^']|'')*)'/.exec(s)![1]!;
      const several = /\s/.test(match.trim());
      expect(s).toMatch(
        several && match.includes('*')
          ? /[^_]bm25\(messages_fts\)/
          : /lookback_bm25\(messages_fts\)/,
      );
    }
    expect(ranked[0]).toMatch(/lookback_bm25\(/);
    const legs = new Set(ranked.map((s) => /MATCH ('(?:[^']|'')*')/.exec(s)?.[1]));
    expect(ranked.length, ranked.join('\n')).toBeGreaterThanOrEqual(1);
    expect(ranked.length, ranked.join('\n')).toBe(legs.size);
    expect(legs.size).toBeLessThanOrEqual(2);
  },
);
