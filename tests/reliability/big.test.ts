/**
 * A store of 1,000,000 messages: every CLI command's time and peak memory, the
 * in-process Store's memory, and a live agent writing it while lookback reads.
 * Opt-in: generating the store takes minutes and about 1.2 GB of disk, so it is
 * cached in .bench/ (LOOKBACK_BENCH_DIR) and reused.
 *
 *   LOOKBACK_BIG=1 npx vitest run tests/reliability/big.test.ts
 *
 * LOOKBACK_BIG_MESSAGES (default 1,000,000) and LOOKBACK_BIG_LIVE_SECONDS (10) resize it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { readSession } from '../../src/store/messages.js';
import { scroll } from '../../src/store/recall.js';
import { BIN } from '../helpers/cli.js';
import { median, percentile } from '../bench/stats.js';
import { tempDir } from '../helpers/fixtures.js';
import { stderrProblems } from '../helpers/inert.js';
import { AgentSim, startReaders } from '../helpers/liveReaders.js';

const ENABLED = process.env.LOOKBACK_BIG === '1';
const MESSAGES = Number(process.env.LOOKBACK_BIG_MESSAGES ?? 1_000_000);
const LIVE_SECONDS = Number(process.env.LOOKBACK_BIG_LIVE_SECONDS ?? 10);
const BENCH_DIR = resolve(
  process.env.LOOKBACK_BENCH_DIR ?? join(import.meta.dirname, '../../.bench'),
);
const RUNS = 5;
const MB = 1024 * 1024;

/** Prints the process's peak resident set size (KiB) on stderr at exit. */
const RSS_HOOK =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("maxrss:"+process.resourceUsage().maxRSS+"\\n"))';

function bigStore(): string {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, `big-v30-${MESSAGES}m.db`);
  if (!existsSync(path)) {
    const r = generateStore(path, {
      layout: 30,
      sessions: Math.round(MESSAGES / 40),
      targetMessages: MESSAGES,
      longSessions: 4,
      longSessionMessages: 20_000,
      seed: 1_000,
      now: Math.floor(Date.now() / 1000) - 3_600,
    });
    console.log(
      `generated ${path}: ${r.sessions} sessions, ${r.messages} messages in ${(r.ms / 1000).toFixed(0)} s`,
    );
  }
  return path;
}

interface Measured {
  ms: number;
  rssMb: number;
}

function measure(args: string[]): Measured & { stdout: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', RSS_HOOK, BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: '/nonexistent-home', HERMES_HOME: '' },
    timeout: 120_000,
    maxBuffer: 512 * MB,
  });
  const ms = performance.now() - t;
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  const rss = /maxrss:(\d+)/.exec(r.stderr);
  expect(stderrProblems(r.stderr.replace(/maxrss:\d+\n/, ''))).toEqual([]);
  return { ms, rssMb: Number(rss?.[1] ?? NaN) / 1024, stdout: r.stdout };
}

describe.skipIf(!ENABLED)('a store of 1,000,000 messages', () => {
  it(
    'every command answers; figures for time and memory',
    () => {
      const path = bigStore();
      const store = Store.open(path);
      const counts = store.db
        .prepare(
          `SELECT (SELECT count(*) FROM messages) AS m, (SELECT count(*) FROM sessions) AS s`,
        )
        .get() as { m: number; s: number };
      const long = store.db
        .prepare(
          `SELECT session_id AS id, count(*) AS n, max(id) - 10000 AS mid FROM messages
           GROUP BY session_id ORDER BY n DESC LIMIT 1`,
        )
        .get() as { id: string; n: number; mid: number };
      const anchor = store.db
        .prepare(`SELECT id FROM messages WHERE session_id = ? AND id >= ? ORDER BY id LIMIT 1`)
        .pluck()
        .get(long.id, long.mid) as number;
      store.close();
      console.log(
        `store: ${counts.m.toLocaleString()} messages, ${counts.s.toLocaleString()} sessions, ` +
          `${(statSync(path).size / MB).toFixed(0)} MB; longest session ${long.n.toLocaleString()} messages`,
      );
      const db = ['--db', path, '--json'];
      const commands: [string, string[]][] = [
        ['recent (20)', ['recent', ...db]],
        ['recent --limit 200 --all', ['recent', '--limit', '200', '--all', ...db]],
        ['search "migration" (views)', ['search', 'migration', ...db]],
        [
          'search "pgbouncer timeout" --sort newest',
          ['search', 'pgbouncer timeout', '--sort', 'newest', ...db],
        ],
        [
          'search "connection pool" phrase, tools',
          ['search', '"connection pool"', '--roles', 'user,assistant,tool', ...db],
        ],
        ['search "deploy*" --limit 50', ['search', 'deploy*', '--limit', '50', ...db]],
        ['search "数据" (2-char CJK: LIKE scan)', ['search', '数据', ...db]],
        ['search "数据库" (3-char CJK: trigram)', ['search', '数据库', ...db]],
        [
          `scroll --window 20 (session of ${long.n})`,
          ['scroll', long.id, String(anchor), '--window', '20', ...db],
        ],
        [`read (session of ${long.n})`, ['read', long.id, ...db]],
      ];
      const rows: string[] = [];
      for (const [label, args] of commands) {
        const runs = Array.from({ length: RUNS }, () => measure(args));
        rows.push(
          `${label.padEnd(48)} median ${median(runs.map((r) => r.ms))
            .toFixed(0)
            .padStart(6)} ms` +
            `   peak RSS ${Math.max(...runs.map((r) => r.rssMb))
              .toFixed(0)
              .padStart(4)} MB`,
        );
      }
      console.log(['CLI on the 1M store (process start to exit, 5 runs):', ...rows].join('\n'));

      // In-process, as the app holds it: one Store, the operations the app runs, memory after.
      global.gc?.();
      const before = process.memoryUsage();
      const s = Store.open(path);
      const t = performance.now();
      for (let i = 0; i < 5; i++) {
        browse(s, { limit: 50 });
        discover(s, 'migration', { limit: 10 });
        discover(s, 'webhook OR ledger', { limit: 50, views: false });
        scroll(s, long.id, anchor, 20);
        readSession(s, long.id);
      }
      const ms = (performance.now() - t) / 5;
      const after = process.memoryUsage();
      s.close();
      console.log(
        `in-process Store: one round of browse/discover/scroll/read ${ms.toFixed(0)} ms; ` +
          `RSS ${(before.rss / MB).toFixed(0)} -> ${(after.rss / MB).toFixed(0)} MB ` +
          `(+${((after.rss - before.rss) / MB).toFixed(0)} MB; SQLite page cache included), ` +
          `heap +${((after.heapUsed - before.heapUsed) / MB).toFixed(1)} MB`,
      );
    },
    60 * 60_000,
  );

  it(
    'a live agent on it: no errors, new data within 2 s',
    async () => {
      const source = bigStore();
      const dir = tempDir('lookback-big-live-');
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const path = join(dir, 'state.db');
      copyFileSync(source, path);
      // VACUUM and FTS optimize of a gigabyte take the writer itself many seconds; they are left out here.
      const sim = new AgentSim({
        path,
        rate: 500,
        seconds: LIVE_SECONDS,
        seed: 9,
        vacuumEvery: 0,
        optimizeEvery: 0,
      });
      await sim.ready;
      const readers = startReaders({ path, sim });
      expect(await sim.exited, sim.stderr).toBe(0);
      const until = Date.now() + 3_000;
      while (Date.now() < until && readers.unseen().length > 0)
        await new Promise((r) => setTimeout(r, 100));
      const report = await readers.stop();
      const lag = (pick: (m: (typeof report.markers)[number]) => number | undefined) => {
        const xs = report.markers.flatMap((m) => {
          const t = pick(m);
          return t === undefined ? [] : [t - m.marker.at];
        });
        return `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
      };
      console.log(
        [
          `live agent on the 1M store for ${LIVE_SECONDS} s: writer ${sim.summary?.count} commits (${sim.summary?.rate}/s), ` +
            `p50 ${sim.summary?.p50_ms} ms, p95 ${sim.summary?.p95_ms} ms`,
          `  CLI ${report.cli.runs} runs (median ${median(report.cli.ms).toFixed(0)} ms, p95 ${percentile(report.cli.ms, 95).toFixed(0)} ms, ${report.cli.busy} busy); ` +
            `in-process ${report.store.runs} ops (median ${median(report.store.ms).toFixed(1)} ms, p95 ${percentile(report.store.ms, 95).toFixed(1)} ms, ${report.store.busy} busy)`,
          `  new message in-process ${lag((m) => m.storeMessage)}; new session listed ${lag((m) => m.storeSession)}; via CLI ${lag((m) => m.cli)}`,
        ].join('\n'),
      );
      expect(report.failures).toEqual([]);
      for (const m of report.markers) {
        expect(m.storeMessage! - m.marker.at).toBeLessThanOrEqual(2_000);
        expect(m.storeSession! - m.marker.at).toBeLessThanOrEqual(2_000);
        expect(m.cli! - m.marker.at).toBeLessThanOrEqual(2_000);
      }
    },
    30 * 60_000,
  );
});
