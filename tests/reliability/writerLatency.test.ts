/**
 * Does lookback slow the agent down? The simulator writes at 500 messages/s
 * for the whole run and records the latency of every commit; the test turns
 * lookback's readers (the CLI in a loop and an in-process Store) off and on in
 * alternating blocks, so both conditions see the same store, the same writer
 * and the same background load. This machine is shared with other work, so the
 * figures are medians, blocks interleave (drift hits both sides alike), and the
 * ratio is also given per adjacent off/on pair. It prints the writer's commit
 * latency with and without lookback, their ratio, the writer's checkpoint times,
 * and how long new data took to become visible. Opt-in (a minute or more):
 *
 *   LOOKBACK_BENCH_WRITER=1 npx vitest run tests/reliability/writerLatency.test.ts
 *
 * Knobs (environment):
 *   LOOKBACK_BENCH_WRITER_BLOCKS (8), LOOKBACK_BENCH_WRITER_BLOCK_SECONDS (6)
 *   LOOKBACK_BENCH_WRITER_SESSIONS (1000 conversations in the generated v30 store)
 *   LOOKBACK_BENCH_WRITER_STORE (a store to copy and use instead, e.g. .bench/big-v30-1000000m.db)
 *   LOOKBACK_BENCH_WRITER_READERS (both | cli | store)
 *   LOOKBACK_BENCH_WRITER_NICE (0: lookback's readers at a lower CPU priority when > 0)
 *   LOOKBACK_BENCH_WRITER_STORE_INTERVAL_MS (20 ms between in-process reads)
 *   LOOKBACK_BENCH_WRITER_RATE (500 messages/s)
 *   LOOKBACK_BENCH_WRITER_JOURNAL (wal | delete: the writer's journal mode; in
 *     delete mode every read holds a SHARED lock that blocks the writer's commit)
 *   LOOKBACK_BENCH_WRITER_MAINTENANCE (0: no VACUUM / FTS optimize, whose
 *     half-second stop-the-world pauses would land unevenly in the blocks; 1: on)
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import { median, percentile, summary } from '../bench/stats.js';
import { tempDir } from '../helpers/fixtures.js';
import { AgentSim, startReaders, type MarkerSeen } from '../helpers/liveReaders.js';

const env = process.env;
const ENABLED = env.LOOKBACK_BENCH_WRITER === '1';
const BLOCKS = Number(env.LOOKBACK_BENCH_WRITER_BLOCKS ?? 8);
const BLOCK_SECONDS = Number(env.LOOKBACK_BENCH_WRITER_BLOCK_SECONDS ?? 6);
const SESSIONS = Number(env.LOOKBACK_BENCH_WRITER_SESSIONS ?? 1000);
const READERS = env.LOOKBACK_BENCH_WRITER_READERS ?? 'both';
const NICE = Number(env.LOOKBACK_BENCH_WRITER_NICE ?? 0);
const STORE_INTERVAL_MS = Number(env.LOOKBACK_BENCH_WRITER_STORE_INTERVAL_MS ?? 20);
const MAINTENANCE = env.LOOKBACK_BENCH_WRITER_MAINTENANCE === '1';
const RATE = Number(env.LOOKBACK_BENCH_WRITER_RATE ?? 500);
const JOURNAL = env.LOOKBACK_BENCH_WRITER_JOURNAL === 'delete' ? 'delete' : 'wal';
/** An existing store to copy and write instead of a generated one (e.g. the 1M store in .bench/). */
const SOURCE = env.LOOKBACK_BENCH_WRITER_STORE;
/** Commits this soon after a switch are left out: the switch itself is not the steady state. */
const SETTLE_MS = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');

interface Block {
  on: boolean;
  start: number;
  end: number;
  commits: number[];
  checkpoints: number[];
}

describe.skipIf(!ENABLED)('writer commit latency with and without lookback reading', () => {
  it(
    'measures and prints the ratio',
    async () => {
      const dir = tempDir('lookback-writer-');
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const path = join(dir, 'state.db');
      if (SOURCE) copyFileSync(SOURCE, path);
      const gen = SOURCE
        ? { sessions: NaN, messages: NaN }
        : generateStore(path, {
            layout: 30,
            sessions: SESSIONS,
            seed: 5,
            now: Math.floor(Date.now() / 1000) - 120,
          });
      const latencyOut = join(dir, 'latency.f64');
      const sim = new AgentSim({
        path,
        rate: RATE,
        seconds: BLOCKS * BLOCK_SECONDS + 1,
        seed: 3,
        latencyOut,
        journalMode: JOURNAL,
        ...(MAINTENANCE ? {} : { vacuumEvery: 0, optimizeEvery: 0 }),
      });
      await sim.ready;
      const blocks: Block[] = [];
      const seen: MarkerSeen[] = [];
      for (let b = 0; b < BLOCKS; b++) {
        const on = b % 2 === 1;
        const start = Date.now();
        const readers = on
          ? startReaders({
              path,
              sim,
              cli: READERS !== 'store',
              store: READERS !== 'cli',
              nice: NICE,
              storeIntervalMs: STORE_INTERVAL_MS,
            })
          : null;
        await sleep(BLOCK_SECONDS * 1000);
        const end = Date.now();
        if (readers) {
          const report = await readers.stop();
          expect(report.failures).toEqual([]);
          // Markers written while the readers ran, early enough to be looked for.
          seen.push(
            ...report.markers.filter((m) => m.marker.at >= start && m.marker.at <= end - 2_000),
          );
        }
        blocks.push({ on, start, end, commits: [], checkpoints: [] });
      }
      expect(await sim.exited).toBe(0);

      const raw = readFileSync(latencyOut);
      const pairs = new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
      const blockAt = (t: number) => blocks.find((b) => t >= b.start + SETTLE_MS && t < b.end);
      for (let i = 0; i < pairs.length; i += 2) blockAt(pairs[i]!)?.commits.push(pairs[i + 1]!);
      const ops = JSON.parse(readFileSync(`${latencyOut}.ops.json`, 'utf8')) as [
        string,
        number,
        number,
      ][];
      for (const [kind, at, ms] of ops)
        if (kind === 'checkpoint')
          blocks.find((b) => at >= b.start && at < b.end)?.checkpoints.push(ms);

      const off = summary(blocks.filter((b) => !b.on).flatMap((b) => b.commits));
      const on = summary(blocks.filter((b) => b.on).flatMap((b) => b.commits));
      const pairRatios = (key: 'p50' | 'p95' | 'mean') => {
        const rs: number[] = [];
        for (let i = 1; i < blocks.length; i += 2)
          rs.push(summary(blocks[i]!.commits)[key] / summary(blocks[i - 1]!.commits)[key]);
        return median(rs);
      };
      const cp = (cond: boolean) =>
        summary(blocks.filter((b) => b.on === cond).flatMap((b) => b.checkpoints));
      const lag = (pick: (m: MarkerSeen) => number | undefined) => {
        const xs = seen.flatMap((m) => {
          const t = pick(m);
          return t === undefined ? [] : [t - m.marker.at];
        });
        const missed = seen.length - xs.length;
        return `median ${median(xs).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} markers${missed ? `, ${missed} not seen` : ''})`;
      };
      console.log(
        [
          `store: ${SOURCE ?? `v30, ${gen.sessions} sessions, ${gen.messages} messages`}, journal ${JOURNAL}; readers: ${READERS} ` +
            `(nice ${NICE}, in-process every ${STORE_INTERVAL_MS} ms); VACUUM/optimize ${MAINTENANCE ? 'on' : 'off'}`,
          `writer: ${sim.summary?.count} commits at ${sim.summary?.rate}/s over ${sim.summary?.elapsed_s} s; ` +
            `${BLOCKS} blocks of ${BLOCK_SECONDS} s, lookback off/on alternating (first ${SETTLE_MS} ms of each left out)`,
          `commit latency without lookback: p50 ${f(off.p50)} ms, p95 ${f(off.p95)} ms, p99 ${f(off.p99)} ms, mean ${f(off.mean)} ms (${off.n} commits)`,
          `commit latency with lookback:    p50 ${f(on.p50)} ms, p95 ${f(on.p95)} ms, p99 ${f(on.p99)} ms, mean ${f(on.mean)} ms (${on.n} commits)`,
          `ratio with/without (pooled):        p50 ${f(on.p50 / off.p50)}, p95 ${f(on.p95 / off.p95)}, mean ${f(on.mean / off.mean)}`,
          `ratio with/without (median of pairs): p50 ${f(pairRatios('p50'))}, p95 ${f(pairRatios('p95'))}, mean ${f(pairRatios('mean'))}`,
          `blocks (p50/p95 ms, commits): ${blocks.map((b) => `${b.on ? 'ON' : 'off'} ${f(summary(b.commits).p50)}/${f(summary(b.commits).p95)} ${b.commits.length}`).join(', ')}`,
          `checkpoint(TRUNCATE): without p50 ${f(cp(false).p50)} ms max ${f(Math.max(...blocks.filter((b) => !b.on).flatMap((b) => b.checkpoints)))} ms; ` +
            `with p50 ${f(cp(true).p50)} ms max ${f(Math.max(...blocks.filter((b) => b.on).flatMap((b) => b.checkpoints)))} ms`,
          `writer stats: ${JSON.stringify(sim.summary?.stats)}`,
          `new message visible in-process: ${lag((m) => m.storeMessage)}`,
          `new session listed in-process:  ${lag((m) => m.storeSession)}`,
          `new message found by the CLI:   ${lag((m) => m.cli)}`,
        ].join('\n'),
      );
      expect(on.n).toBeGreaterThan(0);
      expect(off.n).toBeGreaterThan(0);
    },
    (BLOCKS * BLOCK_SECONDS + 120) * 1000,
  );
});
