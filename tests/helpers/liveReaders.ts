/**
 * The live-agent harness: the agent simulator (agentSim.mjs) as a child
 * process, and lookback reading the same store continuously, both ways a
 * person or an agent uses it: the real CLI in a loop (one process per command,
 * JSON output) and an in-process Store opened once (as the app does). Every
 * outcome is classified; nothing here asserts, the tests do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { getPriority, setPriority } from 'node:os';
import { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/errors.js';
import { browse } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { scroll } from '../../src/store/recall.js';
import { sessionEdge } from '../../src/store/messages.js';
import { lookbackAsync } from './cli.js';

export const AGENT_SIM = resolve(import.meta.dirname, 'agentSim.mjs');

export interface SimConfig {
  path: string;
  rate?: number;
  seconds?: number;
  liveSessions?: number;
  seed?: number;
  synchronous?: 'FULL' | 'NORMAL' | 'OFF';
  markerEvery?: number;
  vacuumEvery?: number;
  optimizeEvery?: number;
  checkpointEvery?: number;
  pruneEvery?: number;
  rotateEvery?: number;
  latencyOut?: string;
  [key: string]: unknown;
}

export interface SimMarker {
  token: string;
  session_id: string;
  message_id: number;
  /** Epoch ms, taken by the writer right after the commit. */
  at: number;
}

export interface LatencySummary {
  count: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  mean_ms: number | null;
}

export interface SimSummary extends LatencySummary {
  elapsed_s: number;
  rate: number;
  stats: Record<string, number>;
  ops: Record<string, LatencySummary>;
}

/** The simulator process, its marker events and its summary. */
export class AgentSim {
  readonly markers: SimMarker[] = [];
  summary: SimSummary | null = null;
  stderr = '';
  readonly ready: Promise<void>;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(config: SimConfig) {
    this.child = spawn(process.execPath, [AGENT_SIM, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let onReady: () => void = () => {};
    this.ready = new Promise((r) => (onReady = r));
    this.exited = new Promise((r) => this.child.on('exit', (code) => r(code)));
    // A simulator that dies before it is ready must not leave the test waiting.
    void this.exited.then(() => onReady());
    this.child.stderr!.on('data', (b: Buffer) => (this.stderr += b.toString('utf8')));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      let event: { event?: string } & Record<string, unknown>;
      try {
        event = JSON.parse(line) as typeof event;
      } catch {
        return;
      }
      if (event.event === 'ready') onReady();
      else if (event.event === 'marker') this.markers.push(event as unknown as SimMarker);
      else if (event.event === 'summary') this.summary = event as unknown as SimSummary;
    });
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}

export interface Failure {
  reader: 'cli' | 'store';
  op: string;
  detail: string;
}

export interface ReaderCounts {
  runs: number;
  ok: number;
  /** "store busy": allowed only as a transient status. */
  busy: number;
  /** The session or message asked for was pruned between two reads: the truth, not an error. */
  vanished: number;
  longestBusyStreak: number;
  ms: number[];
}

export interface MarkerSeen {
  marker: SimMarker;
  /** Epoch ms when each reader first saw it; undefined when it never did. */
  storeMessage?: number;
  storeSession?: number;
  cli?: number;
}

export interface ReaderReport {
  cli: ReaderCounts;
  store: ReaderCounts;
  failures: Failure[];
  markers: MarkerSeen[];
}

export interface ReaderOptions {
  path: string;
  sim?: AgentSim;
  cli?: boolean;
  store?: boolean;
  /** Pause between in-process operations (an app polls and re-queries, it does not spin). */
  storeIntervalMs?: number;
  /**
   * Run lookback at a lower CPU priority (nice increment): the CLI processes, and
   * this whole process while the in-process reader runs (restored at stop).
   */
  nice?: number;
  words?: string[];
}

const WORDS = ['migration', 'pgbouncer', 'kestrel', 'rollback', 'webhook OR ledger', 'deploy*'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counts(): ReaderCounts {
  return { runs: 0, ok: 0, busy: 0, vanished: 0, longestBusyStreak: 0, ms: [] };
}

/** Starts the readers; `stop()` ends them and returns what they saw. */
export function startReaders(opts: ReaderOptions): {
  stop: () => Promise<ReaderReport>;
  /** Markers some reader has not seen yet (each reader that is running must see each one). */
  unseen: () => MarkerSeen[];
} {
  const report: ReaderReport = { cli: counts(), store: counts(), failures: [], markers: [] };
  const seen = new Map<string, MarkerSeen>();
  const words = opts.words ?? WORDS;
  let stopped = false;
  const markerState = (): MarkerSeen[] => {
    for (const m of opts.sim?.markers ?? [])
      if (!seen.has(m.token)) {
        const s: MarkerSeen = { marker: m };
        seen.set(m.token, s);
        report.markers.push(s);
      }
    return report.markers;
  };
  const streak = { cli: 0, store: 0 };
  const outcome = (reader: 'cli' | 'store', kind: 'ok' | 'busy' | 'vanished', ms: number) => {
    const c = report[reader];
    c.runs++;
    c[kind]++;
    c.ms.push(ms);
    streak[reader] = kind === 'busy' ? streak[reader] + 1 : 0;
    c.longestBusyStreak = Math.max(c.longestBusyStreak, streak[reader]);
  };
  const fail = (reader: 'cli' | 'store', op: string, detail: string, ms: number) => {
    report[reader].runs++;
    report[reader].ms.push(ms);
    report.failures.push({ reader, op, detail: detail.slice(0, 2000) });
  };

  const cliLoop = async () => {
    for (let i = 0; !stopped; i++) {
      // Every marker not yet seen, in one query (each lives in its own conversation).
      const pending = markerState()
        .filter((s) => s.cli === undefined)
        .slice(-20);
      const target = opts.sim?.markers[opts.sim.markers.length - 1];
      const db = ['--db', opts.path, '--json'];
      let args: string[];
      let op: string;
      if (pending.length > 0 && i % 2 === 0) {
        op = 'search-marker';
        args = ['search', pending.map((s) => s.marker.token).join(' OR '), '--limit', '50', ...db];
      } else {
        const k = i % 5;
        if (k === 0 || !target) {
          op = 'search';
          const w = words[i % words.length]!;
          args = ['search', w, ...(i % 3 === 0 ? ['--sort', 'newest'] : []), ...db];
        } else if (k === 1) {
          op = 'recent';
          args = ['recent', ...db];
        } else if (k === 2) {
          op = 'scroll';
          args = ['scroll', target.session_id, String(target.message_id), '--window', '10', ...db];
        } else if (k === 3) {
          op = 'read';
          args = ['read', target.session_id, ...db];
        } else {
          op = 'search-tools';
          args = [
            'search',
            words[(i + 1) % words.length]!,
            '--roles',
            'user,assistant,tool',
            ...db,
          ];
        }
      }
      const r = await lookbackAsync(args, {}, 30_000, opts.nice ?? 0);
      const stack = /\n\s+at\s/.test(r.stderr);
      const strayStderr = r.stderr
        .split('\n')
        .filter((l) => l.length > 0 && !l.startsWith('lookback: '));
      if (r.code === null || stack || strayStderr.length > 0) {
        fail('cli', op, `code=${r.code} signal=${r.signal} stderr=${r.stderr}`, r.ms);
        continue;
      }
      let out: Record<string, unknown>;
      try {
        out = r.json();
      } catch {
        fail('cli', op, `not JSON (code ${r.code}): ${r.stdout.slice(0, 300)}`, r.ms);
        continue;
      }
      if (r.code === 0 && out.success === true) {
        outcome('cli', 'ok', r.ms);
        if (op === 'search-marker') {
          const found = new Set(
            ((out.results ?? []) as { match_message_id?: number }[]).map((x) => x.match_message_id),
          );
          for (const s of pending) if (found.has(s.marker.message_id)) s.cli ??= Date.now();
        }
      } else if (r.code === 1 && typeof out.error === 'string' && /^store busy/.test(out.error)) {
        outcome('cli', 'busy', r.ms);
      } else if (
        r.code === 1 &&
        typeof out.error === 'string' &&
        /session_id not found|not in session_id/.test(out.error) &&
        (op === 'scroll' || op === 'read')
      ) {
        outcome('cli', 'vanished', r.ms);
      } else {
        fail('cli', op, `code=${r.code} ${r.stdout.slice(0, 500)} ${r.stderr}`, r.ms);
      }
    }
  };

  const storeLoop = async () => {
    let store: Store;
    const priority = getPriority();
    if (opts.nice) setPriority(Math.min(19, priority + opts.nice));
    try {
      store = Store.open(opts.path);
    } catch (err) {
      fail('store', 'open', String(err), 0);
      if (opts.nice) setPriority(priority);
      return;
    }
    try {
      for (let i = 0; !stopped; i++) {
        const ops: [string, () => void][] = [
          ['discover', () => discover(store, words[i % words.length]!, { limit: 10 })],
          [
            'markers',
            () => {
              const pending = markerState().filter(
                (s) => s.storeMessage === undefined || s.storeSession === undefined,
              );
              if (pending.length === 0) return;
              const rows = browse(store, { limit: 20 });
              for (const s of pending) {
                if (s.storeMessage === undefined) {
                  const hit = discover(store, s.marker.token, { limit: 3, views: false });
                  if (hit.results.some((x) => x.match_message_id === s.marker.message_id))
                    s.storeMessage = Date.now();
                }
                if (
                  s.storeSession === undefined &&
                  rows.some(
                    (r) =>
                      r.session_id === s.marker.session_id || r.root_id === s.marker.session_id,
                  )
                )
                  s.storeSession = Date.now();
              }
            },
          ],
          [
            'browse+scroll',
            () => {
              const top = browse(store, { limit: 20 })[0];
              if (!top) return;
              const tail = sessionEdge(store, top.session_id, 'tail', 1)[0];
              if (tail) scroll(store, top.session_id, tail.id, 10);
            },
          ],
          ['dataVersion', () => store.dataVersion()],
        ];
        const [op, fn] = ops[i % ops.length]!;
        const t = performance.now();
        try {
          fn();
          outcome('store', 'ok', performance.now() - t);
        } catch (err) {
          const ms = performance.now() - t;
          if (err instanceof StoreError && err.code === 'busy') outcome('store', 'busy', ms);
          else if (
            err instanceof StoreError &&
            (err.code === 'no-session' || err.code === 'no-message')
          )
            outcome('store', 'vanished', ms);
          else
            fail(
              'store',
              op,
              `${err instanceof StoreError ? `StoreError(${err.code})` : 'unexpected'}: ${(err as Error)?.stack ?? err}`,
              ms,
            );
        }
        await sleep(opts.storeIntervalMs ?? 20);
      }
    } finally {
      store.close();
      // Only root may raise the priority back; elsewhere the process simply stays niced.
      if (opts.nice) {
        try {
          setPriority(priority);
        } catch {
          // not permitted: harmless for a test process
        }
      }
    }
  };

  const loops = [
    opts.cli === false ? Promise.resolve() : cliLoop(),
    opts.store === false ? Promise.resolve() : storeLoop(),
  ];
  return {
    unseen: () =>
      markerState().filter(
        (s) =>
          (opts.cli !== false && s.cli === undefined) ||
          (opts.store !== false && (s.storeMessage === undefined || s.storeSession === undefined)),
      ),
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      markerState();
      return report;
    },
  };
}
