/**
 * A full garbage collection once the user pauses.
 *
 * Every key redraws a whole frame, and a long scroll leaves a large heap behind:
 * V8 sizes it for throughput and shrinks it only after many seconds of quiet, so
 * a resting lookback held ~230 MB of RSS for ~30 MB of live data (`npm run bench`,
 * memory section). One collection a second after the last frame gives most of it
 * back (~160 MB), at a time nobody is waiting for a frame. (`--optimize-for-size`
 * got it to ~120 MB but made scrolling at 200x60 twice as slow: not used.)
 *
 * Also tried, not used (bench, memory and first sections, same-minute A/B runs):
 * - `v8.setFlagsFromString('--max-semi-space-size=…')` at start: no effect, the
 *   young generation is sized when the heap is created (new_space stays 32 MB);
 * - `--max-semi-space-size=2` as a process flag (`#!/usr/bin/env -S node …`):
 *   peak RSS of the walk 193-200 MB instead of 226-232, RSS after it 142-177
 *   instead of 151-160 (no clear win), but the first frame 100-170 ms later
 *   (more scavenges while the bundle loads).
 *
 * Kept: once the first frame is out, `--heap-growing-percent=100` (leanHeap):
 * V8 reads it at each full collection to set the next one's limit, so the old
 * generation grows 2× between collections instead of up to 4×. Peak RSS of
 * the 1,390-PgUp walk through a 10,000-message conversation ~275 → ~210 MB,
 * key → frame unchanged within the machine's noise (bench, memory and keys
 * sections, load 2-4). Set after the first frame, it costs the start nothing.
 * `=20` (1.2×) gave a peak of ~192 MB but doubled PgDn/PgUp at 200x60 (p50
 * 24 ms, p95 94 ms instead of ~10 and ~16-28): more full collections mid-scroll.
 * Neither lowers the RSS right after the walk (~178 MB; of it ~50 MB is the
 * node binary and libraries, ~32 MB the young generation at its 2 × 16 MB
 * maximum, ~46 MB old space, ~30 MB malloc arenas: SQLite, Yoga). Capping the
 * query worker's young generation at 6 MB (Worker resourceLimits) changed
 * nothing either.
 *
 * Removed (issue 20, round four): a second collection 6.5 s after the last frame,
 * for V8 to shrink its young generation. It depended on V8's own estimate of the
 * allocation rate, and gave the 31 MB back in 5 of 8 walks (A/B at load 12-20:
 * RSS 9.5 s after a walk 146-193 MB with it, 178-200 without; the quiet bench
 * 185): scheduling the collector, not a cause. What fills the young generation is
 * what survives a frame; see scripts/inkPatches.mjs (shared cells) for that.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { COLLECT_AFTER_BYTES, IDLE_COLLECT_MS } from '../budgets.js';

export interface IdleCollector {
  /** A frame was drawn: postpone. */
  activity(): void;
  stop(): void;
}

/** V8 flags for a smaller heap, set when the first frame is out (see the header). */
export const LEAN_HEAP_FLAGS: readonly string[] = ['--heap-growing-percent=100'];

/** Sets LEAN_HEAP_FLAGS. V8 reads them as it sizes the heap after each full collection. */
export function leanHeap(set: (flag: string) => void = setFlagsFromString): void {
  for (const flag of LEAN_HEAP_FLAGS) set(flag);
}

/** The engine's collector, or null where it cannot be had. */
export function exposeGc(): (() => void) | null {
  try {
    // gc() appears in contexts created after the flag is set (as jest's --logHeapUsage does).
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/**
 * The collector, made on first use: exposeGc's new V8 context costs ~6 ms of CPU,
 * which the first frame need not pay, since it is wanted only once the user pauses
 * (issue 20: it ran before the first render). Null from `expose` makes each call a no-op.
 */
export function gcOnFirstUse(expose: () => (() => void) | null = exposeGc): () => void {
  let gc: (() => void) | null | undefined;
  return () => {
    if (gc === undefined) gc = expose();
    gc?.();
  };
}

export function idleCollector(
  gc: (() => void) | null,
  heapUsed: () => number = () => process.memoryUsage().heapUsed,
  quietMs = IDLE_COLLECT_MS,
): IdleCollector {
  let timer: NodeJS.Timeout | null = null;
  let baseline = heapUsed();
  const collect = (): void => {
    timer = null;
    if (gc === null || heapUsed() - baseline < COLLECT_AFTER_BYTES) return;
    gc();
    baseline = heapUsed();
  };
  return {
    activity() {
      if (gc === null) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(collect, quietMs);
      timer.unref();
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

/** What V8 starts with for the flags this module sets (its defaults; 0: growing is not overridden). */
const START_VALUES: readonly string[] = ['--heap-growing-percent=0'];

/**
 * Sets the V8 flags this module changes back to their values at process start.
 * A code cache carries a hash of the flags it was made under, and V8 refuses it
 * under others: the app's cache is written at exit, after leanHeap and exposeGc,
 * and read at the next start, before them (src/tui/codeCache.ts).
 */
export function restoreStartFlags(
  gcAtStart: boolean,
  set: (flag: string) => void = setFlagsFromString,
): void {
  set(gcAtStart ? '--expose-gc' : '--no-expose-gc');
  for (const flag of START_VALUES) set(flag);
}
