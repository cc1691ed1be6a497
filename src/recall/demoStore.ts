import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { generateStore } from '../demo/generate.js';

/** Bump when the generator's output changes, so an old cached demo is not reused. */
const DEMO_VERSION = 1;
export const DEMO_SESSIONS = 200;

export function cacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'lookback');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'lookback');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'lookback', 'cache');
  return join(homedir(), '.cache', 'lookback');
}

/** The demo store in the user's cache directory, generated on first use (~200 sessions). */
export function ensureDemoStore(dir = cacheDir()): { path: string; created: boolean } {
  const path = join(dir, `demo-v${DEMO_VERSION}.db`);
  if (existsSync(path)) return { path, created: false };
  mkdirSync(dir, { recursive: true });
  // Generate beside it and rename, so an interrupted run never leaves half a store.
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  generateStore(tmp, {
    layout: 30,
    sessions: DEMO_SESSIONS,
    seed: 7,
    now: Math.floor(Date.now() / 1000),
  });
  renameSync(tmp, path);
  return { path, created: true };
}
