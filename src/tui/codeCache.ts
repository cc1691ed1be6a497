/**
 * Loads a CommonJS file through V8's code cache: the functions compiled by an
 * earlier run are read back instead of parsed and compiled again (Node 20 offers
 * this for scripts only, not for ES modules). The app's bundle goes through here
 * (scripts/appBundle.mjs says why and what it saves).
 *
 * V8 checks a cache against its own version and flags, and the source's length
 * only: the cache file's name must therefore carry the source's identity (the
 * caller passes a content hash). A cache V8 rejects is deleted, never trusted.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheHome, lookbackCacheDir } from '../paths.js';

export interface CachedModule<T> {
  exports: T;
  /** 'used': compiled from the cache; 'none': no cache yet; 'rejected': V8 refused it (deleted). */
  cache: 'used' | 'none' | 'rejected';
  /**
   * Writes the cache when there was none, with every function compiled so far
   * (call it late: at exit the whole session's code is in). Never throws.
   */
  save(): void;
}

export interface CacheFile {
  /** The cache's path; its name must change whenever the source does. */
  path: string;
  /** Other files in its directory that start with this are older caches, removed on save. */
  stalePrefix?: string;
  /** Directories are made below this one only; when it does not exist nothing is written. */
  within?: string;
}

/**
 * Where the cache of one bundle lives: `~/.cache/lookback/code/<name>-<hash>-<node>-<arch>.v8cache`,
 * older ones of the same name removed on save, nothing written when the user's
 * cache directory does not exist (a cache is not worth creating it for). Null
 * with LOOKBACK_CODE_CACHE=0.
 */
export function codeCacheFile(
  name: string,
  hash: string,
  env: NodeJS.ProcessEnv = process.env,
): CacheFile | null {
  if (env.LOOKBACK_CODE_CACHE === '0') return null;
  return {
    path: join(
      lookbackCacheDir(env),
      'code',
      `${name}-${hash}-${process.version}-${process.arch}.v8cache`,
    ),
    stalePrefix: `${name}-`,
    within: cacheHome(env),
  };
}

/** `require(file)` the way Node would, with a code cache read from and written to `cache` (null: none). */
export function requireWithCodeCache<T>(file: string, cache: CacheFile | null): CachedModule<T> {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = cache ? readFileSync(cache.path) : undefined;
  } catch {
    cachedData = undefined;
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const state = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  if (state === 'rejected' && cache) rmSync(cache.path, { force: true });
  const mod = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    mod.exports,
    createRequire(file),
    mod,
    file,
    dirname(file),
  );
  let saved = state === 'used';
  return {
    exports: mod.exports,
    cache: state,
    save() {
      // After a rejection the next run writes: this one's flags may be what V8 refused.
      if (saved || state === 'rejected' || !cache) return;
      saved = true;
      try {
        if (cache.within !== undefined && !existsSync(cache.within)) return;
        const data = script.createCachedData();
        const dir = dirname(cache.path);
        mkdirSync(dir, { recursive: true });
        const tmp = `${cache.path}.${process.pid}.tmp`;
        writeFileSync(tmp, data);
        renameSync(tmp, cache.path);
        if (cache.stalePrefix) removeStale(dir, cache.stalePrefix, basename(cache.path));
      } catch {
        // A cache is an optimisation: a read-only or full disk costs only speed.
      }
    },
  };
}

/** Older caches of the same file (another build, another Node), and temp files left by a crash a day ago. */
function removeStale(dir: string, prefix: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || name === keep) continue;
    const path = join(dir, name);
    if (name.endsWith('.tmp') && statSync(path).mtimeMs > dayAgo) continue;
    rmSync(path, { force: true });
  }
}
