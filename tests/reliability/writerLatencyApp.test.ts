/**
 * Does the interactive app, used the way a person uses it, slow the agent
 * down? The companion of writerLatency.test.ts, whose "lookback on" is a stress
 * loop (the CLI back-to-back plus an in-process Store reading every 20 ms).
 * Here "on" is the built app (dist/lookback.js) in a real terminal (tmux,
 * 160×48) open on the store while the simulator writes at 500 messages/s; the
 * app polls `PRAGMA data_version` once a second and refreshes its lists. Two
 * conditions, each against "the app not running" in alternating blocks:
 *
 *   idle  the app open, nobody touching it
 *   used  a person at the keyboard (tmux send-keys): every ~2 s a short search
 *         (`/` + a word typed at ~10 keys/s, a pause, ↓↓), every third time
 *         the result opened (Enter) and paged (PageDown ×2) then closed (Esc),
 *         then Esc Esc back to the list and j/k a few times
 *
 * The app is started (and waited for until its first frame is on screen)
 * between blocks and stopped (tmux server killed, process gone) between blocks,
 * so neither start-up nor shutdown lands in a measured block (a block starts
 * 1 s after the first frame: the start-up's CPU burst holds the writer back
 * and it catches up in that second). Same store, same
 * writer, same background load on both sides; medians and per-pair ratios as
 * in writerLatency.test.ts. Opt-in (about 1 minute per condition and run):
 *
 *   LOOKBACK_BENCH_WRITER=1 npx vitest run tests/reliability/writerLatencyApp.test.ts
 *
 * Knobs (environment):
 *   LOOKBACK_BENCH_WRITER_BLOCKS (8), LOOKBACK_BENCH_WRITER_BLOCK_SECONDS (6)
 *   LOOKBACK_BENCH_WRITER_SESSIONS (1000 conversations in the generated v30 store)
 *   LOOKBACK_BENCH_WRITER_APP_MODES (idle,used)
 *   LOOKBACK_BENCH_WRITER_APP_RUNS (1 run of each mode, modes alternating)
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { generateStore } from '../../src/demo/generate.js';
import { median, summary } from '../bench/stats.js';
import { tempDir } from '../helpers/fixtures.js';
import { AgentSim } from '../helpers/liveReaders.js';

const env = process.env;
const ENABLED = env.LOOKBACK_BENCH_WRITER === '1';
const BLOCKS = Number(env.LOOKBACK_BENCH_WRITER_BLOCKS ?? 8);
const BLOCK_SECONDS = Number(env.LOOKBACK_BENCH_WRITER_BLOCK_SECONDS ?? 6);
const SESSIONS = Number(env.LOOKBACK_BENCH_WRITER_SESSIONS ?? 1000);
const MODES = (env.LOOKBACK_BENCH_WRITER_APP_MODES ?? 'idle,used').split(',') as Mode[];
const RUNS = Number(env.LOOKBACK_BENCH_WRITER_APP_RUNS ?? 1);
/** Commits this soon after a block starts are left out, as in writerLatency.test.ts. */
const SETTLE_MS = 500;
/** After the app's first frame, before its block starts. */
const APP_SETTLE_MS = 1_000;
/** Time allowed between blocks to start the app (first frame) or stop it. */
const SWITCH_BUDGET_MS = 4_000;
const CLI = resolve(import.meta.dirname, '../../dist/lookback.js');
const WORDS = ['memory', 'postgres', 'docker', 'billing', 'cron', 'rust', 'flaky', 'locale'];

type Mode = 'idle' | 'used';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');

interface Block {
  on: boolean;
  start: number;
  end: number;
  commits: number[];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The real app in its own tmux server (a unique socket), as a person runs it. */
class App {
  private readonly socket = `lookback-wl-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  pid = 0;
  keys = 0;
  private socketPath = '';

  constructor(private readonly path: string) {}

  tmux(...args: string[]) {
    return run('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  async screen(): Promise<string> {
    return (await this.tmux('capture-pane', '-p', '-t', 'app')).stdout;
  }

  async start(): Promise<void> {
    await this.tmux(
      'new-session',
      '-d',
      '-s',
      'app',
      '-x',
      '160',
      '-y',
      '48',
      `CI=false exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} --db ${JSON.stringify(this.path)}`,
    );
    const [pid, socketPath] = (
      await this.tmux('display', '-p', '-t', 'app', '#{pane_pid} #{socket_path}')
    ).stdout
      .trim()
      .split(' ');
    this.pid = Number(pid);
    this.socketPath = socketPath ?? '';
    const deadline = Date.now() + SWITCH_BUDGET_MS;
    for (;;) {
      const text = await this.screen().catch(() => '');
      if (/Recent · \d/.test(text)) return;
      if (Date.now() > deadline) throw new Error(`the app did not show its list:\n${text}`);
      await sleep(50);
    }
  }

  async stop(): Promise<void> {
    await this.tmux('kill-server').catch(() => {});
    // tmux leaves its socket file behind when the server is killed.
    if (this.socketPath) rmSync(this.socketPath, { force: true });
    const deadline = Date.now() + SWITCH_BUDGET_MS;
    while (this.pid && alive(this.pid) && Date.now() < deadline) await sleep(20);
    if (this.pid && alive(this.pid)) process.kill(this.pid, 'SIGKILL');
    this.pid = 0;
  }

  async key(...keys: string[]): Promise<void> {
    this.keys += 1;
    await this.tmux('send-keys', '-t', 'app', ...keys);
  }

  async type(word: string, until: number): Promise<void> {
    for (const c of word) {
      await this.key('-l', c);
      await sleep(90);
      if (Date.now() >= until) return;
    }
  }
}

/** A person using the app until `until` (epoch ms). */
async function person(app: App, until: number, cycle0: number): Promise<number> {
  let cycle = cycle0;
  const step = async (ms: number, ...keys: string[]) => {
    if (Date.now() >= until) return;
    await app.key(...keys);
    await sleep(Math.min(ms, until - Date.now()));
  };
  while (Date.now() < until) {
    const began = Date.now();
    await step(150, '/');
    if (Date.now() < until) await app.type(WORDS[cycle % WORDS.length]!, until);
    await sleep(Math.max(0, Math.min(600, until - Date.now())));
    await step(250, 'Down');
    await step(400, 'Down');
    if (cycle % 3 === 0) {
      await step(700, 'Enter');
      await step(500, 'PageDown');
      await step(500, 'PageDown');
      await step(300, 'Escape');
    }
    await step(200, 'Escape');
    await step(300, 'Escape');
    for (const k of ['j', 'j', 'j', 'k']) await step(250, k);
    cycle += 1;
    const rest = 2_000 - (Date.now() - began);
    if (rest > 0) await sleep(Math.min(rest, until - Date.now()));
  }
  return cycle;
}

interface Result {
  mode: Mode;
  run: number;
  off: ReturnType<typeof summary>;
  on: ReturnType<typeof summary>;
  pairs: { p50: number; p95: number; mean: number };
  blocks: Block[];
  load: [number, number];
  keys: number;
  writer: string;
}

async function measure(pristine: string, dir: string, mode: Mode, runNo: number): Promise<Result> {
  const path = join(dir, `state-${mode}-${runNo}.db`);
  copyFileSync(pristine, path);
  const latencyOut = join(dir, `latency-${mode}-${runNo}.f64`);
  const sim = new AgentSim({
    path,
    rate: 500,
    // Generous: the switches between blocks take time too; the writer is stopped at the end.
    seconds: BLOCKS * (BLOCK_SECONDS + (2 * SWITCH_BUDGET_MS) / 1000) + 5,
    seed: 3,
    latencyOut,
    vacuumEvery: 0,
    optimizeEvery: 0,
  });
  await sim.ready;
  const app = new App(path);
  onTestFinished(() => app.stop());
  const load0 = loadavg()[0]!;
  const blocks: Block[] = [];
  let cycle = 0;
  try {
    for (let b = 0; b < BLOCKS; b++) {
      const on = b % 2 === 1;
      if (on) {
        await app.start();
        // Starting the app costs ~1 s of CPU, which holds the writer back; let it
        // catch up (and the app finish its first refresh) before measuring.
        await sleep(APP_SETTLE_MS);
      }
      const start = Date.now();
      const end = start + BLOCK_SECONDS * 1000;
      if (on && mode === 'used') cycle = await person(app, end, cycle);
      await sleep(end - Date.now());
      if (on) {
        expect(alive(app.pid), 'the app is still running at the end of its block').toBe(true);
        const text = await app.screen();
        expect(text).toMatch(/Recent · \d/);
        await app.stop();
      }
      blocks.push({ on, start, end, commits: [] });
    }
  } finally {
    await app.stop();
    sim.stop();
  }
  await sim.exited;
  const load1 = loadavg()[0]!;

  const raw = readFileSync(latencyOut);
  const pairs = new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
  const blockAt = (t: number) => blocks.find((b) => t >= b.start + SETTLE_MS && t < b.end);
  for (let i = 0; i < pairs.length; i += 2) blockAt(pairs[i]!)?.commits.push(pairs[i + 1]!);
  const pairRatio = (key: 'p50' | 'p95' | 'mean') => {
    const rs: number[] = [];
    for (let i = 1; i < blocks.length; i += 2)
      rs.push(summary(blocks[i]!.commits)[key] / summary(blocks[i - 1]!.commits)[key]);
    return median(rs);
  };
  rmSync(path, { force: true });
  return {
    mode,
    run: runNo,
    off: summary(blocks.filter((b) => !b.on).flatMap((b) => b.commits)),
    on: summary(blocks.filter((b) => b.on).flatMap((b) => b.commits)),
    pairs: { p50: pairRatio('p50'), p95: pairRatio('p95'), mean: pairRatio('mean') },
    blocks,
    load: [load0, load1],
    keys: app.keys,
    writer: `${sim.summary?.count} commits at ${sim.summary?.rate}/s over ${sim.summary?.elapsed_s} s`,
  };
}

describe.skipIf(!ENABLED)('writer commit latency with and without the interactive app', () => {
  it(
    'measures and prints off/on for the app idle and the app in use',
    async () => {
      expect(existsSync(CLI), `${CLI} (node scripts/build.mjs)`).toBe(true);
      await run('tmux', ['-V']);
      const dir = tempDir('lookback-writer-app-');
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const pristine = join(dir, 'pristine.db');
      const gen = generateStore(pristine, {
        layout: 30,
        sessions: SESSIONS,
        seed: 5,
        now: Math.floor(Date.now() / 1000) - 120,
      });
      const results: Result[] = [];
      for (let r = 1; r <= RUNS; r++)
        for (const mode of MODES) results.push(await measure(pristine, dir, mode, r));

      const row = (r: Result, side: 'off' | 'on') => {
        const s = r[side];
        return `${`${r.mode} #${r.run}`.padEnd(8)} ${(side === 'off' ? 'not running' : r.mode === 'idle' ? 'open, idle' : 'open, in use').padEnd(13)} ${f(s.p50).padStart(7)} ${f(s.p95).padStart(7)} ${f(s.p99).padStart(7)} ${f(s.mean).padStart(7)} ${String(s.n).padStart(7)}`;
      };
      const lines = [
        `store: v30, ${gen.sessions} sessions, ${gen.messages} messages; writer 500/s, VACUUM/optimize off; ` +
          `${BLOCKS} blocks of ${BLOCK_SECONDS} s, app not running / running alternating (first ${SETTLE_MS} ms of each left out)`,
        `run      app           p50 ms  p95 ms  p99 ms mean ms commits`,
      ];
      for (const r of results) {
        lines.push(row(r, 'off'), row(r, 'on'));
        lines.push(
          `         ratio on/off  ${f(r.on.p50 / r.off.p50).padStart(7)} ${f(r.on.p95 / r.off.p95).padStart(7)} ${f(r.on.p99 / r.off.p99).padStart(7)} ${f(r.on.mean / r.off.mean).padStart(7)}` +
            `   (median of pairs: p50 ${f(r.pairs.p50)}, p95 ${f(r.pairs.p95)}, mean ${f(r.pairs.mean)})`,
          `         load average ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)}; writer ${r.writer}; ${r.keys} keys sent`,
          `         blocks (p50/p95 ms, commits): ${r.blocks.map((b) => `${b.on ? 'ON' : 'off'} ${f(summary(b.commits).p50)}/${f(summary(b.commits).p95)} ${b.commits.length}`).join(', ')}`,
        );
      }
      console.log(lines.join('\n'));
      for (const r of results) {
        expect(r.on.n).toBeGreaterThan(0);
        expect(r.off.n).toBeGreaterThan(0);
      }
    },
    RUNS * MODES.length * (BLOCKS * (BLOCK_SECONDS + 10) + 30) * 1000 + 120_000,
  );
});
