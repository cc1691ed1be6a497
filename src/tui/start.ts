import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StartOptions } from './options.js';
import { codeCacheFile, requireWithCodeCache, type CacheFile } from './codeCache.js';
import { startMark } from '../cli/startMarks.js';

/** The app bundle's content hash, defined by scripts/build.mjs (absent when running from source). */
declare const __LOOKBACK_APP_HASH__: string | undefined;

/** The global symbol Yoga is handed to dist/app.cjs on (scripts/appBundle.mjs, YOGA_KEY). */
export const YOGA_KEY = 'lookback.yoga';

/**
 * `CI=false` (or `0`) tells ink it is not in CI, but chalk's colour detection
 * sees only that CI is set and turns colours off; on a terminal, say what was meant.
 */
export function colourEnv(env: NodeJS.ProcessEnv, isTTY: boolean): void {
  if (
    isTTY &&
    (env.CI === 'false' || env.CI === '0') &&
    env.FORCE_COLOR === undefined &&
    env.NO_COLOR === undefined
  )
    env.FORCE_COLOR = '1';
}

export interface AppBundle {
  file: string;
  /** Where its code cache lives; null with LOOKBACK_CODE_CACHE=0. */
  cache: CacheFile | null;
}

/**
 * dist/app.cjs beside the entry or one directory up from a chunk, and its code
 * cache (codeCacheFile). Null from source.
 */
export function findAppBundle(
  env: NodeJS.ProcessEnv = process.env,
  hash: string | undefined = typeof __LOOKBACK_APP_HASH__ === 'string'
    ? __LOOKBACK_APP_HASH__
    : undefined,
  base: string = import.meta.url,
): AppBundle | null {
  if (hash === undefined) return null;
  for (const rel of ['./app.cjs', '../app.cjs']) {
    let file: string;
    try {
      file = fileURLToPath(new URL(rel, base));
    } catch {
      return null;
    }
    if (existsSync(file)) return { file, cache: codeCacheFile('app', hash, env) };
  }
  return null;
}

type RunModule = typeof import('./run.js');

/** The interactive app (the CLI imports this lazily, so subcommands never load React or Ink). */
export async function startApp(flags: StartOptions): Promise<number> {
  startMark('app: start.ts loaded');
  // Before ink (and chalk) load: they read the environment once.
  colourEnv(process.env, process.stdout.isTTY === true || process.stderr.isTTY === true);
  const bundle = findAppBundle();
  if (bundle === null) {
    const { runApp } = await import('./run.js');
    return runApp(flags);
  }
  // Node started with --expose-gc keeps it: the cache is written under the start's flags.
  const gcAtStart = typeof (globalThis as { gc?: unknown }).gc === 'function';
  (globalThis as Record<symbol, unknown>)[Symbol.for(YOGA_KEY)] = (
    await import('yoga-layout')
  ).default;
  startMark('app: yoga loaded');
  const app = requireWithCodeCache<RunModule>(bundle.file, bundle.cache);
  startMark(`app.cjs loaded (code cache: ${app.cache})`);
  const code = await app.exports.runApp(flags);
  // At a clean exit: the cache then holds every function the session compiled. A run
  // that stopped early (no store, no terminal) would leave a cache of almost nothing,
  // used from then on.
  if (code === 0 && bundle.cache && app.cache === 'none') {
    // From the app bundle, whose node:v8 loads on first use: this chunk loads it at no start.
    app.exports.restoreStartFlags(gcAtStart);
    app.save();
  }
  return code;
}
