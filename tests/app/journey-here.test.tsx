/**
 * The this-folder view (issue 20), as Claude Code's /resume has: `.` narrows
 * Recent and Results to the conversations run in the folder lookback started
 * in or below it (never a sibling that only shares its start), a chip in the
 * header says so, `.` again shows every folder; `--here` starts in it.
 * A store with the agent's schema, real keys, the text on screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { clearLayoutCache } from '../../src/app/geometry/lineLayout.js';
import { KEY, startHarness, type Harness } from './harness.js';

const NOW = 1_790_000_000;
const HERE = '/home/ana/shop';

const TITLES = {
  top: 'Checkout totals',
  below: 'Api pagination',
  sibling: 'Sibling folder work',
  other: 'Blog post draft',
  none: 'Folderless chat',
} as const;

let current: Harness | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
  clearLayoutCache();
});

function folders(): string {
  return buildStore(30, (db) => {
    const rows: [string, string | null][] = [
      [TITLES.top, HERE],
      [TITLES.below, `${HERE}/api`],
      [TITLES.sibling, `${HERE}2`],
      [TITLES.other, '/home/ana/blog'],
      [TITLES.none, null],
    ];
    rows.forEach(([title, cwd], i) => {
      const sid = insertSession(db, { started_at: NOW - 3600 * (i + 1), title, cwd });
      insertMessage(db, { session_id: sid, role: 'user', content: `rounding bug in ${title}` });
    });
  });
}

async function start(opts: { here?: string; startHere?: boolean }, size = { cols: 120, rows: 40 }) {
  const h = await startHarness(folders(), size, { now: () => NOW * 1000, ...opts });
  current = h;
  return h;
}

const everyTitle = Object.values(TITLES);
const inHere = [TITLES.top, TITLES.below];

function shown(frame: string): string[] {
  return everyTitle.filter((t) => frame.includes(t));
}

describe('this folder (.)', () => {
  it('`.` narrows Recent to this folder and below, a chip says so, `.` again shows every folder', async () => {
    const h = await start({ here: HERE });
    await h.waitFor(() => shown(h.frame()).length === 5, 'every conversation');
    expect(h.frame().split('\n')[0]).not.toContain(`here ${HERE}`);
    await h.press('.');
    await h.waitFor(() => shown(h.frame()).length === 2, 'this folder only');
    expect(shown(h.frame()).sort()).toEqual([...inHere].sort());
    const header = h.frame().split('\n')[0]!;
    expect(header).toContain(`here ${HERE}`);
    expect(h.frame()).toContain('Recent · 2 · this folder');
    expect(h.state().status?.text).toContain(`conversations run in ${HERE} or below it`);
    await h.press('.');
    await h.waitFor(() => shown(h.frame()).length === 5, 'every folder again');
    expect(h.frame().split('\n')[0]).not.toContain(`here ${HERE}`);
    expect(h.state().status?.text).toBe('every folder');
  });

  it('--here starts in it; a search stays in it; a cwd: chip outside it is refused in one line', async () => {
    const h = await start({ here: HERE, startHere: true });
    await h.waitFor(() => h.state().recent.complete && shown(h.frame()).length > 0, 'Recent');
    expect(shown(h.frame()).sort()).toEqual([...inHere].sort());
    expect(h.frame().split('\n')[0]).toContain(`here ${HERE}`);
    await h.press('/');
    await h.type('rounding');
    await h.waitFor(() => !h.state().results.busy && h.state().results.items.length > 0, 'results');
    expect(
      h
        .state()
        .results.items.map((r) => r.title)
        .sort(),
    ).toEqual([...inHere].sort());
    // A folder inside this one narrows it further.
    await h.type(` cwd:${HERE}/api`);
    await h.waitFor(
      () => !h.state().results.busy && h.state().results.items.length === 1,
      'narrowed',
    );
    expect(h.state().results.items[0]!.title).toBe(TITLES.below);
    // One outside it is refused, not silently empty.
    for (let i = 0; i < `cwd:${HERE}/api`.length; i++) await h.press(KEY.backspace);
    await h.type('cwd:/home/ana/blog');
    await h.waitFor(() => /outside this folder/.test(h.state().status?.text ?? ''), 'refusal');
    expect(h.state().status?.text).toBe(
      `cwd:/home/ana/blog is outside this folder (${HERE}): . shows every folder`,
    );
  });

  it('an empty this-folder view says why and the way out; at 80x24 the chip is still in the header', async () => {
    const h = await start({ here: '/home/ana/nothing-ran-here' }, { cols: 80, rows: 24 });
    await h.waitFor(() => shown(h.frame()).length === 5, 'every conversation');
    await h.press('.');
    await h.waitFor(() => shown(h.frame()).length === 0, 'nothing here');
    expect(h.frame()).toContain('none run in this folder or below: . shows every folder');
    // The status line names the view, not "type to search".
    expect(h.state().status?.text).toContain('this folder: conversations run in');
    expect(h.frame().split('\n')[0]).toContain('here …');
  });

  it('without a folder to narrow to, `.` says so and lists every folder', async () => {
    const h = await start({});
    await h.waitFor(() => shown(h.frame()).length === 5, 'every conversation');
    await h.press('.');
    await h.waitFor(() => /no folder to narrow to/.test(h.state().status?.text ?? ''), 'said');
    expect(shown(h.frame()).length).toBe(5);
  });
});
