/**
 * The this-folder view and filter completion in a real terminal (issue 20):
 * the built app in tmux,
 * started in a folder; `.` narrows Recent to the conversations run there or
 * below it and a chip in the header says so, at 80x24, 120x40 and 200x60;
 * `.` again shows every folder; `--here` starts in it; `mo` Tab `cl` Tab
 * completes a model filter from the store. Setup as in
 * tmux.test.ts: a private tmux server, a temp HOME and cache.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fixtures.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { PROMPT, Term, shellEnv, requireTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');

const IN_HERE = ['Checkout totals', 'Api pagination'];
const ELSEWHERE = ['Sibling folder work', 'Blog post draft'];

let dir: string;
let db: string;
let env: NodeJS.ProcessEnv;
const terms: Term[] = [];

describe('this folder (.) in a real terminal (tmux)', () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    dir = tempDir('lookback-e2e-here-');
    mkdirSync(join(dir, 'shop', 'api'), { recursive: true });
    mkdirSync(join(dir, 'cache'));
    const now = Math.floor(Date.now() / 1000);
    db = buildStore(30, (d) => {
      const rows: [string, string][] = [
        [IN_HERE[0]!, join(dir, 'shop')],
        [IN_HERE[1]!, join(dir, 'shop', 'api')],
        [ELSEWHERE[0]!, join(dir, 'shop2')],
        [ELSEWHERE[1]!, '/srv/blog'],
      ];
      rows.forEach(([title, cwd], i) => {
        const model = i === 1 ? 'claude-opus-4' : 'gpt-5-codex';
        const sid = insertSession(d, { started_at: now - 3600 * (i + 1), title, cwd, model });
        insertMessage(d, { session_id: sid, role: 'user', content: `rounding bug in ${title}` });
      });
    });
    env = shellEnv(dir, BIN);
  });

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function app(name: string, flags = ''): Promise<Term> {
    const term = new Term(name, env, join(dir, 'shop'));
    terms.push(term);
    await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
    term.run(`CI=false node "$LB" --db "${db}" ${flags}`);
    await term.waitFor('the app', (s) => s.includes('lookback · ') && s.includes('? help'));
    return term;
  }

  const has = (s: string, titles: string[]): boolean => titles.every((t) => s.includes(t));
  const none = (s: string, titles: string[]): boolean => titles.every((t) => !s.includes(t));

  it('`.` narrows to this folder and below with a chip in the header, at 80x24, 120x40, 200x60', async () => {
    const term = await app('dot');
    await term.waitFor('every folder', (s) => has(s, [...IN_HERE, ...ELSEWHERE]));
    term.type('.');
    const narrowed = await term.waitFor(
      'this folder',
      (s) => has(s, IN_HERE) && none(s, ELSEWHERE),
    );
    expect(narrowed.split('\n')[0]).toContain('here ~/shop');
    for (const [cols, rows] of [
      [80, 24],
      [120, 40],
      [200, 60],
    ] as const) {
      term.resize(cols, rows);
      const s = await term.waitFor(`${cols}x${rows}`, (x) => {
        const lines = x.split('\n');
        return lines.length >= rows && lines[0]!.includes('here ~/shop');
      });
      expect(none(s, ELSEWHERE), s).toBe(true);
      expect(s).toContain('this folder');
    }
    term.type('.');
    const back = await term.waitFor('every folder again', (s) =>
      has(s, [...IN_HERE, ...ELSEWHERE]),
    );
    expect(back.split('\n')[0]).not.toContain('here ~/shop');
  });

  it('--here starts in it', async () => {
    const term = await app('flag', '--here');
    const s = await term.waitFor('this folder', (x) => has(x, IN_HERE));
    expect(none(s, ELSEWHERE)).toBe(true);
    expect(s.split('\n')[0]).toContain('here ~/shop');
  });

  it('completion: mo⇥ then cl⇥ is model:claude-opus-4, a chip that filters the list', async () => {
    const term = await app('complete');
    await term.waitFor('every folder', (x) => has(x, [...IN_HERE, ...ELSEWHERE]));
    term.type('/mo');
    await term.waitFor('the key offered', (x) => (x.split('\n')[1] ?? '').includes('⇥ model:'));
    term.key('Tab');
    await term.waitFor('the models', (x) =>
      (x.split('\n')[1] ?? '').includes('gpt-5-codex · claude-opus-4'),
    );
    term.type('cl');
    await term.waitFor('one model', (x) => (x.split('\n')[1] ?? '').includes('⇥ claude-opus-4'));
    term.key('Tab');
    const s = await term.waitFor(
      'filtered',
      (x) => x.includes('model:claude-opus-4') && !x.includes(IN_HERE[0]!),
    );
    expect(s).toContain(IN_HERE[1]);
  });
});
