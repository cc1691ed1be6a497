/**
 * What a `lookback search --json` process does before its answer (issue 20,
 * start-up): better-sqlite3's JavaScript comes from the command line's bundle
 * (scripts/sqliteBundle.mjs), so Node resolves and compiles none of its files
 * and never runs `bindings`' search; only the native addon is loaded from the
 * package. The answer goes to fd 1 without building `process.stdout` (src/cli/out.ts),
 * and `process.stderr` is not built to learn it is no terminal. Checked in the
 * built executable with a preloaded module that records every module Node loads
 * and whether `process.stdout` / `process.stderr` were read.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchSqliteSource } from '../../scripts/sqliteBundle.mjs';
import { makeStore } from '../app/harness.js';
import { codexFiles } from '../agents/samples.js';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';

const WATCH = `
const Module = require('node:module');
const load = Module._load;
const loaded = [];
Module._load = function (request, parent) {
  loaded.push(request);
  return load.apply(this, arguments);
};
let stdoutRead = false;
let stderrRead = false;
const d = Object.getOwnPropertyDescriptor(process, 'stdout');
Object.defineProperty(process, 'stdout', {
  configurable: true,
  enumerable: d.enumerable,
  get() { stdoutRead = true; return d.get.call(process); },
});
const e = Object.getOwnPropertyDescriptor(process, 'stderr');
Object.defineProperty(process, 'stderr', {
  configurable: true,
  enumerable: e.enumerable,
  get() { stderrRead = true; return e.get.call(process); },
});
process.on('exit', () => {
  const natives = process.moduleLoadList.filter((m) => /^NativeModule (net|stream|tty)$/.test(m));
  require('node:fs').writeSync(2, '\\nWATCH ' + JSON.stringify({ loaded, stdoutRead, stderrRead, natives }) + '\\n');
});
`;

interface Watch {
  loaded: string[];
  stdoutRead: boolean;
  stderrRead: boolean;
  /** Which of node's net, stream and tty modules were loaded. */
  natives: string[];
}

function watched(args: string[]): {
  code: number | null;
  stdout: string;
  stderr: string;
  watch: Watch;
} {
  const dir = tempDir('lookback-startup-');
  const hook = join(dir, 'watch.cjs');
  writeFileSync(hook, WATCH);
  const r = spawnSync(process.execPath, ['-r', hook, BIN, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: '/nonexistent-home',
      HERMES_HOME: '',
      XDG_CACHE_HOME: dir,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = /\nWATCH (.*)\n/.exec(r.stderr)?.[1];
  if (line === undefined) throw new Error(`no WATCH line: ${r.stderr}`);
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr.replace(/\nWATCH .*\n/, ''),
    watch: JSON.parse(line) as Watch,
  };
}

describe('start-up of a JSON answer', () => {
  it('loads better-sqlite3 from the bundle (only its addon from the package) and writes without process.stdout', () => {
    const db = makeStore(30);
    const r = watched(['search', 'deploy', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout) as { success: boolean; results: unknown[] };
    expect(answer.success).toBe(true);
    expect(answer.results.length).toBeGreaterThan(0);
    const sqlite = r.watch.loaded.filter((m) => /better-sqlite3|bindings/.test(m));
    expect(sqlite).toEqual(['better-sqlite3/build/Release/better_sqlite3.node']);
    expect(r.watch.stdoutRead).toBe(false);
  });

  it('builds no process.stderr (nor net, stream, tty) when standard error is a pipe and nothing is said there', () => {
    const db = makeStore(30);
    const r = watched(['search', 'deploy', '--db', db, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true });
    expect(r.watch.stderrRead).toBe(false);
    expect(r.watch.natives).toEqual([]);
    expect(r.stderr).toBe('');
  });

  it('still draws the indexing bar when standard error is a terminal (a pty), and not on a pipe', () => {
    const home = tempDir('lookback-startup-home-');
    codexFiles(home);
    const env = { ...process.env, HOME: home, HERMES_HOME: '', XDG_CACHE_HOME: join(home, 'c') };
    const cmd = `'${process.execPath}' '${BIN}' search limiter --agent codex`;
    const tty = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', env });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toContain('indexing codex');
    expect(tty.stdout).toMatch(/limiter/i);
    const home2 = tempDir('lookback-startup-home-');
    codexFiles(home2);
    const piped = spawnSync(process.execPath, [BIN, 'search', 'limiter', '--agent', 'codex'], {
      encoding: 'utf8',
      env: { ...env, HOME: home2, XDG_CACHE_HOME: join(home2, 'c') },
    });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toMatch(/limiter/i);
    expect(piped.stderr).not.toContain('indexing');
  });

  it('a text answer and a failed JSON one are written the same way, whole', () => {
    const db = makeStore(30);
    const text = watched(['search', 'deploy', '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/deploy/i);
    expect(text.watch.stdoutRead).toBe(false);
    const failed = watched(['read', 'no-such-session', '--db', db, '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ success: false });
    expect(failed.watch.stdoutRead).toBe(false);
  });

  it('an answer larger than a pipe holds arrives whole', () => {
    const db = makeStore(400);
    const r = watched([
      'search',
      'deploy',
      '--detail',
      'full',
      '--limit',
      '50',
      '--db',
      db,
      '--json',
    ]);
    expect(r.code).toBe(0);
    // A pipe holds 64 KiB: this answer (~150 KB) needs several writes, each waiting for the reader.
    expect(Buffer.byteLength(r.stdout)).toBeGreaterThan(128 * 1024);
    const answer = JSON.parse(r.stdout) as { results: unknown[] };
    expect(answer.results.length).toBe(50);
  });
});

describe('the better-sqlite3 patch (scripts/sqliteBundle.mjs)', () => {
  const source = readFileSync(resolve('node_modules/better-sqlite3/lib/database.js'), 'utf8');
  it('replaces the one bindings() call with the addon by path', () => {
    expect(source).toContain("require('bindings')('better_sqlite3.node')");
    const patched = patchSqliteSource(source);
    expect(patched).toContain('require("better-sqlite3/build/Release/better_sqlite3.node")');
    expect(patched.match(/require\('bindings'\)/g)).toHaveLength(1); // the fallback only
  });
  it('refuses a better-sqlite3 it was not written for instead of skipping silently', () => {
    expect(() => patchSqliteSource(source.replace("require('bindings')", 'load('))).toThrow(
      /not the one scripts\/sqliteBundle\.mjs was written for/,
    );
  });
});
