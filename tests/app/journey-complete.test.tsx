/**
 * Filter completion in the search line (issue 20), as a shell or fzf offers it:
 * `mo` offers `model:`, Tab takes it; `model:` offers the models the store
 * holds (newest first), `model:cl` the one that starts so; values are
 * sanitized; Tab with nothing offered still leaves the line. A store with
 * the agent's schema, real keys, the text on screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { clearLayoutCache } from '../../src/app/geometry/lineLayout.js';
import { KEY, startHarness, type Harness } from './harness.js';

const NOW = 1_790_000_000;

let current: Harness | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
  clearLayoutCache();
});

function store(): string {
  return buildStore(30, (db) => {
    const rows: [string, string, string, string][] = [
      ['Codex refactor', 'gpt-5-codex', 'cli', '/home/ana/api'],
      ['Opus review', 'claude-opus-4', 'telegram', '/home/ana/shop'],
      ['Evil model name', 'evil\x1b[31mred', 'cli', '/home/ana/x'],
    ];
    rows.forEach(([title, model, source, cwd], i) => {
      const sid = insertSession(db, {
        started_at: NOW - 3600 * (i + 1),
        title,
        model,
        source,
        cwd,
      });
      insertMessage(db, { session_id: sid, role: 'user', content: `rounding bug in ${title}` });
    });
  });
}

async function start(): Promise<Harness> {
  const h = await startHarness(store(), { cols: 120, rows: 40 }, { now: () => NOW * 1000 });
  current = h;
  await h.waitFor(() => h.frame().includes('Codex refactor'), 'Recent');
  return h;
}

const searchLine = (h: Harness): string => h.frame().split('\n')[1] ?? '';

describe('filter completion', () => {
  it('a key prefix offers the key, Tab takes it; its values come from the store; Tab takes one', async () => {
    const h = await start();
    await h.press('/');
    await h.type('mo');
    await h.waitFor(() => searchLine(h).includes('⇥ model:'), 'the key offered');
    // The rest of the first choice is drawn after the cursor.
    expect(searchLine(h)).toContain('mo▌del:');
    await h.press(KEY.tab);
    expect(h.state().search.text).toBe('model:');
    expect(h.state().typing).toBe(true);
    // The store's models, newest first.
    await h.waitFor(() => searchLine(h).includes('gpt-5-codex · claude-opus-4'), 'the values');
    await h.type('cl');
    await h.waitFor(() => searchLine(h).includes('⇥ claude-opus-4'), 'narrowed');
    expect(searchLine(h)).not.toContain('gpt-5-codex');
    await h.press(KEY.tab);
    expect(h.state().search.text).toBe('model:claude-opus-4 ');
    // The filter is a chip and filters Recent.
    await h.waitFor(
      () => h.frame().includes('Opus review') && !h.frame().includes('Codex refactor'),
      'filtered',
    );
  });

  it('agent:, source:, role: and dates complete from the registry and the sources', async () => {
    const h = await start();
    await h.press('/');
    await h.type('ag');
    await h.waitFor(() => searchLine(h).includes('⇥ agent:'), 'agent key');
    await h.press(KEY.tab);
    await h.waitFor(() => searchLine(h).includes('⇥ hermes'), 'agent values');
    await h.press(KEY.tab);
    expect(h.state().search.text).toBe('agent:hermes ');
    await h.type('source:te');
    await h.waitFor(() => searchLine(h).includes('⇥ telegram'), 'a source');
    await h.press(KEY.tab);
    await h.type('role:as');
    await h.waitFor(() => searchLine(h).includes('⇥ assistant'), 'a role');
    await h.press(KEY.tab);
    await h.type('after:7');
    await h.waitFor(() => searchLine(h).includes('⇥ 7d'), 'a date');
    await h.press(KEY.tab);
    expect(h.state().search.text).toBe('agent:hermes source:telegram role:assistant after:7d ');
  });

  it('values are sanitized; with nothing offered Tab leaves the line', async () => {
    const h = await start();
    await h.press('/');
    await h.type('model:ev');
    await h.waitFor(() => searchLine(h).includes('⇥ evil'), 'the evil model offered');
    for (const v of h.state().filterValues?.model ?? []) expect(v).not.toMatch(/\x1b/);
    expect(h.frame()).not.toContain('\x1b[31mred');
    await h.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    await h.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    await h.type('rounding');
    expect(searchLine(h)).not.toContain('⇥');
    await h.press(KEY.tab);
    expect(h.state().typing).toBe(false);
  });
});
