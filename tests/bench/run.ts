/**
 * `npm run bench`: speed figures on generated stores of 200,000+ messages.
 * In-process medians with a warm cache, the raw SQLite time for the same query
 * beside each, and the wall time of a whole `lookback search --json` process.
 * Prints figures; asserts nothing (timings are not tests) but memory growth across
 * repeated walks in the app (section memory: exit status 1).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { scroll } from '../../src/store/recall.js';
import { routeQuery } from '../../src/store/query.js';
import { benchAgents } from './agents.js';
import { benchRank } from './rankAb.js';
import { benchApp } from './app.js';
import { benchMcp } from './mcp.js';
import { benchOpencodeEvents } from './opencodeEvents.js';
import { benchPostgres } from './postgres.js';
import { benchSemantic } from './semantic.js';
import { benchEmbedRate } from './embedRate.js';
import { benchAgentsSemantic } from './agentsSemantic.js';
import { benchSsh } from './ssh.js';
import { benchStartup } from './startup.js';
import { fmt, median, row } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..');
const BENCH_DIR = resolve(process.env.LOOKBACK_BENCH_DIR ?? join(ROOT, '.bench'));
// The bundle runs from dist/, so the repository is one level up.
const SESSIONS = Number(process.env.LOOKBACK_BENCH_SESSIONS ?? 4000);
const MESSAGES = Number(process.env.LOOKBACK_BENCH_MESSAGES ?? 220_000);
const RUNS = Number(process.env.LOOKBACK_BENCH_RUNS ?? 30);
/** Sections to run, comma-separated (store, startup, first, keys, memory, agents, opencode, mcp, postgres, ssh, semantic, embed, agentsem); all but agents, opencode, postgres, ssh, semantic, embed and agentsem by default. */
const ONLY = new Set(
  (process.env.LOOKBACK_BENCH_ONLY ?? 'store,startup,first,keys,memory,mcp').split(','),
);

function time(fn: () => unknown, runs = RUNS): number {
  fn(); // warm: prepare statements, fill the page cache
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

function storeFor(layout: 16 | 30): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  // g2: the generator writes in-place compaction, kanban runs and hidden sessions (v30).
  const path = join(BENCH_DIR, `bench-v${layout}-g2-${SESSIONS}s-${MESSAGES}m.db`);
  if (!existsSync(path)) {
    const t = performance.now();
    const r = generateStore(path, {
      layout,
      sessions: SESSIONS,
      targetMessages: MESSAGES,
      seed: 42,
    });
    console.log(
      `generated ${path}: ${r.sessions} sessions, ${r.messages} messages in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  return path;
}

const QUERIES = [
  'migration',
  'pgbouncer timeout',
  '"connection pool"',
  'webhook OR ledger',
  'deploy*',
];
const CJK = '数据';

function bench(layout: 16 | 30): void {
  const path = storeFor(layout);
  const store = Store.open(path);
  const { n: messages } = store.db.prepare('SELECT count(*) AS n FROM messages').get() as {
    n: number;
  };
  const { n: sessions } = store.db.prepare('SELECT count(*) AS n FROM sessions').get() as {
    n: number;
  };
  console.log(
    `\n## schema ${layout}: ${sessions.toLocaleString()} sessions, ${messages.toLocaleString()} messages (${RUNS} runs, median)`,
  );
  row(['operation', 'lookback', 'raw SQLite']);
  const rawMatch = store.db.prepare(
    `SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 50`,
  );
  const all: number[] = [];
  const ratios: number[] = [];
  for (const q of QUERIES) {
    const route = routeQuery(q, { fts: true, trigram: store.layout.trigram });
    const match = route.kind === 'fts' ? route.match : q;
    const ours = time(() => discover(store, q, { limit: 10 }));
    const bare = time(() => rawMatch.all(match));
    all.push(ours);
    ratios.push(ours / bare);
    row([`discover "${q}" (limit 10, adaptive)`, fmt(ours), fmt(bare)]);
  }
  row(['discover, median of the queries above', fmt(median(all)), '']);
  // The target is relative too (≤ 2× the bare query): on a loaded machine both move together.
  row(['discover ÷ bare FTS5, median of the queries', `${median(ratios).toFixed(2)}×`, '']);
  const full = time(() => discover(store, 'migration', { limit: 10, detail: 'full' }));
  row(['discover "migration" detail=full', fmt(full), '']);
  const newest = time(() => discover(store, 'migration', { limit: 10, sort: 'newest' }));
  row(['discover "migration" sort=newest', fmt(newest), '']);
  const rawLike = store.db.prepare(
    `SELECT id FROM messages WHERE content LIKE ? ORDER BY id DESC LIMIT 50`,
  );
  const cjk = time(() => discover(store, CJK, { limit: 10 }));
  const cjkCount = discover(store, CJK, { limit: 10 }).results.length;
  row([
    `discover "${CJK}" (2-char CJK, ${cjkCount} convs)`,
    fmt(cjk),
    fmt(time(() => rawLike.all(`%${CJK}%`))),
  ]);
  const b = time(() => browse(store, { limit: 50 }));
  row(['browse (limit 50)', fmt(b), '']);
  const long = store.db
    .prepare(
      `SELECT session_id, count(*) AS n, MIN(id) AS lo, MAX(id) AS hi FROM messages GROUP BY session_id ORDER BY n DESC LIMIT 1`,
    )
    .get() as { session_id: string; n: number; lo: number; hi: number };
  const ids = store.db
    .prepare(`SELECT id FROM messages WHERE session_id = ? ORDER BY id`)
    .all(long.session_id) as { id: number }[];
  let k = 0;
  const sc = time(() => {
    k = (k + 997) % ids.length;
    scroll(store, long.session_id, ids[k]!.id, 20);
  }, RUNS * 10);
  const rawScroll = store.db.prepare(
    `SELECT id FROM messages WHERE session_id = ? AND id <= ? ORDER BY id DESC LIMIT 21`,
  );
  row([
    `scroll window 20 (session of ${long.n.toLocaleString()} msgs)`,
    fmt(sc),
    fmt(time(() => rawScroll.all(long.session_id, ids[k]!.id), RUNS * 10)),
  ]);
  // A session compacted in place reads in display_order, one copy of each tail duplicate.
  const compacted = store.layout.has.compacted
    ? (store.db
        .prepare(
          `SELECT session_id, count(*) AS n FROM messages WHERE session_id IN
             (SELECT session_id FROM messages WHERE compacted = 1) GROUP BY session_id ORDER BY n DESC LIMIT 1`,
        )
        .get() as { session_id: string; n: number } | undefined)
    : undefined;
  if (compacted) {
    const cids = store.db
      .prepare(
        `SELECT id FROM messages WHERE session_id = ? AND (active = 1 OR compacted = 1) ORDER BY id`,
      )
      .all(compacted.session_id) as { id: number }[];
    let j = 0;
    const cs = time(() => {
      j = (j + 7) % cids.length;
      scroll(store, compacted.session_id, cids[j]!.id, 20);
    }, RUNS * 10);
    row([
      `scroll window 20 (compacted session of ${compacted.n.toLocaleString()} msgs)`,
      fmt(cs),
      '',
    ]);
  }
  store.close();

  // The installed command: the launcher (dist/lookback; see tests/bench/startup.ts).
  const bin = join(ROOT, 'dist', 'lookback');
  const proc: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const r = spawnSync(bin, ['search', 'pgbouncer timeout', '--db', path, '--json'], {
      encoding: 'utf8',
    });
    proc.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`lookback search failed: ${r.stderr}`);
  }
  row(['process: lookback search … --json (start→exit)', fmt(median(proc)), '']);
}

if (ONLY.has('store')) for (const layout of [16, 30] as const) bench(layout);
// A whole search process beside the agent's own tool and node itself, interleaved.
if (ONLY.has('startup')) benchStartup(ROOT, storeFor(30), RUNS);

// The interactive app: first frame, key → frame, memory.
if (['first', 'keys', 'memory'].some((s) => ONLY.has(s)))
  await benchApp(
    { root: ROOT, benchDir: BENCH_DIR, stores: { 16: storeFor(16), 30: storeFor(30) } },
    ONLY,
  );

// Other agents' histories: LOOKBACK_BENCH_ONLY=agents (a million generated messages by default).
if (ONLY.has('agents')) benchAgents(ROOT, BENCH_DIR, RUNS);
// bm25() against lookback_bm25() on that index, interleaved (LOOKBACK_BENCH_ONLY=rank; not in the default set).
if (ONLY.has('rank')) benchRank(BENCH_DIR, RUNS);
// opencode 2.x: indexing cost beside an event table ten times larger (LOOKBACK_BENCH_ONLY=opencode).
if (ONLY.has('opencode')) benchOpencodeEvents(BENCH_DIR);

// Recall over MCP: per-call latency beside the in-process call, memory over 10,000 calls.
if (ONLY.has('mcp')) await benchMcp({ root: ROOT, store: storeFor(30), runs: RUNS });
if (ONLY.has('postgres')) await benchPostgres({ store: storeFor(30), dir: BENCH_DIR, runs: RUNS });
if (ONLY.has('ssh')) await benchSsh();
// Semantic search's vector scan and warm hybrid (LOOKBACK_BENCH_ONLY=semantic; not in the default set).
if (ONLY.has('semantic')) await benchSemantic(BENCH_DIR, RUNS);
// Embedding documents/s: a model2vec of a real model's shape, raw and in the app's embed worker (LOOKBACK_BENCH_ONLY=embed).
if (ONLY.has('embed')) await benchEmbedRate(BENCH_DIR);
// Search by meaning over the other agents' index: embed rate and warm hybrid (LOOKBACK_BENCH_ONLY=agentsem).
if (ONLY.has('agentsem')) await benchAgentsSemantic(BENCH_DIR, RUNS);
