/**
 * The other agents' index (`LOOKBACK_BENCH_ONLY=agents`): histories generated on
 * the fly, then first-index throughput, incremental passes (nothing changed; one
 * file grew) and search latency over the whole index. Prints figures only.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { IndexReader } from '../../src/agents/appReads.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { AGENTS } from '../../src/agents/model.js';
import { generateHistories } from '../agents/generate.js';
import { fmt, mb, median, row } from './stats.js';

const QUERIES = [
  'migration',
  'pgbouncer timeout',
  '"connection pool"',
  'webhook OR ledger',
  'deploy*',
  '连接池超时',
  '缓存',
];

export function benchAgents(root: string, benchDir: string, runs: number): void {
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
  const indexFile = join(benchDir, `agents-index-${messages}m.db`);
  for (const f of [indexFile, `${indexFile}-wal`, `${indexFile}-shm`]) rmSync(f, { force: true });

  console.log(
    `\n## other agents' index: ${sessions.toLocaleString()} sessions, ${messages.toLocaleString()} messages`,
  );
  row(['operation', 'figure', ''], 72, 14);
  const { db } = openIndex(indexFile);
  const first = indexAll(db, { env });
  const secs = first.ms / 1000;
  row(
    [
      `first index (${first.files} files, ${mb(first.bytesRead)})`,
      `${(first.ms / 1000).toFixed(1)} s`,
      `  ${(first.bytesRead / 1048576 / secs).toFixed(1)} MB/s, ${Math.round(first.messages / secs).toLocaleString()} messages/s`,
    ],
    72,
    14,
  );
  row(['index size on disk', mb(statSync(indexFile).size + walSize(indexFile)), ''], 72, 14);
  const idle: number[] = [];
  for (let i = 0; i < 5; i++) idle.push(indexAll(db, { env }).ms);
  row(
    ['incremental pass, nothing changed', fmt(median(idle)), `  stat of ${first.files} files`],
    72,
    14,
  );
  const claudeDir = join(home, '.claude', 'projects', '-home-dev-app');
  const one = join(claudeDir, readdirSync(claudeDir)[0]!);
  const grew: number[] = [];
  for (let i = 0; i < 5; i++) {
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
  row(['incremental pass, one file grew', fmt(median(grew)), '  reads the new bytes only'], 72, 14);
  const { n } = db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number };
  const lat: number[] = [];
  for (const q of QUERIES) {
    const xs: number[] = [];
    searchAgentsJson(db, q, AGENTS, { limit: 10, all: false });
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      searchAgentsJson(db, q, AGENTS, { limit: 10, all: false });
      xs.push(performance.now() - t);
    }
    const count = (searchAgentsJson(db, q, AGENTS, { limit: 10, all: false }).results as unknown[])
      .length;
    lat.push(median(xs));
    row(
      [`search "${q}" over ${n.toLocaleString()} messages (${count} convs)`, fmt(median(xs)), ''],
      72,
      14,
    );
  }
  row(['search, median of the queries above', fmt(median(lat)), ''], 72, 14);
  db.close();
  // The app's path (src/agents/appReads.ts, warm, in-process): one hit per conversation,
  // only the shown rows hydrated, no anchored views; the limit the app asks for.
  const reader = new IndexReader(indexFile, AGENTS);
  const appLat: number[] = [];
  for (const q of QUERIES) {
    const ask = () =>
      reader.search(q, {
        limit: 50,
        roles: ['user', 'assistant'],
        sort: 'relevance',
        markers: ['\u0002', '\u0003'],
      });
    ask();
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      ask();
      xs.push(performance.now() - t);
    }
    appLat.push(median(xs));
    row([`app search "${q}" (limit 50, ${ask().length} convs)`, fmt(median(xs)), ''], 72, 14);
  }
  row(['app search, median of the queries above', fmt(median(appLat)), ''], 72, 14);
  reader.close();
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
  row(
    [
      'process: lookback search --agent claude --json (incl. incremental pass)',
      fmt(median(proc)),
      '',
    ],
    72,
    14,
  );
}

function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
