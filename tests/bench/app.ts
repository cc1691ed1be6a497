/**
 * The interactive app's figures for `npm run bench` (LOOKBACK_BENCH_ONLY picks sections):
 *
 * - first frame: the bundled app (dist/lookback.js) spawned in a pseudo-terminal
 *   (util-linux `script`) at 160x48, wall time from spawn to the first frame
 *   with the status line's hints;
 * - key → frame: the real App, controller and query worker rendered by ink in
 *   this process into a fake terminal of a given size that timestamps every
 *   write; the time from writing a key to stdin to the next frame written to
 *   stdout, split into the controller's work (handleKey), ink's output pass
 *   (its onRender metric) and the rest (React render and commit, Yoga layout);
 * - memory: RSS of the real app process opening a 10,000-message conversation
 *   and paging it from the last message to the first, and (in this process)
 *   the largest number of messages its window held on the way.
 *
 * Budgets from spec/TUI.md: first frame ≤ 250 ms; key → frame p50 ≤ 16 ms and
 * p95 ≤ 33 ms; RSS ≤ 150 MB. Every figure is printed, met or not.
 */
import { WINDOW_MAX_MESSAGES } from '../../src/budgets.js';
import React from 'react';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { scrollCall } from '../../src/anchors/format.js';
import type { Controller } from '../../src/app/controller/controller.js';
import { createController } from '../../src/app/create.js';
import { findWorkerFile } from '../../src/app/worker/client.js';
import { clearLayoutCache } from '../../src/app/geometry/lineLayout.js';
import type { AppState } from '../../src/app/state/types.js';
import { messageCount, type MsgWindow } from '../../src/app/geometry/window.js';
import type { CopyResult } from '../../src/clipboard/copy.js';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { leanHeap } from '../../src/tui/memory.js';
import { GROWTH_MAX_BYTES, walkGrowth } from './growth.js';
import { fmt, mb, median, percentile, row } from './stats.js';

/** Label column widths of the app tables (their labels are longer than the store tables'). */
const LABEL_COL = 60;
const KEY_COL = 72;
const line = (cells: readonly string[]): void => row(cells, LABEL_COL);

const TARGET_FIRST_FRAME_MS = 250;
const TARGET_P50_MS = 16;
const TARGET_P95_MS = 33;
const TARGET_RSS_BYTES = 150 * 1024 * 1024;
/** Issue 20: the peak of the walk. */
const TARGET_PEAK_BYTES = 180 * 1024 * 1024;
/** Walks through the long conversation, G then PgUp to the top (LOOKBACK_BENCH_MEMORY_REPEATS). */
const MEMORY_REPEATS = Number(process.env.LOOKBACK_BENCH_MEMORY_REPEATS ?? 10);
/** RSS at rest: this long after the last key (the idle collection runs a second after it; src/tui/memory.ts). */
const AT_REST_MS = 9_500;

const FIRST_FRAME_RUNS = Number(process.env.LOOKBACK_BENCH_FIRST_FRAME_RUNS ?? 15);
/** Keys are spaced so that each one gets its own frame (ink draws at most maxFps times a second). */
const SPACING_MS = 50;
/** A held-down key repeats about 30–40 times a second. */
const REPEAT_MS = 25;
/** The status line's hints: the frame is complete when they are drawn. */
const FRAME_MARK = '? help';
const LONG_MESSAGES = 10_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const ok = (met: boolean): string => (met ? 'ok' : 'MISS');
const ANSI = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const plain = (s: string): string => s.replace(ANSI, '');

const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  tab: '\t',
} as const;

export interface AppBenchInput {
  root: string;
  benchDir: string;
  /** The generated 220k-message stores, by schema layout. */
  stores: { 16: string; 30: string };
}

// ---------------------------------------------------------------- first frame (process)

function hasCommand(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}

const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The bundled app in a pseudo-terminal of the given size (util-linux `script`). */
class PtyApp {
  readonly proc: ChildProcess;
  readonly started = performance.now();
  out = '';
  lastDataAt = performance.now();
  exited = false;

  constructor(bin: string, db: string, cols: number, rows: number, env: NodeJS.ProcessEnv = {}) {
    // dist/lookback is the launcher people run (a sh script); a .js/.cjs file is run by node.
    const run = /\.c?js$/.test(bin) ? `${shq(process.execPath)} ${shq(bin)}` : shq(bin);
    const cmd = `stty cols ${cols} rows ${rows}; exec ${run} --db ${shq(db)}`;
    this.proc = spawn('script', ['-qfec', cmd, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      // CI=false: ink draws every frame (any CI value makes it draw only the last).
      env: { ...process.env, CI: 'false', HERMES_HOME: '', ...env },
    });
    this.proc.stdout!.setEncoding('utf8');
    this.proc.stdout!.on('data', (d: string) => {
      this.out += d;
      this.lastDataAt = performance.now();
    });
    this.proc.on('exit', () => {
      this.exited = true;
    });
  }

  async waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
    const end = performance.now() + timeoutMs;
    while (!check()) {
      if (this.exited || performance.now() > end) return false;
      await sleep(2);
    }
    return true;
  }

  /** Until something was drawn after `since` (an index into `out`), then nothing for `quietMs`. */
  async settle(since: number, quietMs: number, timeoutMs = 10_000): Promise<void> {
    if (!(await this.waitFor(() => this.out.length > since, timeoutMs))) return;
    await this.waitFor(() => performance.now() - this.lastDataAt >= quietMs, timeoutMs);
  }

  send(s: string): void {
    this.proc.stdin!.write(s);
  }

  /** The app's process: `exec` made it the child of `script`. */
  pid(): number | null {
    const sp = this.proc.pid;
    if (sp === undefined) return null;
    try {
      const kids = readFileSync(`/proc/${sp}/task/${sp}/children`, 'utf8').trim().split(/\s+/);
      const pid = Number(kids[0]);
      return pid > 0 ? pid : null;
    } catch {
      const r = spawnSync('pgrep', ['-P', String(sp)], { encoding: 'utf8' });
      const pid = Number((r.stdout ?? '').trim().split('\n')[0]);
      return pid > 0 ? pid : null;
    }
  }

  async quit(): Promise<void> {
    if (this.exited) return;
    this.send('q');
    if (!(await this.waitFor(() => this.exited, 5_000))) this.proc.kill('SIGKILL');
  }
}

/** VmRSS and VmHWM (peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** RSS split (/proc/PID/smaps_rollup): anonymous (V8 heaps of every thread, malloc: SQLite, Yoga) and file-backed (node, libraries). */
function rssSplit(pid: number): { anon: number; file: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN) * 1024;
    const anon = kb('Anonymous');
    return { anon, file: kb('Rss') - anon };
  } catch {
    return null;
  }
}

async function firstFrame(
  bin: string,
  db: string,
  env: NodeJS.ProcessEnv = {},
): Promise<number | null> {
  const app = new PtyApp(bin, db, 160, 48, env);
  const drawn = await app.waitFor(() => app.out.includes(FRAME_MARK), 15_000);
  const ms = performance.now() - app.started;
  await app.quit();
  return drawn ? ms : null;
}

async function benchFirstFrame(input: AppBenchInput): Promise<void> {
  // The installed command: the launcher (dist/lookback), which starts node without
  // NODE_EXTRA_CA_CERTS when it is set (scripts/build.mjs).
  const bin = join(input.root, 'dist', 'lookback');
  console.log(
    `\n## app: process start → first full frame at 160x48 (bundled, pseudo-terminal, ${FIRST_FRAME_RUNS} runs)`,
  );
  line(['measure', 'median', 'min', 'max', 'target']);
  if (!hasCommand('script', ['-V'])) {
    line(['(util-linux `script` not found: not measured)', 'n/a']);
    return;
  }
  const floor: number[] = [];
  for (let i = 0; i < FIRST_FRAME_RUNS; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
    floor.push(performance.now() - t);
  }
  // The warm-up run also writes the app's code cache (src/tui/codeCache.ts) at its
  // exit, as a person's first start does; the last row is a start without it.
  const runs = [
    { layout: 16, label: 'schema 16', env: {} },
    { layout: 30, label: 'schema 30', env: {} },
    { layout: 30, label: 'schema 30, no code cache', env: { LOOKBACK_CODE_CACHE: '0' } },
  ] as const;
  for (const { layout, label, env } of runs) {
    const xs: number[] = [];
    let failed = 0;
    await firstFrame(bin, input.stores[layout], env); // warm the page cache
    for (let i = 0; i < FIRST_FRAME_RUNS; i++) {
      const ms = await firstFrame(bin, input.stores[layout], env);
      if (ms === null) failed++;
      else xs.push(ms);
    }
    const m = median(xs);
    line([
      `${label}: spawn → frame with "${FRAME_MARK}"${failed ? ` (${failed} failed)` : ''}`,
      fmt(m),
      fmt(Math.min(...xs)),
      fmt(Math.max(...xs)),
      ok(m <= TARGET_FIRST_FRAME_MS),
    ]);
  }
  line([
    "for scale: node -e '' (spawn → exit)",
    fmt(median(floor)),
    fmt(Math.min(...floor)),
    fmt(Math.max(...floor)),
  ]);
}

// ---------------------------------------------------------------- key → frame (in process)

/** Writes that only toggle synchronized output or the cursor are not frames. */
const CONTROL_ONLY = /^(?:\x1b\[\?(?:2026|25)[hl])*$/;

/** A terminal for ink: a TTY of a fixed size that timestamps every frame written to it. */
class FakeTerminalOut extends EventEmitter {
  readonly isTTY = true;
  readonly frames: number[] = [];
  bytes = 0;
  last = '';

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }

  write = (chunk: string | Uint8Array): boolean => {
    const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.bytes += s.length;
    if (!CONTROL_ONLY.test(s)) {
      this.frames.push(performance.now());
      this.last = s;
    }
    return true;
  };
}

/** A raw-mode TTY stdin whose `send` is a key arriving. */
class FakeTerminalIn extends EventEmitter {
  readonly isTTY = true;
  private readonly queue: string[] = [];

  send(s: string): void {
    this.queue.push(s);
    this.emit('readable');
  }

  read(): string | null {
    return this.queue.shift() ?? null;
  }

  setEncoding(): this {
    return this;
  }
  setRawMode(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
}

interface RenderConfig {
  label: string;
  maxFps?: number;
  incrementalRendering?: boolean;
}

/**
 * The ink settings tried: run.tsx's own (RENDER_OPTIONS, read at run time so
 * the figure follows the app), ink's default 30 fps, and incremental rendering.
 */
export async function renderConfigs(): Promise<RenderConfig[]> {
  const { options } = await loadInk();
  const fps: number = options.maxFps ?? 30;
  return [
    { label: `run.tsx (${fps} fps)`, maxFps: fps },
    ...(fps !== 30 ? [{ label: 'ink default (30 fps)', maxFps: 30 }] : []),
    ...(fps !== 60 ? [{ label: 'maxFps 60', maxFps: 60 }] : []),
    { label: `incremental (${fps} fps)`, maxFps: fps, incrementalRendering: true },
  ];
}

interface Timed {
  end: number;
  ms: number;
}

interface Mounted {
  controller: Controller;
  out: FakeTerminalOut;
  inp: FakeTerminalIn;
  handler: Timed[];
  ink: Timed[];
  state: () => AppState;
  close: () => void;
}

type Ink = typeof import('ink');
type AppModule = typeof import('../../components/App.js');
type RunModule = typeof import('../../src/tui/run.js');
interface Loaded {
  ink: Ink;
  app: AppModule;
  /** What run.tsx passes to ink's render. */
  options: RunModule['RENDER_OPTIONS'];
}
let loaded: Loaded | null = null;

/** Ink reads CI once when it loads: make sure it draws every frame, in colour as on a terminal. */
async function loadInk(): Promise<Loaded> {
  if (loaded) return loaded;
  process.env.CI = 'false';
  process.env.FORCE_COLOR ??= '1';
  const ink = await import('ink');
  const app = await import('../../components/App.js');
  const run = await import('../../src/tui/run.js');
  loaded = { ink, app, options: run.RENDER_OPTIONS };
  return loaded;
}

async function waitUntil(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** The app as run.tsx starts it, rendered into a fake terminal of `cols` x `rows`. */
async function mount(
  path: string,
  cols: number,
  rows: number,
  config: RenderConfig,
): Promise<Mounted> {
  const { ink, app, options } = await loadInk();
  const store = Store.open(path, { profile: 'default' });
  const copied: CopyResult = {
    ok: true,
    method: 'osc52',
    methods: ['osc52'],
    detail: 'bench',
    confirmed: false,
    status: 'bench',
  };
  const controller = createController({
    store,
    workerFile: findWorkerFile(),
    copy: async () => copied,
    size: { cols, rows },
    onQuit: () => undefined,
  });
  const handler: Timed[] = [];
  const inkTimes: Timed[] = [];
  // Instrumentation only: time the controller's share of each key.
  const handleKey = controller.handleKey.bind(controller);
  controller.handleKey = (input, key) => {
    const t = performance.now();
    handleKey(input, key);
    const end = performance.now();
    handler.push({ end, ms: end - t });
  };
  const out = new FakeTerminalOut(cols, rows);
  const inp = new FakeTerminalIn();
  controller.start();
  const instance = ink.render(React.createElement(app.App, { controller, home: '/nonexistent' }), {
    stdout: out as unknown as NodeJS.WriteStream,
    stdin: inp as unknown as NodeJS.ReadStream,
    stderr: new FakeTerminalOut(cols, rows) as unknown as NodeJS.WriteStream,
    ...options,
    ...(config.maxFps !== undefined ? { maxFps: config.maxFps } : {}),
    ...(config.incrementalRendering ? { incrementalRendering: true } : {}),
    onRender: ({ renderTime }) => {
      // As src/tui/run.tsx: V8's heap sizing for the app once a frame is out.
      if (inkTimes.length === 0) leanHeap();
      inkTimes.push({ end: performance.now(), ms: renderTime });
      // As src/tui/run.tsx: the read-ahead runs after a key's frame.
      controller.frameDrawn();
    },
  });
  await waitUntil(() => out.frames.length > 0, 'the first frame');
  await waitUntil(() => controller.getState().recent.complete, 'the recent list');
  await sleep(300);
  return {
    controller,
    out,
    inp,
    handler,
    ink: inkTimes,
    state: controller.getState,
    close: () => {
      instance.unmount();
      controller.stop();
      store.close();
    },
  };
}

interface Sample {
  total: number;
  handler: number;
  ink: number;
}

const within = (xs: Timed[], from: number, to: number): number =>
  xs.reduce((sum, x) => (x.end >= from && x.end <= to ? sum + x.ms : sum), 0);

/** Writes one key and times it to the next frame; then waits out the spacing. */
async function press(m: Mounted, key: string, spacingMs: number): Promise<Sample | null> {
  const n0 = m.out.frames.length;
  const t0 = performance.now();
  m.inp.send(key);
  const deadline = t0 + 2_000;
  while (m.out.frames.length === n0 && performance.now() < deadline) await sleep(1);
  const at = m.out.frames[n0];
  const rest = t0 + spacingMs - performance.now();
  if (rest > 0) await sleep(rest);
  if (at === undefined) return null;
  return { total: at - t0, handler: within(m.handler, t0, at), ink: within(m.ink, t0, at) };
}

/**
 * A held-down key: `count` keys on a fixed schedule, whatever was drawn, each
 * timed to the first frame written after it (ink's throttle decides when).
 */
async function repeat(
  m: Mounted,
  key: string,
  count: number,
  everyMs: number,
): Promise<(Sample | null)[]> {
  const sent: number[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = start + i * everyMs - performance.now();
    if (wait > 0) await sleep(wait);
    sent.push(performance.now());
    m.inp.send(key);
  }
  await sleep(500);
  return sent.map((t0, i) => {
    const at = m.out.frames.find((f) => f >= t0);
    if (at === undefined) return null;
    // The controller's share is this key's own; the rest is shared with the keys around it.
    const next = sent[i + 1] ?? Infinity;
    return {
      total: at - t0,
      handler: within(m.handler, t0, Math.min(at, next)),
      ink: within(m.ink, t0, at),
    };
  });
}

/** Types text one key at a time (not timed). */
async function typeText(m: Mounted, text: string): Promise<void> {
  for (const c of Array.from(text)) {
    m.inp.send(c);
    await sleep(5);
  }
}

interface Series {
  label: string;
  samples: Sample[];
  missing: number;
}

function series(label: string): Series {
  return { label, samples: [], missing: 0 };
}

function add(s: Series, x: Sample | null): void {
  if (x) s.samples.push(x);
  else s.missing++;
}

const windowKey = (w: MsgWindow): string => {
  const first = w.items[0];
  const last = w.items[w.items.length - 1];
  const id = (it: MsgWindow['items'][number] | undefined): string =>
    it === undefined ? '-' : it.kind === 'message' ? String(it.msg.id) : `d${it.seg}`;
  return `${id(first)}:${id(last)}:${w.items.length}`;
};

/** The longest conversation of a store: its id, first and last message. */
function longest(path: string): { sessionId: string; n: number; first: number; last: number } {
  const store = Store.open(path, { profile: 'default' });
  try {
    const r = store.db
      .prepare(
        `SELECT session_id AS sessionId, count(*) AS n, MIN(id) AS first, MAX(id) AS last
         FROM messages GROUP BY session_id ORDER BY n DESC LIMIT 1`,
      )
      .get() as { sessionId: string; n: number; first: number; last: number };
    return r;
  } finally {
    store.close();
  }
}

const QUERY = 'migration';

export async function keySeries(
  path: string,
  cols: number,
  rows: number,
  config: RenderConfig,
): Promise<Series[]> {
  const m = await mount(path, cols, rows, config);
  try {
    const recent = series('Recent: j/k');
    const held = series(`Recent: j held (a key every ${REPEAT_MS} ms)`);
    const results = series('Results: j/k');
    const lineMoves = series('window: j (line)');
    const page = series('window: PgDn/PgUp, no load');
    const reanchor = series('window: PgDn/PgUp that re-anchored');

    for (let i = 0; i < 30; i++) add(recent, await press(m, 'j', SPACING_MS));
    for (let i = 0; i < 30; i++) add(recent, await press(m, 'k', SPACING_MS));
    await sleep(100);
    for (const x of await repeat(m, 'j', 40, REPEAT_MS)) add(held, x);
    await sleep(100);

    await press(m, '/', SPACING_MS);
    await typeText(m, QUERY);
    await waitUntil(() => {
      const r = m.state().results;
      return !r.busy && r.forText === QUERY && r.items.length > 20;
    }, 'search results');
    // Let the hit counts finish arriving, so that no worker message lands between keys.
    await waitUntil(() => {
      const r = m.state().results;
      return r.items.every((it) => r.hitCounts[it.key] !== undefined);
    }, 'hit counts').catch(() => undefined);
    await press(m, KEY.tab, SPACING_MS);
    if (m.state().pane !== 'results' || m.state().typing)
      throw new Error(`bench: expected the Results pane, got ${m.state().pane}`);
    await sleep(100);
    for (let i = 0; i < 20; i++) add(results, await press(m, 'j', SPACING_MS));
    for (let i = 0; i < 20; i++) add(results, await press(m, 'k', SPACING_MS));

    // The store's longest conversation, opened on its first message by pasting an anchor.
    const long = longest(path);
    await press(m, scrollCall({ sessionId: long.sessionId, messageId: long.first }), SPACING_MS);
    await waitUntil(() => m.state().view !== null && m.state().pane === 'messages', 'the window');
    await sleep(100);
    for (let i = 0; i < 40; i++) add(lineMoves, await press(m, 'j', SPACING_MS));
    let anchors = 0;
    const pageKeys = [
      ...Array<string>(120).fill(KEY.pageDown),
      ...Array<string>(40).fill(KEY.pageUp),
    ];
    for (const k of pageKeys) {
      const before = windowKey(m.state().view!.win);
      const x = await press(m, k, SPACING_MS);
      const moved = windowKey(m.state().view!.win) !== before;
      if (moved) anchors++;
      add(moved ? reanchor : page, x);
    }
    reanchor.label += ` (${anchors} of ${pageKeys.length})`;
    return [recent, held, results, lineMoves, page, reanchor];
  } finally {
    m.close();
  }
}

async function benchKeys(input: AppBenchInput): Promise<void> {
  const path = input.stores[30];
  const configs = await renderConfigs();
  const long = longest(path);
  for (const [cols, rows] of [
    [120, 40],
    [200, 60],
  ] as const) {
    console.log(
      `\n## app: key → frame at ${cols}x${rows} (in process, schema 30 store; window keys in a ${long.n.toLocaleString('en-US')}-message conversation; keys ${SPACING_MS} ms apart unless noted)`,
    );
    row(
      [
        'keys · ink settings',
        'n',
        'p50',
        'p95',
        'max',
        'controller',
        'rest',
        'ink output',
        'target',
      ],
      KEY_COL,
      11,
    );
    for (const config of configs) {
      const all = await keySeries(path, cols, rows, config);
      for (const s of all) {
        const t = s.samples.map((x) => x.total);
        const p50 = percentile(t, 50);
        const p95 = percentile(t, 95);
        row(
          [
            `${s.label} · ${config.label}${s.missing ? ` (${s.missing} no frame)` : ''}`,
            String(s.samples.length),
            fmt(p50),
            fmt(p95),
            fmt(Math.max(...t)),
            fmt(median(s.samples.map((x) => x.handler))),
            fmt(median(s.samples.map((x) => Math.max(0, x.total - x.handler - x.ink)))),
            fmt(median(s.samples.map((x) => x.ink))),
            ok(p50 <= TARGET_P50_MS && p95 <= TARGET_P95_MS),
          ],
          KEY_COL,
          11,
        );
      }
    }
  }
  console.log(
    '  (controller = Controller.handleKey incl. store reads; ink output = ink onRender renderTime;',
  );
  console.log(
    "   rest = React render and commit, Yoga layout, the write, and any wait in ink's frame throttle)",
  );
}

// ---------------------------------------------------------------- memory

function longStore(benchDir: string): string {
  const path = join(benchDir, `bench-v30-long${LONG_MESSAGES}.db`);
  if (!existsSync(path)) {
    const t = performance.now();
    const r = generateStore(path, {
      layout: 30,
      sessions: 300,
      seed: 7,
      longSessions: 1,
      longSessionMessages: LONG_MESSAGES,
    });
    console.log(
      `generated ${path}: ${r.sessions} sessions, ${r.messages} messages in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  return path;
}

const POSITION = /msg ([\d,]+) · ([\d,]+)\/([\d,]+) · (\d+)%/g;
const num = (s: string): number => Number(s.replace(/,/g, ''));

/** The last position line drawn in `text`: focused message index and total. */
function lastPosition(text: string): { index: number; total: number } | null {
  let last: RegExpExecArray | null = null;
  for (const m of plain(text).matchAll(POSITION)) last = m;
  return last ? { index: num(last[2]!), total: num(last[3]!) } : null;
}

/** The real app: RSS at the first frame, after opening the long conversation, after paging through it. */
async function processMemory(
  bin: string,
  path: string,
  long: { sessionId: string; last: number },
): Promise<void> {
  const app = new PtyApp(bin, path, 160, 48);
  try {
    if (!(await app.waitFor(() => app.out.includes(FRAME_MARK), 15_000))) {
      line(['(the app did not draw: not measured)', 'n/a']);
      return;
    }
    const pid = app.pid();
    if (pid === null) {
      line(['(no app process found: not measured)', 'n/a']);
      return;
    }
    const first = memoryOf(pid);
    // The worker loads the rest of Recent after the first frame.
    await sleep(1_500);
    const idle = memoryOf(pid);
    let mark = app.out.length;
    app.send(scrollCall({ sessionId: long.sessionId, messageId: long.last }));
    await app.waitFor(() => lastPosition(app.out.slice(mark)) !== null, 10_000);
    mark = app.out.length;
    app.send('G');
    await app.settle(mark, 200);
    const opened = memoryOf(pid);
    /** PgUp in bursts until the position stops moving (the first screen of the conversation). */
    const walk = async (): Promise<{ pages: number; ms: number; reached: string }> => {
      const t = performance.now();
      let pages = 0;
      let prev = Infinity;
      let still = 0;
      let pos = lastPosition(app.out);
      while (still < 3 && performance.now() - t < 180_000) {
        mark = app.out.length;
        app.send(KEY.pageUp.repeat(10));
        pages += 10;
        await app.settle(mark, 60, 2_000);
        pos = lastPosition(app.out.slice(mark)) ?? pos;
        const index = pos?.index ?? prev;
        still = index >= prev ? still + 1 : 0;
        prev = Math.min(prev, index);
      }
      const reached = pos
        ? `message ${pos.index.toLocaleString('en-US')} of ${pos.total.toLocaleString('en-US')}`
        : '?';
      return { pages, ms: performance.now() - t, reached };
    };
    const first1 = await walk();
    const scrolled = memoryOf(pid);
    // The app collects its garbage once the keys stop (src/tui/memory.ts).
    await sleep(2_500);
    const rested = memoryOf(pid);
    await sleep(AT_REST_MS - 2_500);
    const atRest = memoryOf(pid);
    const restLabel = `RSS ${(AT_REST_MS / 1000).toFixed(1)} s after it`;
    line(['RSS at the first frame', mb(first.rss), '', ok(first.rss <= TARGET_RSS_BYTES)]);
    line(['RSS idle (Recent fully loaded)', mb(idle.rss), '', ok(idle.rss <= TARGET_RSS_BYTES)]);
    line([
      `RSS after opening it at its last message (G)`,
      mb(opened.rss),
      '',
      ok(opened.rss <= TARGET_RSS_BYTES),
    ]);
    line([
      `RSS after ${first1.pages} PgUp to the top (${first1.reached}, ${(first1.ms / 1000).toFixed(1)} s)`,
      mb(scrolled.rss),
      '',
      ok(scrolled.rss <= TARGET_RSS_BYTES),
    ]);
    line(['RSS 2.5 s after the last key', mb(rested.rss), '', ok(rested.rss <= TARGET_RSS_BYTES)]);
    line([restLabel, mb(atRest.rss), '', ok(atRest.rss <= TARGET_RSS_BYTES)]);
    const split = rssSplit(pid);
    if (split)
      line(['  of it anonymous (V8 heaps, malloc) / file-backed', mb(split.anon), mb(split.file)]);
    line([
      'peak RSS of the app process (VmHWM)',
      mb(scrolled.peak),
      '',
      ok(scrolled.peak <= TARGET_PEAK_BYTES),
    ]);
    // The same walk again (G to the end, PgUp to the top): a day-long session must not grow.
    const after: number[] = [atRest.rss];
    for (let r = 2; r <= MEMORY_REPEATS; r++) {
      mark = app.out.length;
      app.send('G');
      await app.settle(mark, 200);
      const w = await walk();
      const end = memoryOf(pid);
      await sleep(2_500);
      const rest = memoryOf(pid);
      await sleep(AT_REST_MS - 2_500);
      const still = memoryOf(pid);
      after.push(still.rss);
      line([
        `  walk ${r}: after ${w.pages} PgUp (${(w.ms / 1000).toFixed(1)} s) / 2.5 s / ${(AT_REST_MS / 1000).toFixed(1)} s later / peak`,
        mb(end.rss),
        mb(rest.rss),
        mb(still.rss),
        mb(still.peak),
      ]);
    }
    if (after.length > 1) {
      line([
        `RSS ${(AT_REST_MS / 1000).toFixed(1)} s after each of ${after.length} walks (MB)`,
        after.map((x) => (x / 1048576).toFixed(0)).join(' '),
      ]);
      const peak = memoryOf(pid).peak;
      line([
        `peak of all walks`,
        mb(peak),
        '',
        ok(peak <= TARGET_PEAK_BYTES && after.every((x) => x <= TARGET_RSS_BYTES)),
      ]);
    }
    const judged = walkGrowth(after);
    if (judged) {
      const { growth, grew } = judged;
      line([
        `growth: median of the last 3 walks − of walks 2–4 (fails above ${mb(GROWTH_MAX_BYTES)})`,
        mb(growth),
        '',
        grew ? 'FAIL' : 'ok',
      ]);
      // Timings are not tests, but growth is: a day-long session must not grow.
      if (grew) process.exitCode = 1;
    }
  } finally {
    await app.quit();
  }
}

/** The same walk in this process, checking the window's size after every key. */
async function windowBound(path: string, long: { sessionId: string; last: number }): Promise<void> {
  const m = await mount(path, 160, 48, (await renderConfigs())[0]!);
  try {
    await press(m, scrollCall({ sessionId: long.sessionId, messageId: long.last }), 0);
    await waitUntil(() => m.state().view !== null, 'the window');
    await press(m, 'G', 0);
    await sleep(100);
    const heapBefore = retainedHeap();
    const mem0 = process.memoryUsage();
    let maxMessages = 0;
    let maxItems = 0;
    let loads = 0;
    let keys = 0;
    const t = performance.now();
    /** PgUp until the first message; the window's size checked after every key. */
    const walk = async (): Promise<void> => {
      for (;;) {
        const w = m.state().view!.win;
        maxMessages = Math.max(maxMessages, messageCount(w.items));
        maxItems = Math.max(maxItems, w.items.length);
        if ((w.atStart && w.top === 0) || keys > 20_000 * MEMORY_REPEATS) break;
        const before = windowKey(w);
        m.inp.send(KEY.pageUp);
        keys++;
        await new Promise<void>((r) => setImmediate(r));
        if (windowKey(m.state().view!.win) !== before) loads++;
      }
    };
    await walk();
    const walkMs = performance.now() - t;
    const firstKeys = keys;
    const firstLoads = loads;
    const w = m.state().view!.win;
    const mem1 = process.memoryUsage();
    const heapAfter = retainedHeap();
    clearLayoutCache();
    const heapNoLayout = retainedHeap();
    line([
      `window held at most (${firstKeys} PgUp, ${firstLoads} re-anchors, ${(walkMs / 1000).toFixed(1)} s)`,
      `${maxMessages} msgs`,
      `≤ ${WINDOW_MAX_MESSAGES}`,
      ok(maxMessages <= WINDOW_MAX_MESSAGES && w.atStart),
    ]);
    line([
      `  (items incl. dividers: ${maxItems}; reached the first message: ${w.atStart && w.top === 0})`,
    ]);
    // In this process: how much of the growth is kept, and how much is collectable garbage.
    line([
      'in process, the walk grew V8 heap reserved / RSS',
      mb(mem1.heapTotal - mem0.heapTotal),
      mb(mem1.rss - mem0.rss),
    ]);
    line(['  heap it retained (after a full GC)', mb(heapAfter - heapBefore)]);
    line(['    message layout cache (LAYOUT_CACHE_MAX entries)', mb(heapAfter - heapNoLayout)]);
    line(["    the rest (ink's measure-text cache, other caches)", mb(heapNoLayout - heapBefore)]);
    // The walk again and again: what a full collection leaves must not climb.
    const retained: number[] = [heapAfter];
    for (let r = 2; r <= MEMORY_REPEATS; r++) {
      await press(m, 'G', 0);
      await waitUntil(() => m.state().view?.win.atEnd === true, 'the end of the conversation');
      await sleep(50);
      await walk();
      retained.push(retainedHeap());
    }
    if (retained.length > 1) {
      line([
        `in process, heap retained after each of ${retained.length} walks (MB, after a full GC)`,
        retained.map((x) => (x / 1048576).toFixed(1)).join(' '),
      ]);
      line([
        `  walk ${retained.length} − walk 2 (no growth: within ~1 MB)`,
        mb(retained[retained.length - 1]! - retained[1]!),
        '',
        ok(retained[retained.length - 1]! - retained[1]! <= 1024 * 1024),
      ]);
    }
  } finally {
    m.close();
  }
}

/** V8 heap in use after a full collection (the flag can be set at run time; gc comes from a fresh context). */
function retainedHeap(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function benchMemory(input: AppBenchInput): Promise<void> {
  const path = longStore(input.benchDir);
  const long = longest(path);
  console.log(
    `\n## app: memory, a ${long.n.toLocaleString('en-US')}-message conversation paged end to end at 160x48`,
  );
  line(['measure', 'value', 'budget', 'target']);
  if (hasCommand('script', ['-V']) && existsSync('/proc/self/status'))
    await processMemory(join(input.root, 'dist', 'lookback.cjs'), path, long);
  else line(['(no `script` or /proc: process RSS not measured)', 'n/a']);
  await windowBound(path, long);
}

export async function benchApp(input: AppBenchInput, only: ReadonlySet<string>): Promise<void> {
  if (only.has('first')) await benchFirstFrame(input);
  if (only.has('keys')) await benchKeys(input);
  if (only.has('memory')) await benchMemory(input);
}
