/**
 * Journeys of a daily user, round two (issue 20): incremental find, PgUp to
 * the first message, the status after a pasted link, resizing with a
 * conversation open, and what else a first day trips on. Stores built with
 * the agent's schema, real keys, the text on screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { focusedMessage } from '../../src/app/geometry/window.js';
import { clearLayoutCache } from '../../src/app/geometry/lineLayout.js';
import { helpSections } from '../../src/app/input/hints.js';
import { KEY, startHarness, type Harness } from './harness.js';

const NOW = 1_790_000_000;

let current: Harness | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
  // Each test's store reuses the same session and message ids: no layout carries over.
  clearLayoutCache();
});

const clock = (): number => NOW * 1000;
const focus = (): number | undefined => focusedMessage(current!.state().view!.win)?.id;

/** One conversation of `n` messages; `say(i)` is message i's text. */
function oneConversation(title: string, n: number, say: (i: number) => string): string {
  return buildStore(30, (db) => {
    const sid = insertSession(db, { started_at: NOW - 3600, title });
    for (let i = 0; i < n; i++)
      insertMessage(db, {
        session_id: sid,
        role: i % 2 ? 'assistant' : 'user',
        content: say(i),
      });
  });
}

/** The app on `path`, its first conversation opened from Recent (at its latest messages). */
async function openFirst(
  path: string,
  title: string,
  size = { cols: 120, rows: 40 },
): Promise<Harness> {
  const h = await startHarness(path, size, { now: clock });
  current = h;
  await h.waitFor(() => h.frame().includes(title), 'Recent');
  await h.press(KEY.enter);
  await h.waitFor(() => h.state().view !== null && h.state().pane === 'messages', 'opened');
  return h;
}

/** The id of the message whose text is `text`. */
function idOf(text: string): number {
  return current!.store.db
    .prepare('SELECT id FROM messages WHERE content = ?')
    .pluck()
    .get(text) as number;
}

describe('find in the conversation, as you type', () => {
  it('moves to the first match after each key; Esc puts the view back; Enter keeps it', async () => {
    const path = oneConversation('Walrus notes', 80, (i) =>
      i === 10 ? 'the walrus surfaced' : i === 12 ? 'a walnut tree' : `plain line ${i}`,
    );
    const h = await openFirst(path, 'Walrus notes');
    const start = focus();
    const top = h.state().view!.win.top;
    expect(start).toBe(idOf('plain line 79'));
    await h.press('/');
    await h.type('wal');
    // Without Enter the view is already on the first match (wrapped past the end: it was at the tail).
    expect(focus()).toBe(idOf('the walrus surfaced'));
    expect(h.frame()).toContain('the walrus surfaced');
    expect(h.frame()).toContain('“wal” 1/2');
    expect(h.frame()).toContain('find in conversation: wal');
    await h.type('n');
    expect(focus()).toBe(idOf('a walnut tree'));
    expect(h.frame()).toContain('“waln” 1/1');
    // No match: the view goes back where it was, and says so.
    await h.type('q');
    expect(focus()).toBe(start);
    expect(h.frame()).toContain('“walnq” is not in this conversation');
    await h.press(KEY.backspace);
    expect(focus()).toBe(idOf('a walnut tree'));
    // Esc: back exactly where the reader was, no find left on.
    await h.press(KEY.esc);
    expect(h.state().findLine).toBeNull();
    expect(focus()).toBe(start);
    expect(h.state().view!.win.top).toBe(top);
    expect(h.state().view!.find).toBeNull();
    expect(h.frame()).toContain('find cancelled');
    expect(h.frame()).toContain('plain line 79');
    // Enter keeps where the find went, and n walks on from there.
    await h.press('/');
    await h.type('walrus');
    await h.press(KEY.enter);
    expect(h.state().findLine).toBeNull();
    expect(focus()).toBe(idOf('the walrus surfaced'));
    expect(h.state().view!.find?.hits).toEqual([idOf('the walrus surfaced')]);
    expect(h.frame()).toContain('the walrus surfaced');
  });
});

describe('PgUp in a long conversation', () => {
  it('reaches the first message at the top, as PgDn reaches the last', async () => {
    const path = oneConversation('Long haul', 500, (i) =>
      i % 7 === 0 ? `message ${i}\n\nwith a second paragraph\nand a third line` : `message ${i}`,
    );
    const h = await openFirst(path, 'Long haul');
    const first = idOf('message 0\n\nwith a second paragraph\nand a third line');
    let last: number | undefined;
    for (let i = 0; i < 400; i++) {
      await h.press(KEY.pageUp);
      const now = focus();
      if (now === first || (now === last && h.state().view!.win.top === 0)) break;
      last = now;
    }
    expect(h.state().view!.win.atStart).toBe(true);
    expect(h.state().view!.win.top).toBe(0);
    expect(focus()).toBe(first);
    expect(h.frame()).toMatch(/message 0(?!\d)/);
    // And back down to the end with PgDn.
    for (let i = 0; i < 400 && focus() !== idOf('message 499'); i++) await h.press(KEY.pageDown);
    expect(focus()).toBe(idOf('message 499'));
    expect(h.frame()).toContain('message 499');
  });
});

describe('a pasted link or id', () => {
  it('opens the conversation and says what it opened; Enter after it keeps that, never "nothing to expand"', async () => {
    const path = buildStore(30, (db) => {
      for (const t of ['Otter budget', 'Heron plan']) {
        const sid = insertSession(db, { started_at: NOW - 3600, title: t });
        for (let i = 0; i < 6; i++)
          insertMessage(db, {
            session_id: sid,
            role: i % 2 ? 'assistant' : 'user',
            content: `${t} ${i}`,
          });
      }
    });
    const h = await startHarness(path, { cols: 120, rows: 40 }, { now: clock });
    current = h;
    await h.waitFor(() => h.frame().includes('Heron plan'), 'Recent');
    const sid = h.store.db
      .prepare("SELECT id FROM sessions WHERE title = 'Otter budget'")
      .pluck()
      .get() as string;
    const third = idOf('Otter budget 2');
    const cases: [string, RegExp, number][] = [
      [
        `@session:default/${sid}`,
        /opened Otter budget \(latest messages\)/,
        idOf('Otter budget 5'),
      ],
      [sid, /opened Otter budget \(latest messages\)/, idOf('Otter budget 5')],
      [
        `session_search(session_id="${sid}", around_message_id=${third})`,
        new RegExp(`opened Otter budget at message ${third}`),
        third,
      ],
    ];
    for (const [pasted, said, at] of cases) {
      await h.press(KEY.esc, KEY.esc, KEY.esc);
      await h.press(pasted);
      await h.waitFor(() => h.state().pane === 'messages', `opened by ${pasted}`);
      expect(focus()).toBe(at);
      expect(h.frame()).toMatch(said);
      // Enter as a shell habit after the paste: the status still says what opened.
      await h.press(KEY.enter);
      expect(h.frame()).toMatch(said);
      expect(h.frame()).not.toContain('nothing to expand');
    }
    // e, asked outright, still says there is nothing to expand.
    await h.press('e');
    expect(h.frame()).toContain('nothing to expand in this message');
  });
});

describe('resizing with a conversation open', () => {
  it('keeps the focused message whole on screen at 120x40, 100x30 and 80x24', async () => {
    // Messages of six lines: at 40 rows a focus near the bottom, at 24 its body would fall off.
    const body = (i: number): string =>
      [
        `turn ${i} opens`,
        'line two',
        'line three',
        'line four',
        'line five',
        `turn ${i} closes`,
      ].join('\n');
    const path = oneConversation('Resize drill', 60, body);
    const h = await openFirst(path, 'Resize drill');
    // From the first messages, four messages down: the focus sits low in the 40-row pane.
    await h.press('g');
    for (let i = 0; i < 4; i++) await h.press('J');
    for (const size of [
      { cols: 100, rows: 30 },
      { cols: 80, rows: 24 },
    ]) {
      const at = focusedMessage(h.state().view!.win)!;
      const n = String(at.content).split('\n')[0]!.replace(' opens', '');
      await h.resize(size);
      expect(h.state().size).toEqual(size);
      expect(focus()).toBe(at.id);
      const frame = h.frame();
      expect(frame, `${n} at ${size.cols}x${size.rows}`).toContain(`${n} opens`);
      expect(frame, `${n} at ${size.cols}x${size.rows}`).toContain(`${n} closes`);
    }
  });
});

describe('marks', () => {
  it('copy in conversation and time order, not the order they were marked', async () => {
    const path = buildStore(30, (db) => {
      for (const [t, at] of [
        ['Older alpaca', NOW - 7200],
        ['Newer bison', NOW - 3600],
      ] as const) {
        const sid = insertSession(db, { started_at: at, title: t });
        for (let i = 0; i < 4; i++)
          insertMessage(db, {
            session_id: sid,
            role: i % 2 ? 'assistant' : 'user',
            content: `${t} ${i}`,
            timestamp: at + i * 60,
          });
      }
    });
    const h = await startHarness(path, { cols: 120, rows: 40 }, { now: clock });
    current = h;
    await h.waitFor(() => h.frame().includes('Older alpaca'), 'Recent');
    // Newer bison is first in Recent: mark its last message, then its second.
    await h.press(KEY.enter);
    await h.waitFor(() => h.state().pane === 'messages', 'bison');
    await h.press('m', 'K', 'K', 'm', KEY.esc, 'j', KEY.enter);
    await h.waitFor(() => h.state().view?.title === 'Older alpaca', 'alpaca');
    await h.press('m', 'K', 'K', 'K', 'm');
    expect(h.state().marks).toHaveLength(4);
    await h.press('y');
    await h.waitFor(() => h.copied.length === 1, 'the copy');
    const order = [...h.copied[0]!.matchAll(/around_message_id=(\d+)/g)].map((m) => Number(m[1]));
    const want = ['Older alpaca 0', 'Older alpaca 3', 'Newer bison 1', 'Newer bison 3'].map(idOf);
    // Marked as bison 3, bison 1, alpaca 3, alpaca 0.
    expect(h.state().marks.map((m) => m.messageId)).toEqual([want[3], want[2], want[1], want[0]]);
    expect(order).toEqual(want);
  });
});

describe('Ctrl-R searches the query history', () => {
  it('incrementally, Ctrl-R again for older, Enter takes the entry, Esc cancels', async () => {
    const path = buildStore(30, (db) => {
      for (const t of ['Pelican deploy', 'Pelican billing', 'Gannet notes']) {
        const sid = insertSession(db, { started_at: NOW - 3600, title: t });
        insertMessage(db, { session_id: sid, role: 'user', content: `${t} talk` });
      }
    });
    const entries = ['pelican billing', 'gannet', 'pelican deploy', 'unrelated words'];
    const h = await startHarness(
      path,
      { cols: 120, rows: 40 },
      {
        now: clock,
        history: { load: () => entries, save: () => null },
      },
    );
    current = h;
    await h.waitFor(() => h.frame().includes('Gannet notes'), 'Recent');
    const CTRL_R = '\x12';
    await h.press('/');
    await h.type('draft');
    await h.press(CTRL_R);
    expect(h.frame()).toContain('history (Ctrl-R):');
    await h.type('peli');
    // The newest entry with "peli", shown and searched as you type.
    expect(h.state().search.text).toBe('pelican deploy');
    expect(h.frame()).toContain('→ pelican deploy');
    await h.waitFor(() => h.state().results.forText === 'pelican deploy', 'its results');
    await h.waitFor(() => h.frame().includes('Pelican deploy'), 'its result row');
    // Ctrl-R again: the older one.
    await h.press(CTRL_R);
    expect(h.state().search.text).toBe('pelican billing');
    expect(h.frame()).toContain('→ pelican billing');
    await h.press(CTRL_R);
    expect(h.state().search.text).toBe('pelican billing');
    expect(h.frame()).toContain('no older query has “peli”');
    // Esc cancels: the line as it was.
    await h.press(KEY.esc);
    expect(h.state().historyFind).toBeNull();
    expect(h.state().search.text).toBe('draft');
    expect(h.state().typing).toBe(true);
    // Enter takes the entry: the line holds it, typing goes on.
    await h.press(CTRL_R);
    await h.type('gan');
    await h.press(KEY.enter);
    expect(h.state().historyFind).toBeNull();
    expect(h.state().search.text).toBe('gannet');
    expect(h.frame()).toContain('/ gannet');
    await h.waitFor(() => h.frame().includes('Gannet notes'), 'gannet results');
    // The help lists the key.
    await h.press(KEY.esc, '?');
    expect(h.frame()).toMatch(/Ctrl-R +Search earlier queries/);
  });
});

describe('long code lines, as less -S', () => {
  it('S cuts code blocks instead of wrapping, ←/→ scroll them, ‹ › say there is more', async () => {
    const long = `const start = 1; ${'x'.repeat(40)} ${'y'.repeat(60)} ${'z'.repeat(40)} END_OF_LINE;`;
    const path = oneConversation('Code reading', 4, (i) =>
      i === 3 ? `Here:\n\n\`\`\`ts\n${long}\nshort();\n\`\`\`\n` : `plain line ${i}`,
    );
    const h = await openFirst(path, 'Code reading');
    const codeRows = (): string[] =>
      h
        .frame()
        .split('\n')
        .filter(
          (l) => l.includes('const start') || l.includes('xxxx') || l.includes('END_OF_LINE'),
        );
    // Wrapped at first: the line runs over several rows, its end shown.
    expect(codeRows().length, h.frame()).toBeGreaterThan(1);
    expect(h.frame()).toContain('END_OF_LINE');
    await h.press('S');
    expect(h.frame()).toContain('code blocks cut long lines');
    // One row, cut, with › at its right end; the end is off to the right.
    expect(codeRows()).toHaveLength(1);
    expect(codeRows()[0]).toMatch(/const start = 1; x+›/);
    expect(h.frame()).not.toContain('END_OF_LINE');
    expect(h.frame()).toContain('short();');
    // → scrolls right until the end shows; ‹ marks what is off to the left.
    for (let i = 0; i < 40 && !h.frame().includes('END_OF_LINE'); i++) await h.press(KEY.right);
    expect(h.frame()).toContain('END_OF_LINE;');
    expect(codeRows()[0]).toMatch(/‹z*\s?z+ END_OF_LINE;/);
    expect(h.frame()).not.toContain('const start');
    // ← back to the start.
    for (let i = 0; i < 40 && !h.frame().includes('const start'); i++) await h.press(KEY.left);
    expect(codeRows()[0]).toMatch(/const start = 1; x+›/);
    expect(h.state().view!.codeShift).toBe(0);
    // S again: wrapped.
    await h.press('S');
    expect(h.state().view!.codeShift).toBeNull();
    expect(h.frame()).toContain('END_OF_LINE');
    // The help lists the key (the overlay is generated from these rows).
    const rows = helpSections().flatMap((x) => x.rows);
    expect(rows).toContainEqual({
      keys: 'S',
      description: expect.stringContaining('as less -S') as string,
    });
  });
});
