/**
 * `--here` (issue 20): recent, search and list over the conversations run in
 * the current folder or below it, never a sibling folder that only shares its
 * start; the same as `--cwd "$PWD/"`. The built binary, run in a real folder,
 * over a store with the agent's schema.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';

let here: string;
let db: string;

beforeAll(() => {
  here = join(realpathSync(tempDir()), 'shop');
  mkdirSync(join(here, 'api'), { recursive: true });
  db = buildStore(30, (d) => {
    const rows: [string, string | null][] = [
      ['Checkout totals', here],
      ['Api pagination', join(here, 'api')],
      ['Sibling folder work', `${here}2`],
      ['Elsewhere', '/srv/elsewhere'],
      ['No folder', null],
    ];
    rows.forEach(([title, cwd], i) => {
      const sid = insertSession(d, { started_at: 1_790_000_000 - 3600 * (i + 1), title, cwd });
      insertMessage(d, { session_id: sid, role: 'user', content: `rounding bug in ${title}` });
    });
  });
});

function run(args: string[], cwd = here): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: '/nonexistent-home',
      HERMES_HOME: '',
      XDG_CACHE_HOME: '/nonexistent-cache',
    },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const titles = (out: string): string[] =>
  ((JSON.parse(out) as { results: { title: string }[] }).results ?? []).map((r) => r.title).sort();

describe('--here', () => {
  it('recent, search and list: this folder and below, not a sibling sharing its start', () => {
    const want = ['Api pagination', 'Checkout totals'];
    for (const args of [
      ['recent', '--db', db, '--here', '--json'],
      ['search', 'rounding', '--db', db, '--here', '--json'],
    ]) {
      const r = run(args);
      expect(r.code, r.err).toBe(0);
      expect(titles(r.out)).toEqual(want);
    }
    const list = run(['list', '--db', db, '--here', '--json']);
    expect(list.code, list.err).toBe(0);
    expect(titles(list.out)).toEqual(want);
    // From the folder below, only that one.
    const below = run(['recent', '--db', db, '--here', '--json'], join(here, 'api'));
    expect(titles(below.out)).toEqual(['Api pagination']);
    // The same as --cwd with a trailing slash; a plain --cwd is still a path prefix.
    expect(titles(run(['recent', '--db', db, '--cwd', `${here}/`, '--json']).out)).toEqual(want);
    expect(titles(run(['recent', '--db', db, '--cwd', here, '--json']).out)).toEqual(
      [...want, 'Sibling folder work'].sort(),
    );
  });

  it('is refused in one line with --cwd, and on a command that lists nothing', () => {
    const both = run(['recent', '--db', db, '--here', '--cwd', '/srv', '--json']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.out)).toMatchObject({
      success: false,
      error: '--here and --cwd both name a folder; give one',
    });
    const read = run(['read', 'x', '--db', db, '--here']);
    expect(read.code).toBe(2);
    expect(read.err.split('\n')[0]).toBe(
      'lookback: --here is for recent, search, list and the app, not read',
    );
  });

  it('has its line in the subcommand help', () => {
    const help = run(['recent', '--help']);
    expect(help.out).toMatch(/--here\s+run in this folder or below it/);
  });
});
