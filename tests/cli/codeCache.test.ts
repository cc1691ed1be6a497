/**
 * The built `lookback` (src/bin.ts) loads the command line through V8's code
 * cache, one per kind of run: the first search writes `cli-search-…`, the next
 * compiles from it and prints the same JSON; a failed command writes none.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKind } from '../../src/cli/subcommands.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { makeStore } from '../app/harness.js';

describe('the command line through the code cache', () => {
  it('writes a cache per kind of run and reads it back, with the same answer', () => {
    const db = makeStore(20);
    const cache = tempDir('lookback-cli-cache-');
    const code = join(cache, 'lookback', 'code');
    const env = { XDG_CACHE_HOME: cache };
    const args = ['search', 'deploy', '--json', '--db', db];
    const first = lookback(args, env);
    expect(first.code).toBe(0);
    const files = readdirSync(code);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^cli-search-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.v8cache$/);
    const written = statSync(join(code, files[0]!));
    const second = lookback(args, env);
    expect(second.stdout).toBe(first.stdout);
    expect((second.json().results as unknown[]).length).toBeGreaterThan(0);
    // Used, not refused (a refused one is deleted) nor written again.
    const after = statSync(join(code, files[0]!));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    // A command that failed writes no cache of its kind.
    expect(lookback(['read', 'no-such-session', '--json', '--db', db], env).code).not.toBe(0);
    expect(readdirSync(code).some((f) => f.startsWith('cli-read-'))).toBe(false);
  });

  it('makes no cache directory of its own, and LOOKBACK_CODE_CACHE=0 writes none', () => {
    const db = makeStore(20);
    const parent = tempDir('lookback-cli-cache-');
    const missing = join(parent, 'absent');
    expect(lookback(['recent', '--json', '--db', db], { XDG_CACHE_HOME: missing }).code).toBe(0);
    expect(existsSync(missing)).toBe(false);
    const off = join(parent, 'off');
    mkdirSync(off);
    const r = lookback(['recent', '--json', '--db', db], {
      XDG_CACHE_HOME: off,
      LOOKBACK_CODE_CACHE: '0',
    });
    expect(r.code).toBe(0);
    expect(readdirSync(off)).toEqual([]);
  });

  it('names the kind of run by its subcommand, else the app', () => {
    expect(runKind(['search', 'x', '--json'])).toBe('search');
    expect(runKind(['--db', 'a.db', 'recent'])).toBe('recent');
    expect(runKind(['--demo'])).toBe('app');
    expect(runKind(['--', 'search'])).toBe('app');
    expect(runKind(['mcp', '--demo'])).toBe('mcp');
  });
});
