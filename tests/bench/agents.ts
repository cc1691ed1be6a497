/**
 * The other agents' index (`LOOKBACK_BENCH_ONLY=agents`): a million generated
 * messages by default. First-index throughput, incremental passes (nothing
 * changed; one file grew), then search / recent / scroll / 2-character CJK, each
 * as median and p95 beside the bare SQLite query it rests on. Prints figures only.
 *
 * The generated history and the built index are cached under .bench/ (the index
 * file is named for its layout): a rerun re-measures the latencies in seconds and
 * prints the first-index figures of the run that built the cache.
 * `LOOKBACK_BENCH_AGENT_FIRST=1` rebuilds the index and re-measures them.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { indexAll } from '../../src/agents/indexer.js';
import { INDEX_LAYOUT, openIndex, refreshTermDocs } from '../../src/agents/indexDb.js';
import { IndexReader } from '../../src/agents/appReads.js';
import { recentAgentsJson, scrollAgentsJson, searchAgentsJson } from '../../src/agents/recall.js';
import { AGENTS } from '../../src/agents/model.js';
import { routeQuery } from '../../src/store/query.js';
import { GENERATED_QUERIES, generateHistories } from '../agents/generate.js';
import { fmt, mb, median, percentile, row } from './stats.js';

/** Word queries (the ≤ 5 ms search target) and one trigram (5-character CJK) query. */
const QUERIES = GENERATED_QUERIES;
/** Two CJK characters: no index can answer it (the ≤ 25 ms target). */
const CJK2 = '缓存';

interface First {
  files: number;
  bytesRead: number;
  messages: number;
  ms: number;
  progressCalls: number;
  at: string;
}

const W = 66;
const C = 11;
const line = (cells: readonly string[]) => row(cells, W, C);

function samples(fn: () => unknown, runs: number): number[] {
  fn(); // warm: prepare statements, fill the page cache
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return xs;
}

export function benchAgents(root: string, benchDir: string, runs: number): void {
  // The index stores each history file's path: a .bench reached through a symlink (a git
  // worktree sharing the main checkout's cache) would list every file under a second
  // spelling, re-read them all as new and keep both, so no pass would ever be idle.
  benchDir = existsSync(benchDir) ? realpathSync(benchDir) : benchDir;
  const messages = Number(process.env.LOOKBACK_BENCH_AGENT_MESSAGES ?? 1_000_000);
  const sessions = Math.max(10, Math.round(messages / 100));
  const home = join(benchDir, `agents-home-${sessions}s-${messages}m`);
  const env = { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' };
  if (!existsSync(join(home, '.done'))) {
    rmSync(home, { recursive: true, force: true });
    const t = performance.now();
    const g = generateHistories(home, sessions, messages);
    appendFileSync(join(home, '.done'), '');
    console.log(
      `generated ${g.files} history files, ${g.messages.toLocaleString()} messages, ${mb(g.bytes)} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  // "merged": built since the first build merges its FTS tables into one segment
  // (indexDb.ts mergeFts); an index cached from before would measure the old shape.
  const indexFile = join(benchDir, `agents-index-L${INDEX_LAYOUT}-merged-${messages}m.db`);
  const firstFile = `${indexFile}.first.json`;
  const rebuild =
    process.env.LOOKBACK_BENCH_AGENT_FIRST === '1' ||
    !existsSync(indexFile) ||
    !existsSync(firstFile);

  console.log(
    `\n## other agents' index: ${sessions.toLocaleString()} sessions, ${messages.toLocaleString()} messages (${runs} runs)`,
  );
  line(['operation', 'median', 'p95', 'bare SQL']);
  let first: First;
  if (rebuild) {
    for (const f of [indexFile, `${indexFile}-wal`, `${indexFile}-shm`, firstFile])
      rmSync(f, { force: true });
    const { db } = openIndex(indexFile);
    let progressCalls = 0;
    const r = indexAll(db, { env, onProgress: () => progressCalls++ });
    db.close();
    first = { ...r, progressCalls, at: new Date().toISOString() };
    writeFileSync(firstFile, JSON.stringify(first));
  } else first = JSON.parse(readFileSync(firstFile, 'utf8')) as First;
  const secs = first.ms / 1000;
  console.log(
    `first index: ${first.files} files, ${mb(first.bytesRead)}, ${first.messages.toLocaleString()} messages in ${secs.toFixed(1)} s = ` +
      `${(first.bytesRead / 1048576 / secs).toFixed(1)} MB/s, ${Math.round(first.messages / secs).toLocaleString()} messages/s, ` +
      `${first.progressCalls.toLocaleString()} progress reports` +
      (rebuild ? '' : ` (cached: measured ${first.at}; LOOKBACK_BENCH_AGENT_FIRST=1 re-measures)`),
  );

  const { db } = openIndex(indexFile);
  // An index cached from before term_df (lookback_bm25()'s counts) gets them now.
  const tdf = performance.now();
  if (refreshTermDocs(db))
    console.log(`term_df filled from fts5vocab in ${fmt(performance.now() - tdf)}`);
  console.log(`index size on disk: ${mb(statSync(indexFile).size + walSize(indexFile))}`);
  // 15 passes: the median of 7 moved by 10 % between runs on a 2-core machine.
  const idle: number[] = [];
  for (let i = 0; i < 15; i++) idle.push(indexAll(db, { env }).ms);
  line([
    `incremental pass, nothing changed (stat of ${first.files} files)`,
    fmt(median(idle)),
    fmt(percentile(idle, 95)),
    '',
  ]);
  const claudeDir = join(home, '.claude', 'projects', '-home-dev-app');
  const one = join(claudeDir, readdirSync(claudeDir).sort()[0]!);
  const size = statSync(one).size;
  const grew: number[] = [];
  for (let i = 0; i < 7; i++) {
    appendFileSync(
      one,
      JSON.stringify({
        type: 'user',
        uuid: `bench-${Date.now()}-${i}`,
        sessionId: 'x',
        timestamp: new Date().toISOString(),
        message: { role: 'user', content: `appended line ${i} about pgbouncer` },
      }) + '\n',
    );
    const r = indexAll(db, { env });
    if (r.parsed !== 1) throw new Error(`expected one file re-read, got ${r.parsed}`);
    grew.push(r.ms);
  }
  line([
    'incremental pass, one file grew (reads the new bytes)',
    fmt(median(grew)),
    fmt(percentile(grew, 95)),
    '',
  ]);
  // Put the cached history back as generated (the pass re-reads that one file).
  truncateSync(one, size);
  indexAll(db, { env });

  const { n } = db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number };
  console.log(`\n${n.toLocaleString()} messages indexed; warm, in-process`);
  line(['operation', 'median', 'p95', 'bare SQL']);
  const bare = bareQueries(db);
  const report = (label: string, xs: number[], bareMs: number | null) =>
    line([label, fmt(median(xs)), fmt(percentile(xs, 95)), bareMs === null ? '' : fmt(bareMs)]);

  // The command line (src/agents/recall.ts): limit 10 with anchored views, as `lookback search --json`.
  const cli: number[] = [];
  for (const q of QUERIES) {
    const ask = () => searchAgentsJson(db, q, AGENTS, { limit: 10, all: false });
    const xs = samples(ask, runs);
    cli.push(median(xs));
    const count = (ask().results as unknown[]).length;
    report(`CLI search "${q}" (limit 10, ${count} convs)`, xs, bare.search(q, 10));
  }
  line(['CLI search, median of the queries above', fmt(median(cli)), '', '']);
  const cliCjk = samples(() => searchAgentsJson(db, CJK2, AGENTS, { limit: 10, all: false }), runs);
  report(`CLI search "${CJK2}" (2-char CJK, limit 10)`, cliCjk, bare.like(CJK2));
  report(
    'CLI recent (limit 50)',
    samples(() => recentAgentsJson(db, AGENTS, { limit: 50, all: false }), runs),
    bare.recent(),
  );
  const long = db
    .prepare(
      `SELECT c.id, c.agent, c.native_id, c.message_count AS n FROM conversations c ORDER BY c.message_count DESC LIMIT 1`,
    )
    .get() as { id: number; agent: string; native_id: string; n: number };
  const anchors = db
    .prepare(`SELECT anchor, ordinal FROM messages WHERE conv_id = ? ORDER BY ordinal`)
    .all(long.id) as { anchor: string; ordinal: number }[];
  let k = 0;
  const cliScroll = samples(() => {
    k = (k + 37) % anchors.length;
    scrollAgentsJson(db, AGENTS, long.native_id, anchors[k]!.anchor, 20);
  }, runs * 10);
  report(
    `CLI scroll window 20 (conversation of ${long.n} messages)`,
    cliScroll,
    bare.scroll(long.id, anchors[k]!.ordinal),
  );
  db.close();

  // The app (src/agents/appReads.ts): one hit per conversation, only the shown rows
  // hydrated, no anchored views; the limit the app asks for.
  const reader = new IndexReader(indexFile, AGENTS);
  const bareDb = openIndex(indexFile).db;
  const bare2 = bareQueries(bareDb);
  const appAsk = (q: string) =>
    reader.search(q, {
      limit: 50,
      roles: ['user', 'assistant'],
      sort: 'relevance',
      markers: ['\u0002', '\u0003'],
    });
  const app: number[] = [];
  for (const q of QUERIES) {
    const xs = samples(() => appAsk(q), runs);
    app.push(median(xs));
    report(`app search "${q}" (limit 50, ${appAsk(q).length} convs)`, xs, bare2.search(q, 50));
  }
  line(['app search, median of the queries above', fmt(median(app)), '', '']);
  report(
    `app search "${CJK2}" (2-char CJK, limit 50)`,
    samples(() => appAsk(CJK2), runs),
    bare2.like(CJK2),
  );
  report(
    'app recent (limit 50)',
    samples(() => reader.recent(50, false), runs),
    bare2.recent(),
  );
  let j = 0;
  const appScroll = samples(() => {
    j = (j + 37) % anchors.length;
    reader.after(long.id, anchors[j]!.ordinal, 20);
  }, runs * 10);
  report(
    `app scroll: next 20 messages (conversation of ${long.n})`,
    appScroll,
    bare2.scroll(long.id, anchors[j]!.ordinal),
  );
  reader.close();
  bareDb.close();

  const proc: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'dist', 'lookback.js'),
        'search',
        'pgbouncer timeout',
        '--agent',
        'claude',
        '--json',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, ...env, LOOKBACK_INDEX: indexFile },
      },
    );
    proc.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`lookback search --agent failed: ${r.stderr}`);
  }
  report('process: lookback search --agent claude --json (incl. pass)', proc, null);
}

/**
 * The bare SQL each answer rests on, median of 30: FTS5's own best-first query
 * (`ORDER BY rank LIMIT n`, every match scored), the LIKE scan newest-first, the
 * Recent list and one scroll page, with no filtering or shaping.
 */
function bareQueries(db: Database.Database) {
  const time = (fn: () => unknown) => median(samples(fn, 30));
  return {
    search(q: string, n: number): number | null {
      const route = routeQuery(q, { fts: true, trigram: true });
      if (route.kind !== 'fts' && route.kind !== 'trigram') return null;
      const t = route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
      const s = db.prepare(`SELECT rowid FROM ${t} WHERE ${t} MATCH ? ORDER BY rank LIMIT ?`);
      return time(() => s.all(route.match, n));
    },
    like(q: string): number {
      const s = db.prepare(`SELECT id FROM messages WHERE text LIKE ? ORDER BY id DESC LIMIT 50`);
      return time(() => s.all(`%${q}%`));
    },
    recent(): number {
      const s = db.prepare(`SELECT id FROM conversations ORDER BY last_active_at DESC LIMIT 50`);
      return time(() => s.all());
    },
    scroll(convId: number, ordinal: number): number {
      const s = db.prepare(
        `SELECT * FROM messages WHERE conv_id = ? AND ordinal > ? ORDER BY ordinal LIMIT 20`,
      );
      return time(() => s.all(convId, ordinal));
    },
  };
}

function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
