import { WINDOW_MAX_MESSAGES } from '../../src/budgets.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { scrollCall } from '../../src/anchors/format.js';
import { focusedMessage, indexOfMessage, messageCount } from '../../src/app/geometry/window.js';
import { displayWidth } from '../../src/text/width.js';
import { KEY, NARROW, WIDE, makeStore, withHarness, type Harness } from './harness.js';

let path: string;

beforeAll(() => {
  path = makeStore();
});

/** Ids of messages whose header is on screen (`#123` in the message pane). */
function shownIds(frame: string): number[] {
  return [...frame.matchAll(/ · #(\d+)/g)].map((m) => Number(m[1]));
}

async function search(h: Harness, query: string): Promise<void> {
  await h.press('/');
  await h.type(query);
  await h.waitFor(
    () =>
      !h.state().results.busy &&
      h.state().results.forText === query &&
      h.state().results.items.length > 0,
    `results for ${query}`,
  );
}

/** Searches and opens the top hit: the message pane, focused on the hit. */
async function openTopHit(h: Harness, query = 'billing'): Promise<void> {
  await search(h, query);
  await h.press(KEY.enter);
  await h.waitFor(() => h.state().view !== null, 'the opened hit');
}

// Each journey starts its own harness (withHarness): a failure in one cannot leave the
// next one on a screen it did not expect, and `it.only` runs any one of them alone.
const wide = (journey: (h: Harness) => Promise<void>) => () => withHarness(path, WIDE, journey);
const narrow = (journey: (h: Harness) => Promise<void>) => () => withHarness(path, NARROW, journey);

describe('journey: wide terminal (160x48)', () => {
  it(
    'starts on the recent conversations',
    wide(async (h) => {
      const f = h.frame();
      expect(f).toContain('lookback · default');
      expect(f).toMatch(/Recent · \d+/);
      const first = h.state().recent.entries[0]!;
      expect(f).toContain(first.title.slice(0, 10));
      expect(f).toMatch(
        new RegExp(
          `▸ [ ●][ ⚑][ •] ${first.title.slice(0, 10).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ),
      );
      // The frame is one line shorter than the terminal.
      expect(f.split('\n')).toHaveLength(WIDE.rows - 1);
      expect(f).toContain('full-text · relevance · user+assistant');
    }),
  );

  it(
    'searches as you type and highlights the matched terms',
    wide(async (h) => {
      await search(h, 'billing');
      const s = h.state();
      const top = s.results.items[0]!;
      expect(top.snippet.some((seg) => seg.hit && /billing/i.test(seg.text))).toBe(true);
      expect(h.frame()).toMatch(/Results: \d+ sessions/);
      expect(h.frame()).toContain(top.title.slice(0, 12));
      await h.waitFor(() => h.state().results.hitCounts[top.key] !== undefined, 'hit counts');
      expect(h.frame()).toMatch(/\d+ hits?/);
    }),
  );

  it(
    'opens the hit with the anchor about a third of the way down',
    wide(async (h) => {
      await search(h, 'billing');
      const top = h.state().results.items[0]!;
      await h.press(KEY.enter);
      const v = h.state().view!;
      expect(v).not.toBeNull();
      expect(focusedMessage(v.win)?.id).toBe(top.messageId);
      const f = h.frame();
      expect(f).toContain(`▸▶`);
      expect(f).toContain(`#${top.messageId}`);
      expect(f).toMatch(/msg [\d,]+ · hit \d+\/\d+ in session · \d+%/);
    }),
  );

  it(
    'walks hits with n and N, on into the next result',
    wide(async (h) => {
      await openTopHit(h);
      const v = h.state().view!;
      const startKey = v.resultKey;
      const hits = v.hits;
      expect(hits.length).toBeGreaterThan(0);
      for (let i = 0; i < hits.length + 1 && h.state().view!.resultKey === startKey; i++)
        await h.press('n');
      const after = h.state().view!;
      expect(after.resultKey).not.toBe(startKey);
      expect(h.state().results.list.selected).toBe(1);
      expect(after.hits).toContain(focusedMessage(after.win)!.id);
      await h.press('N');
      expect(h.state().view!.resultKey).toBe(startKey);
      expect(h.frame()).toMatch(/hit \d+\/\d+/);
    }),
  );

  it(
    'copies the anchor of the focused message with y',
    wide(async (h) => {
      await openTopHit(h);
      await h.press('j');
      const m = focusedMessage(h.state().view!.win)!;
      await h.press('y');
      await h.waitFor(() => h.copied.length === 1, 'copy');
      expect(h.copied[0]).toBe(
        `session_search(session_id="${m.session_id}", around_message_id=${m.id}, window=5)`,
      );
      // The fake clipboard, like OSC 52, cannot confirm: the status line says so and never "copied".
      await h.waitFor(() => h.frame().includes('sent to the fake clipboard; not'), 'status line');
      expect(h.frame()).toContain(`anchor for message ${m.id.toLocaleString('en-US')}: sent to`);
      expect(h.frame()).not.toContain('copied anchor');
    }),
  );

  it(
    'expands a tool call',
    wide(async (h) => {
      await openTopHit(h);
      // Walk to the nearest loaded message with a tool call.
      const hasCalls = (it: { kind: string; msg?: { tool_calls: unknown } }): boolean =>
        it.kind === 'message' &&
        Array.isArray(it.msg!.tool_calls) &&
        (it.msg!.tool_calls as unknown[]).length > 0;
      const win = h.state().view!.win;
      const target = win.items.findIndex((it, i) => i >= win.focus && hasCalls(it));
      const back = [...win.items.keys()]
        .reverse()
        .find((i) => i < win.focus && hasCalls(win.items[i]!));
      const to = target >= 0 ? target : back!;
      expect(to).toBeGreaterThanOrEqual(0);
      while (h.state().view!.win.focus !== to)
        await h.press(h.state().view!.win.focus < to ? 'j' : 'k');
      const m = focusedMessage(h.state().view!.win)!;
      expect(Array.isArray(m.tool_calls)).toBe(true);
      const calls = m.tool_calls as { function?: { name?: string; arguments?: string } }[];
      const name = calls[0]!.function!.name!;
      expect(h.frame()).toMatch(new RegExp(`⚙ ${name} · \\d+ lines?`));
      const pretty = JSON.stringify(JSON.parse(calls[0]!.function!.arguments!), null, 2).split(
        '\n',
      );
      await h.press('e');
      expect(h.state().view!.expanded.has(m.id)).toBe(true);
      expect(h.frame()).toContain(pretty[1]!.trim().slice(0, 12));
      await h.press('e');
      expect(h.state().view!.expanded.has(m.id)).toBe(false);
    }),
  );

  it(
    'marks messages in two conversations and copies them as one block',
    wide(async (h) => {
      await openTopHit(h);
      const a = focusedMessage(h.state().view!.win)!;
      await h.press('m');
      expect(h.frame()).toContain('★ marked');
      await h.press(KEY.esc);
      expect(h.state().pane).toBe('results');
      await h.press('j', KEY.enter);
      const b = focusedMessage(h.state().view!.win)!;
      expect(b.session_id).not.toBe(a.session_id);
      await h.press('m');
      expect(h.frame()).toContain('2 marks');
      await h.press('y');
      await h.waitFor(() => h.copied.length === 1, 'copy of marks');
      const block = h.copied[0]!;
      expect(block).toContain(scrollCall({ sessionId: a.session_id, messageId: a.id }));
      expect(block).toContain(scrollCall({ sessionId: b.session_id, messageId: b.id }));
      expect(block).toContain('Recall these 2 messages');
      await h.press('M');
      expect(h.state().marks).toHaveLength(0);
    }),
  );

  it(
    'offers every copy form in the copy menu',
    wide(async (h) => {
      await openTopHit(h);
      await h.press('c');
      const f = h.frame();
      for (const label of [
        'link',
        'scroll call',
        'message quoted with citation',
        'visible window as Markdown',
      ])
        expect(f).toContain(label);
      expect(f).toMatch(/visible window as Markdown \([\d,]+ chars\)/);
      await h.press('1');
      await h.waitFor(() => h.copied.length === 1, 'copy of link');
      expect(h.copied[0]).toMatch(/^@session:default\/\S+$/);
    }),
  );

  it(
    'scrolls a long conversation past both loaded edges, re-anchoring',
    wide(async (h) => {
      expect(h.state().pane).toBe('recent');
      const rows = h.state().recent.entries;
      const longest = rows.reduce(
        (best, r, i) => (r.messageCount > rows[best]!.messageCount ? i : best),
        0,
      );
      expect(rows[longest]!.messageCount).toBeGreaterThan(WINDOW_MAX_MESSAGES * 2);
      for (let i = 0; i < longest; i++) await h.press('j');
      await h.press(KEY.enter);
      let v = h.state().view!;
      expect(v.win.atEnd).toBe(true);
      const firstLoaded = (
        v.win.items.find((it) => it.kind === 'message') as { msg: { id: number } }
      ).msg.id;
      // Up, page after page, far past the first slice's top edge.
      for (let i = 0; i < 40; i++) await h.press(KEY.pageUp);
      v = h.state().view!;
      const older = shownIds(h.frame());
      expect(older.length).toBeGreaterThan(0);
      expect(Math.max(...older)).toBeLessThan(firstLoaded);
      expect(messageCount(v.win.items)).toBeLessThanOrEqual(WINDOW_MAX_MESSAGES);
      // g: the conversation's first messages.
      await h.press('g');
      v = h.state().view!;
      expect(v.win.atStart).toBe(true);
      expect(h.frame()).toMatch(/msg [\d,]+ · 1\/[\d,]+ · 0%/);
      const headLast = (
        v.win.items.filter((it) => it.kind === 'message').at(-1) as { msg: { id: number } }
      ).msg.id;
      for (let i = 0; i < 40; i++) await h.press(KEY.pageDown);
      v = h.state().view!;
      const newer = shownIds(h.frame());
      expect(Math.min(...newer)).toBeGreaterThan(headLast);
      expect(messageCount(v.win.items)).toBeLessThanOrEqual(WINDOW_MAX_MESSAGES);
      expect(v.win.atStart).toBe(false);
      // The start bookend shows what lies above the window.
      expect(h.frame()).toMatch(/┈ start ┈ .*earlier message/);
      // G: back to the latest.
      await h.press('G');
      expect(h.state().view!.win.atEnd).toBe(true);
      expect(h.frame()).toMatch(/ · 100%/);
      expect(indexOfMessage(h.state().view!.win.items, h.state().view!.win.items.length)).toBe(-1);
    }),
  );

  it(
    'shows the help with ?, generated from the key map',
    wide(async (h) => {
      await h.press('?');
      const f = h.frame();
      expect(f).toContain('Keys · ? or Esc closes');
      expect(f).toContain('Copy an anchor');
      expect(f).toContain('Next hit');
      await h.press(KEY.esc);
      expect(h.state().overlay).toBeNull();
    }),
  );

  it(
    'quits with q',
    wide(async (h) => {
      await h.press('q');
      expect(h.quit()).toBe(true);
    }),
  );
});

describe('journey: narrow terminal (80x24)', () => {
  it(
    'shows one pane at a time and switches with Enter and Esc',
    narrow(async (h) => {
      let f = h.frame();
      expect(f.split('\n')).toHaveLength(NARROW.rows - 1);
      // Columns, not UTF-16 units: the store holds CJK text, two columns a character.
      for (const line of f.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(NARROW.cols);
      expect(f).toMatch(/Recent · \d+/);
      expect(f).not.toContain('Results');
      await h.press(KEY.enter);
      f = h.frame();
      expect(f).not.toMatch(/Recent · \d+/);
      expect(f).toMatch(/msg [\d,]+ · [\d,]+\/[\d,]+ · 100%/);
      await h.press(KEY.esc);
      expect(h.frame()).toMatch(/Recent · \d+/);
    }),
  );

  it(
    'searches, opens a hit and copies its anchor',
    narrow(async (h) => {
      await search(h, 'billing');
      expect(h.frame()).toMatch(/Results: \d+ sessions/);
      await h.press(KEY.enter);
      const m = focusedMessage(h.state().view!.win)!;
      expect(h.frame()).toContain(`#${m.id}`);
      await h.press('y');
      await h.waitFor(() => h.copied.length === 1, 'copy');
      expect(h.copied[0]).toBe(scrollCall({ sessionId: m.session_id, messageId: m.id }));
    }),
  );

  it(
    'quits with Ctrl-C',
    narrow(async (h) => {
      await h.press('\x03');
      expect(h.quit()).toBe(true);
    }),
  );
});
