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

/**
 * An empty Hermes store in the cache directory: what the app opens when there is
 * no Hermes store but other agents' histories exist, so that those histories are
 * the whole list (never mixed with generated demo sessions).
 */
export function ensureEmptyStore(dir = cacheDir()): { path: string } {
  const path = join(dir, `empty-v${DEMO_VERSION}.db`);
  if (existsSync(path)) return { path };
  mkdirSync(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  generateStore(tmp, { layout: 30, sessions: 0, seed: 1, now: Math.floor(Date.now() / 1000) });
  renameSync(tmp, path);
  return { path };
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
