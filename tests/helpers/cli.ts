import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: () => Record<string, unknown>;
}

/** Runs the built `lookback` binary with no TTY, as a script or an agent would. */
export function lookback(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: '/nonexistent-home',
      HERMES_HOME: '',
      XDG_CACHE_HOME: '/nonexistent-cache',
      ...env,
    },
    timeout: 30_000,
    // JSON answers carry whole messages; a 5 MB one would overflow the 1 MB default.
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout) as Record<string, unknown>,
  };
}

/**
 * The same as `lookback`, without blocking the event loop, so a test can run the
 * CLI in a loop while it also reads in-process and listens to a writer. Also
 * reports how long the process took.
 */
export function lookbackAsync(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
  nice = 0,
): Promise<Run & { ms: number; signal: NodeJS.Signals | null }> {
  const t = performance.now();
  // `nice` runs the process at a lower CPU priority (the writer-latency measurement compares both).
  const [cmd, argv] =
    nice > 0
      ? ['nice', ['-n', String(nice), process.execPath, BIN, ...args]]
      : [process.execPath, [BIN, ...args]];
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, argv, {
      env: {
        ...process.env,
        HOME: '/nonexistent-home',
        HERMES_HOME: '',
        XDG_CACHE_HOME: '/nonexistent-cache',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      resolvePromise({
        code,
        signal,
        stdout,
        stderr: Buffer.concat(err).toString('utf8'),
        json: () => JSON.parse(stdout) as Record<string, unknown>,
        ms: performance.now() - t,
      });
    });
  });
}
