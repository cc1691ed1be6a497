import { spawnSync } from 'node:child_process';
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
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout) as Record<string, unknown>,
  };
}
