import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's cache directory: $XDG_CACHE_HOME, else ~/.cache. */
export function cacheHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
}

/** lookback's own cache directory: $XDG_CACHE_HOME/lookback, else ~/.cache/lookback. */
export function lookbackCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheHome(env), 'lookback');
}
