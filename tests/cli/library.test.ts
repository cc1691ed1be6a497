/**
 * The library (package.json "exports" → dist/lib.js): the same four
 * operations as the command line, giving exactly the JSON it prints.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURE_DIR, fixtureCopy, sha256, tempDir } from '../helpers/fixtures.js';
import { lookback } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
type Lib = typeof import('../../src/lib.js');
let lib: Lib;
let db: string;

beforeAll(async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: { '.': { import: string; types: string } };
  };
  const entry = join(ROOT, pkg.exports['.'].import);
  expect(existsSync(join(ROOT, pkg.exports['.'].types))).toBe(true);
  lib = (await import(pathToFileURL(entry).href)) as Lib;
  db = fixtureCopy(30);
});

/** What the CLI prints for `args --json`, parsed. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): unknown {
  const r = lookback([...args, '--json'], env);
  expect(r.code).toBe(0);
  return r.json();
}

/** Same object, same key order. */
function same(a: unknown, b: unknown): void {
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
}

describe('openStore({ path })', () => {
  it('recent, search, scroll and read give exactly the CLI’s JSON', () => {
    const hash = sha256(db);
    const lb = lib.openStore({ path: db });
    try {
      same(lb.recent({ limit: 7 }), cli(['recent', '--db', db, '--limit', '7']));
      same(lb.recent({ all: true }), cli(['recent', '--db', db, '--all']));
      const found = lb.search('pipeline', {
        limit: 3,
        sort: 'newest',
        roles: ['user', 'assistant'],
      });
      same(
        found,
        cli([
          'search',
          'pipeline',
          '--db',
          db,
          '--limit',
          '3',
          '--sort',
          'newest',
          '--roles',
          'user,assistant',
        ]),
      );
      const first = (found.results as { session_id: string; match_message_id: number }[])[0]!;
      expect(first.session_id).toMatch(/^\d{8}_\d{6}_/);
      same(
        lb.scroll(first.session_id, first.match_message_id, { window: 3 }),
        cli([
          'scroll',
          first.session_id,
          String(first.match_message_id),
          '--db',
          db,
          '--window',
          '3',
        ]),
      );
      same(lb.read(first.session_id), cli(['read', first.session_id, '--db', db]));
      same(
        lb.read(first.session_id.slice(0, 13)),
        cli(['read', first.session_id.slice(0, 13), '--db', db]),
      );
    } finally {
      lb.close();
    }
    expect(sha256(db)).toBe(hash);
  });

  it('throws a LookbackError with the CLI’s message', () => {
    const lb = lib.openStore({ path: db });
    try {
      expect(() => lb.read('no_such_session')).toThrow(lib.LookbackError);
      expect(() => lb.read('no_such_session')).toThrow('session_id not found: no_such_session');
    } finally {
      lb.close();
    }
    expect(() => lib.openStore({ path: join(tempDir(), 'none.db') })).toThrow(/^no store at /);
  });
});

describe('openStore({ profile }) and ({ allProfiles })', () => {
  it('match lookback --profile and --all-profiles', () => {
    const home = tempDir();
    mkdirSync(join(home, '.hermes', 'profiles', 'work'), { recursive: true });
    copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), join(home, '.hermes', 'state.db'));
    copyFileSync(
      join(FIXTURE_DIR, 'hermes-v16.db'),
      join(home, '.hermes', 'profiles', 'work', 'state.db'),
    );
    const ctx = { home, env: {} };
    const env = { HOME: home };
    const work = lib.openStore({ profile: 'work' }, ctx);
    same(work.recent({ limit: 4 }), cli(['recent', '--profile', 'work', '--limit', '4'], env));
    work.close();
    const all = lib.openStore({ allProfiles: true }, ctx);
    same(all.recent({ limit: 9 }), cli(['recent', '--all-profiles', '--limit', '9'], env));
    same(
      all.search('the', { limit: 5 }),
      cli(['search', 'the', '--all-profiles', '--limit', '5'], env),
    );
    all.close();
  });
});
