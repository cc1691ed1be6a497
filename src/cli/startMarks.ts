/**
 * Where a start's time goes (issue 20): with LOOKBACK_START_MARKS=FILE, each step
 * of the way to the first frame (or to a command's answer) is a performance mark,
 * and the steps, in ms since the process started, are written to FILE as JSON when
 * the first frame is drawn (the app) or at exit (a command), with the CPU time used
 * by then. Unset, a mark is one property read. The marks are Node's own timeline, which every bundle of the
 * process (dist/lookback.cjs, cli.cjs, app.cjs) shares.
 */
import { writeFileSync } from 'node:fs';
import type { PerformanceMark } from 'node:perf_hooks';

const PREFIX = 'lookback:';

/** The file the marks go to, or undefined (off). */
const target = (): string | undefined => process.env.LOOKBACK_START_MARKS || undefined;

export function startMark(step: string): void {
  if (target() === undefined) return;
  const { user, system } = process.cpuUsage();
  performance.mark(PREFIX + step, { detail: { cpu: (user + system) / 1000 } });
}

export interface StartStep {
  step: string;
  /** ms since the process started (performance.timeOrigin). */
  at: number;
  /** CPU ms the process had used by then (every thread), less bent by a loaded machine than `at`. */
  cpu?: number;
}

/** Node's own start, then every lookback mark so far, in order. */
export function startSteps(): StartStep[] {
  const node = performance.nodeTiming;
  return [
    { step: 'node: environment ready', at: node.environment },
    { step: 'node: bootstrap complete', at: node.bootstrapComplete },
    ...performance
      .getEntriesByType('mark')
      .filter((m) => m.name.startsWith(PREFIX))
      .map((m) => ({
        step: m.name.slice(PREFIX.length),
        at: m.startTime,
        cpu: ((m as PerformanceMark).detail as { cpu: number } | null)?.cpu,
      })),
  ];
}

/** Once per process, whichever bundle writes first: a global, since each bundle has its own copy of this module. */
const WRITTEN = Symbol.for('lookback.startMarksWritten');

/** Writes the steps to LOOKBACK_START_MARKS once; a failure to write never stops the app. */
export function writeStartMarks(): void {
  const file = target();
  const g = globalThis as Record<symbol, unknown>;
  if (file === undefined || g[WRITTEN] === true) return;
  g[WRITTEN] = true;
  try {
    writeFileSync(file, `${JSON.stringify(startSteps(), null, 1)}\n`);
  } catch {
    // A measurement aid: the app goes on.
  }
}
