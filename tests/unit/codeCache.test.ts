/**
 * src/tui/codeCache.ts: a CommonJS file loaded through V8's code cache. The
 * exports must be the file's own whether the cache is missing, used or refused;
 * a refused cache is deleted, never trusted; writing is best-effort.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireWithCodeCache } from '../../src/tui/codeCache.js';
import { findAppBundle } from '../../src/tui/start.js';
import { tempDir } from '../helpers/fixtures.js';

interface Mod {
  greet(name: string): string;
  where: string;
  sep: string;
}

function moduleFile(dir: string): string {
  const file = join(dir, 'mod.cjs');
  writeFileSync(
    file,
    `const path = require('node:path');
     exports.greet = (name) => 'hello ' + name.split('').reverse().join('');
     exports.where = __filename;
     exports.sep = path.sep;`,
  );
  return file;
}

const check = (m: Mod, file: string) => {
  expect(m.greet('abc')).toBe('hello cba');
  expect(m.where).toBe(file);
  expect(m.sep).toBe('/');
};

describe('requireWithCodeCache', () => {
  it('writes the cache on save, and the next load compiles from it', () => {
    const dir = tempDir('cc');
    const file = moduleFile(dir);
    const cache = { path: join(dir, 'cache', 'mod.v8cache') };
    const first = requireWithCodeCache<Mod>(file, cache);
    expect(first.cache).toBe('none');
    check(first.exports, file);
    expect(existsSync(cache.path)).toBe(false);
    first.save();
    expect(statSync(cache.path).size).toBeGreaterThan(0);
    const second = requireWithCodeCache<Mod>(file, cache);
    expect(second.cache).toBe('used');
    check(second.exports, file);
    const written = statSync(cache.path).mtimeMs;
    second.save(); // a used cache is not written again
    expect(statSync(cache.path).mtimeMs).toBe(written);
  });

  it('deletes a cache V8 refuses, still loads the file, and does not write in that run', () => {
    const dir = tempDir('cc');
    const file = moduleFile(dir);
    const cache = { path: join(dir, 'mod.v8cache') };
    writeFileSync(cache.path, Buffer.alloc(4096, 7));
    const m = requireWithCodeCache<Mod>(file, cache);
    expect(m.cache).toBe('rejected');
    check(m.exports, file);
    expect(existsSync(cache.path)).toBe(false);
    m.save();
    expect(existsSync(cache.path)).toBe(false);
    expect(requireWithCodeCache<Mod>(file, cache).cache).toBe('none');
  });

  it('V8 runs a cache made for another source of the same length: why cache names carry the bundle hash', () => {
    const dir = tempDir('cc');
    const a = join(dir, 'a.cjs');
    const b = join(dir, 'b.cjs');
    writeFileSync(a, 'exports.word = "AAAA";');
    writeFileSync(b, 'exports.word = "BBBB";');
    const cache = { path: join(dir, 'shared.v8cache') };
    requireWithCodeCache<{ word: string }>(a, cache).save();
    const wrong = requireWithCodeCache<{ word: string }>(b, cache);
    expect(wrong.cache).toBe('used');
    expect(wrong.exports.word).toBe('AAAA');
  });

  it("writes nothing when the user's cache directory does not exist (it is not made for a cache)", () => {
    const dir = tempDir('cc');
    const file = moduleFile(dir);
    const root = join(dir, 'no-such-cache');
    const m = requireWithCodeCache<Mod>(file, {
      path: join(root, 'lookback', 'code', 'x.v8cache'),
      within: root,
    });
    m.save();
    expect(existsSync(root)).toBe(false);
    mkdirSync(root);
    const n = requireWithCodeCache<Mod>(file, {
      path: join(root, 'lookback', 'code', 'x.v8cache'),
      within: root,
    });
    n.save();
    expect(existsSync(join(root, 'lookback', 'code', 'x.v8cache'))).toBe(true);
  });

  it('removes older caches of the file on save, and survives a directory it cannot write', () => {
    const dir = tempDir('cc');
    const file = moduleFile(dir);
    const cacheDir = join(dir, 'code');
    mkdirSync(cacheDir);
    writeFileSync(join(cacheDir, 'app-old-v20.0.0-x64.v8cache'), 'old');
    writeFileSync(join(cacheDir, 'other.txt'), 'kept');
    const m = requireWithCodeCache<Mod>(file, {
      path: join(cacheDir, 'app-new.v8cache'),
      stalePrefix: 'app-',
    });
    m.save();
    expect(readdirSync(cacheDir).sort()).toEqual(['app-new.v8cache', 'other.txt']);

    if (process.getuid?.() === 0) return; // root writes anywhere
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    const n = requireWithCodeCache<Mod>(file, { path: join(locked, 'x.v8cache') });
    expect(() => n.save()).not.toThrow();
    expect(existsSync(join(locked, 'x.v8cache'))).toBe(false);
  });
});

describe('findAppBundle', () => {
  it('finds dist/app.cjs beside the entry or above a chunk, its cache named by hash, Node and arch', () => {
    const dir = tempDir('bundle');
    mkdirSync(join(dir, 'chunks'));
    writeFileSync(join(dir, 'app.cjs'), '');
    const env = { XDG_CACHE_HOME: '/c' };
    const fromEntry = findAppBundle(env, 'abcd', `file://${dir}/lookback.js`);
    const fromChunk = findAppBundle(env, 'abcd', `file://${dir}/chunks/start-X.js`);
    const name = `app-abcd-${process.version}-${process.arch}.v8cache`;
    expect(fromEntry).toEqual({
      file: join(dir, 'app.cjs'),
      cache: { path: join('/c/lookback/code', name), stalePrefix: 'app-', within: '/c' },
    });
    expect(fromChunk).toEqual(fromEntry);
    expect(
      findAppBundle({ ...env, LOOKBACK_CODE_CACHE: '0' }, 'abcd', `file://${dir}/x.js`),
    ).toEqual({
      file: join(dir, 'app.cjs'),
      cache: null,
    });
    // From source (no hash defined by the build): the ES modules are imported instead.
    expect(findAppBundle(env, undefined, `file://${dir}/x.js`)).toBeNull();
  });
});
