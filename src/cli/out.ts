/**
 * Standard output of the command line's answers. `process.stdout` is a stream
 * Node builds on first use (a pipe's: net, stream and a libuv handle), ~3 ms of
 * a `lookback search --json` process in a --cpu-prof, for one write; so an
 * answer is written to fd 1 directly, whole, before the next line runs, as a
 * pipe's stream writes on Linux anyway. Only a descriptor that would block (a
 * non-blocking pipe a parent shares) hands the rest to the stream, which waits.
 */
import { fstatSync, writeSync } from 'node:fs';

let guarded = false;

/**
 * `process.stdout`, made to end the process quietly when the reader goes: a
 * reader that stops early (`lookback read X | head -1`, fzf's preview) closes the
 * pipe, which is the end of the output, not an error (no EPIPE stack trace).
 */
export function stdout(): NodeJS.WriteStream {
  if (!guarded) {
    guarded = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
  return process.stdout;
}

/** Writes `text` to standard output before returning (see above); EPIPE ends the process with 0. */
export function writeOut(text: string): void {
  // Once the stream exists it owns the descriptor: writing past it could reorder output.
  if (guarded) {
    stdout().write(text);
    return;
  }
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    let n: number;
    try {
      n = writeSync(1, rest);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(0);
      if (code === 'EAGAIN') {
        stdout().write(rest);
        return;
      }
      throw err;
    }
    rest = rest.subarray(n);
  }
}

/**
 * Whether standard error may be a terminal, without building `process.stderr`: a
 * pipe's stream loads net, stream and a libuv handle (~3 ms of a `search --json`
 * process that writes nothing there). A terminal is always a character device, so
 * anything else (a pipe, a file, a closed descriptor) is not one; a character
 * device (a terminal or /dev/null) is asked through the stream, as before.
 */
export function stderrMayBeTerminal(): boolean {
  try {
    return fstatSync(2).isCharacterDevice();
  } catch {
    return false;
  }
}
