/**
 * Ending a one-shot command's process as soon as its answer is out (issue 20,
 * start-up). Left to end by itself, Node tears its whole heap down page by page
 * (FreeEnvironment, the isolate's disposal: a few ms of every `lookback search
 * --json`, seen as ~40 munmap calls after the answer's write in `strace`);
 * `process.exit()` runs the 'exit' listeners (the start marks, the code cache's
 * save) and leaves the memory to the kernel.
 *
 * Only when nothing is still queued: the answers go to fd 1 with writeSync
 * (./out.ts), so usually neither `process.stdout` nor `process.stderr` was ever
 * built; one that was (a warning, a non-blocking pipe's rest) must have nothing
 * left to write, else the process ends by itself as before.
 */

export interface StdioWatch {
  /** Whether `process.stdout` / `process.stderr` was read (and so built) since the watch began. */
  built(name: 'stdout' | 'stderr'): boolean;
}

/** Notes when `process.stdout` or `process.stderr` is first read, without building either. */
export function watchStdio(): StdioWatch {
  const seen = { stdout: false, stderr: false };
  for (const name of ['stdout', 'stderr'] as const) {
    const d = Object.getOwnPropertyDescriptor(process, name);
    if (!d?.get || !d.configurable) {
      // Not the lazy getter this relies on: count the stream as built and ask it at the end.
      seen[name] = true;
      continue;
    }
    const get = d.get;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: d.enumerable ?? true,
      get() {
        seen[name] = true;
        return get.call(process) as NodeJS.WriteStream;
      },
    });
  }
  return { built: (name) => seen[name] };
}

/** True when no stream the process built still holds bytes to write. */
export function stdioFlushed(watch: StdioWatch): boolean {
  for (const name of ['stdout', 'stderr'] as const)
    if (watch.built(name) && process[name].writableLength > 0) return false;
  return true;
}

/** Ends the process now, with process.exitCode, when nothing is left to write; otherwise lets it end by itself. */
export function quickExit(watch: StdioWatch): void {
  if (process.env.LOOKBACK_QUICK_EXIT === '0') return;
  if (stdioFlushed(watch)) process.exit();
}
