/**
 * `LOOKBACK_BENCH_ONLY=rank`: bm25() against lookback_bm25() (native/rank.c) on the
 * same million-message index, interleaved in one process so machine load falls on
 * both alike. "bm25()" is a connection without the extension: the statements main
 * runs, unchanged. Per query: CLI search (limit 10, anchored windows) and app
 * search (limit 50), CPU and wall medians of paired runs and the ratio; the
 * phrase counts read from term_df and walked live; then what stale counts change
 * (top-10 overlap with term_df as it was 5 % and 25 % of growth ago).
 * LOOKBACK_BENCH_RANK_INDEX=FILE picks the index (default: the agents bench's).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IndexReader } from '../../src/agents/appReads.js';
import { INDEX_LAYOUT, openIndex, refreshTermDocs } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { hasRankExtension } from '../../src/agents/rankExt.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { GENERATED_QUERIES } from '../agents/generate.js';
import { fmt, median } from './stats.js';

const QUERIES = GENERATED_QUERIES;

function cpuMs(fn: () => unknown): [number, number] {
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  const d = process.cpuUsage(c);
  return [(d.user + d.system) / 1000, performance.now() - t];
}

function withoutExtension<T>(make: () => T): T {
  const saved = process.env.LOOKBACK_RANK_EXT;
  process.env.LOOKBACK_RANK_EXT = 'off';
  try {
    return make();
  } finally {
    if (saved === undefined) delete process.env.LOOKBACK_RANK_EXT;
    else process.env.LOOKBACK_RANK_EXT = saved;
  }
}

const pad = (s: string, n: number) => s.padEnd(n);

export function benchRank(benchDir: string, runs: number): void {
  const file =
    process.env.LOOKBACK_BENCH_RANK_INDEX ??
    join(benchDir, `agents-index-L${INDEX_LAYOUT}-merged-1000000m.db`);
  if (!existsSync(file))
    throw new Error(`no index at ${file} (run LOOKBACK_BENCH_ONLY=agents first)`);
  {
    const { db } = openIndex(file);
    const t = performance.now();
    if (refreshTermDocs(db))
      console.log(`term_df filled from fts5vocab in ${fmt(performance.now() - t)}`);
    const n = db.prepare(`SELECT count(*) FROM term_df`).pluck().get() as number;
    console.log(`term_df: ${n.toLocaleString()} words`);
    db.close();
  }
  const pairs = Math.max(runs, 40);
  console.log(
    `\n## bm25() vs lookback_bm25(), ${pairs} interleaved pairs per query (CPU ms / wall ms)`,
  );
  const dbA = withoutExtension(() => {
    const d = new Database(file, { readonly: true });
    if (hasRankExtension(d)) throw new Error('the bm25() side loaded the extension');
    return d;
  });
  const dbB = new Database(file, { readonly: true });
  if (!hasRankExtension(dbB)) throw new Error('lookback_bm25() did not load (npm run install)');
  const app = (r: IndexReader, q: string) =>
    r.search(q, {
      limit: 50,
      roles: ['user', 'assistant'],
      sort: 'relevance',
      markers: ['\u0002', '\u0003'],
    });
  const appA = withoutExtension(() => {
    const r = new IndexReader(file, AGENTS);
    app(r, 'migration'); // its first search decides the ranking function: bm25() here
    return r;
  });
  const appB = new IndexReader(file, AGENTS);
  const cli = (db: Database.Database, q: string) =>
    searchAgentsJson(db, q, AGENTS, { limit: 10, all: false });
  const counts = () =>
    JSON.parse(dbB.prepare(`SELECT lookback_rank_counts()`).pluck().get() as string) as Record<
      string,
      number
    >;
  const medA: number[][] = [[], []];
  const medB: number[][] = [[], []];
  console.log(
    `${pad('query', 24)} ${pad('CLI bm25', 14)} ${pad('CLI ext', 14)} ${pad('ratio', 7)} ${pad('app bm25', 14)} ${pad('app ext', 14)} ${pad('ratio', 7)} same top-10  counts (ext, per CLI search)`,
  );
  for (const q of QUERIES) {
    const same =
      JSON.stringify(cli(dbA, q).results) === JSON.stringify(cli(dbB, q).results) &&
      JSON.stringify(app(appA, q).map((h) => h.msg.id)) ===
        JSON.stringify(app(appB, q).map((h) => h.msg.id));
    const c0 = counts();
    cli(dbB, q);
    const c1 = counts();
    const x = {
      cliA: [] as number[][],
      cliB: [] as number[][],
      appA: [] as number[][],
      appB: [] as number[][],
    };
    for (let i = 0; i < pairs; i++) {
      // Alternate which side runs first, so neither always follows the other's cache work.
      if (i % 2 === 0) {
        x.cliA.push(cpuMs(() => cli(dbA, q)));
        x.cliB.push(cpuMs(() => cli(dbB, q)));
        x.appA.push(cpuMs(() => app(appA, q)));
        x.appB.push(cpuMs(() => app(appB, q)));
      } else {
        x.cliB.push(cpuMs(() => cli(dbB, q)));
        x.cliA.push(cpuMs(() => cli(dbA, q)));
        x.appB.push(cpuMs(() => app(appB, q)));
        x.appA.push(cpuMs(() => app(appA, q)));
      }
    }
    const m = (xs: number[][], k: number) => median(xs.map((v) => v[k]!));
    const cell = (xs: number[][]) => `${m(xs, 0).toFixed(2)} / ${m(xs, 1).toFixed(2)}`;
    medA[0]!.push(m(x.cliA, 0));
    medB[0]!.push(m(x.cliB, 0));
    medA[1]!.push(m(x.appA, 0));
    medB[1]!.push(m(x.appB, 0));
    console.log(
      `${pad(q, 24)} ${pad(cell(x.cliA), 14)} ${pad(cell(x.cliB), 14)} ${pad((m(x.cliB, 0) / m(x.cliA, 0)).toFixed(3), 7)} ${pad(cell(x.appA), 14)} ${pad(cell(x.appB), 14)} ${pad((m(x.appB, 0) / m(x.appA, 0)).toFixed(3), 7)} ${pad(same ? 'yes' : 'NO', 12)} table ${c1.table! - c0.table!}, live ${c1.live! - c0.live!}`,
    );
  }
  const r = (k: number) => (median(medB[k]!) / median(medA[k]!)).toFixed(3);
  console.log(
    `median of the six (CPU ms): CLI ${median(medA[0]!).toFixed(2)} → ${median(medB[0]!).toFixed(2)} (${r(0)}x), app ${median(medA[1]!).toFixed(2)} → ${median(medB[1]!).toFixed(2)} (${r(1)}x)`,
  );

  // Stale counts: term_df as it was when the index was 1/(1+g) of its size (each
  // word's count scaled down alike), shadowed by a temp table on this connection.
  // Then uneven growth: each word's count scaled by its own factor in (0.5, 1]
  // (a hash of the word), as if some words had doubled since the fill and others not.
  const cases: [string, string][] = [
    ['counts 5 % stale', 'CAST(docs / 1.05 AS INTEGER)'],
    ['counts 25 % stale', 'CAST(docs / 1.25 AS INTEGER)'],
    [
      'each word 0-50 % stale',
      `CAST(docs * (0.5 + 0.5 * ((unicode(term) * 7 + length(term) * 13 + unicode(substr(term, -1)) * 31) % 101) / 100.0) AS INTEGER)`,
    ],
  ];
  for (const [label, expr] of cases) {
    const stale = new Database(file, { readonly: true });
    hasRankExtension(stale);
    stale.exec(
      `CREATE TEMP TABLE term_df (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
       INSERT INTO temp.term_df SELECT term, ${expr} FROM main.term_df;`,
    );
    const parts = QUERIES.map((q) => {
      const fresh = (cli(dbB, q).results as { match_message_id: string }[]).map(
        (h) => h.match_message_id,
      );
      const old = new Set(
        (cli(stale, q).results as { match_message_id: string }[]).map((h) => h.match_message_id),
      );
      return `${q} ${fresh.filter((id) => old.has(id)).length}/${fresh.length}`;
    });
    console.log(`top-10 overlap, ${label}: ${parts.join(', ')}`);
    stale.close();
  }
  appA.close();
  appB.close();
  dbA.close();
  dbB.close();
}
