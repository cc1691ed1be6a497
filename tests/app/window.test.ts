import { WINDOW_MAX_MESSAGES } from '../../src/budgets.js';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/store/types.js';
import {
  adjacentHit,
  appendItems,
  appendLive,
  edgeNeed,
  geometry,
  itemAtLine,
  messageCount,
  moveFocus,
  openWindow,
  pageMove,
  position,
  prependItems,
  relayout,
  visibleSlice,
  type Measure,
  type MsgWindow,
  type WinItem,
} from '../../src/app/geometry/window.js';

function msg(id: number, session = 's1'): Message {
  return {
    id,
    session_id: session,
    role: id % 2 ? 'user' : 'assistant',
    content: `m${id}`,
    timestamp: id,
    tool_name: null,
    tool_calls: null,
    tool_call_id: null,
    reasoning: null,
  };
}

function items(from: number, to: number, seg = 0): WinItem[] {
  const out: WinItem[] = [];
  for (let id = from; id <= to; id++) out.push({ kind: 'message', msg: msg(id), seg });
  return out;
}

/** Heights 1..3 by id, dividers 1: uneven, like real messages. */
const measure: Measure = (it) => (it.kind === 'divider' ? 1 : (it.msg.id % 3) + 1);
const tall: Measure = (it) => (it.kind === 'divider' ? 1 : it.msg.id === 50 ? 30 : 2);

function win(list: WinItem[], extra: Partial<MsgWindow> = {}): Omit<MsgWindow, 'top' | 'focus'> {
  return {
    chain: ['s1'],
    items: list,
    atStart: false,
    atEnd: false,
    anchorId: null,
    before: 1000,
    total: 5000,
    follow: false,
    ...extra,
  };
}

/** Screen row of the focused message's first line. */
function focusRow(w: MsgWindow, m: Measure): number {
  return geometry(w.items, m).offsets[w.focus]! - w.top;
}

describe('message window arithmetic', () => {
  it('finds the item at a line', () => {
    const g = geometry(items(1, 5), measure);
    expect(g.heights).toEqual([2, 3, 1, 2, 3]);
    expect(itemAtLine(g, 0)).toBe(0);
    expect(itemAtLine(g, 2)).toBe(1);
    expect(itemAtLine(g, 5)).toBe(2);
    expect(itemAtLine(g, 100)).toBe(4);
  });

  it('opens with the anchor a third of the way down', () => {
    const list = items(1, 100);
    const w = openWindow(win(list, { anchorId: 50 }), 49, measure, 30);
    const g = geometry(list, measure);
    expect(w.focus).toBe(49);
    expect(g.offsets[49]! - w.top).toBe(10);
  });

  it('opens at the bottom for a tail and at 0 for a head', () => {
    const list = items(1, 100);
    const g = geometry(list, measure);
    expect(openWindow(win(list), 99, measure, 30, 'bottom').top).toBe(g.total - 30);
    expect(openWindow(win(list), 0, measure, 30, 'top').top).toBe(0);
  });

  it('moves message by message, scrolling only as needed', () => {
    let w = openWindow(win(items(1, 100)), 0, measure, 10, 'top');
    w = moveFocus(w, measure, 10, 1);
    expect(w.focus).toBe(1);
    expect(w.top).toBe(0);
    for (let i = 0; i < 5; i++) w = moveFocus(w, measure, 10, 1);
    expect(w.focus).toBe(6);
    const g = geometry(w.items, measure);
    // The focused message is fully visible.
    expect(g.offsets[6]! + g.heights[6]!).toBeLessThanOrEqual(w.top + 10);
    expect(g.offsets[6]!).toBeGreaterThanOrEqual(w.top);
    w = moveFocus(w, measure, 10, -1);
    expect(w.focus).toBe(5);
  });

  it('scrolls line by line through a message taller than the viewport', () => {
    let w = openWindow(win(items(40, 60)), 9, tall, 10, 'top'); // item 10 is id 50 (30 lines)
    w = moveFocus({ ...w, focus: 9, top: 18 }, tall, 10, 1);
    expect(w.items[w.focus]).toMatchObject({ msg: { id: 50 } });
    const start = geometry(w.items, tall).offsets[w.focus]!;
    expect(w.top).toBe(start);
    const before = w.top;
    w = moveFocus(w, tall, 10, 1);
    expect(w.items[w.focus]).toMatchObject({ msg: { id: 50 } });
    expect(w.top).toBe(before + 1);
  });

  it('pages by a screen and keeps the focus in view', () => {
    let w = openWindow(win(items(1, 100)), 0, measure, 10, 'top');
    w = pageMove(w, measure, 10, 1);
    expect(w.top).toBe(9);
    const g = geometry(w.items, measure);
    expect(g.offsets[w.focus]! + g.heights[w.focus]!).toBeGreaterThan(w.top);
    expect(g.offsets[w.focus]!).toBeLessThan(w.top + 10);
  });

  it('asks for more when the viewport nears a loaded edge, not when the chain edge is loaded', () => {
    const w = openWindow(win(items(1, 100)), 0, measure, 10, 'top');
    expect(edgeNeed(w, measure, 10)).toBe('before');
    expect(edgeNeed({ ...w, atStart: true }, measure, 10)).toBeNull();
    const bottom = openWindow(win(items(1, 100)), 99, measure, 10, 'bottom');
    expect(edgeNeed(bottom, measure, 10)).toBe('after');
    expect(edgeNeed({ ...bottom, atEnd: true }, measure, 10)).toBeNull();
  });

  it('prepends without moving anything on screen', () => {
    const w = openWindow(win(items(101, 200)), 5, measure, 20, 'top');
    const row = focusRow(w, measure);
    const next = prependItems(w, items(1, 100), false, measure, 20);
    expect(next.items[next.focus]).toMatchObject({ msg: { id: 106 } });
    expect(focusRow(next, measure)).toBe(row);
    expect(next.before).toBe(900);
  });

  it('appends and trims the far side to the budget, keeping the screen still', () => {
    let w = openWindow(win(items(1, 250)), 240, measure, 20, 'anchor');
    const row = focusRow(w, measure);
    w = appendItems(w, items(251, 350), false, measure, 20);
    expect(messageCount(w.items)).toBeLessThanOrEqual(WINDOW_MAX_MESSAGES);
    expect(w.items[w.focus]).toMatchObject({ msg: { id: 241 } });
    expect(focusRow(w, measure)).toBe(row);
    expect(w.atStart).toBe(false);
    // Messages trimmed from the front count as "before".
    expect(w.before).toBe(1000 + (350 - WINDOW_MAX_MESSAGES));
    expect(position(w)?.index).toBe(1000 + 241);
  });

  it('trims the newest side when loading older messages', () => {
    let w = openWindow(win(items(101, 350), { atEnd: true }), 5, measure, 20, 'top');
    w = prependItems(w, items(1, 100), false, measure, 20);
    expect(messageCount(w.items)).toBe(WINDOW_MAX_MESSAGES);
    expect(w.atEnd).toBe(false);
    const last = w.items[w.items.length - 1]!;
    expect(last.kind === 'message' && last.msg.id).toBe(300);
  });

  it('follows a live tail only when the view was at the bottom', () => {
    const w = openWindow(
      win(items(1, 50), { atEnd: true, follow: true, total: 50, before: 0, atStart: true }),
      49,
      measure,
      10,
      'bottom',
    );
    const followed = appendLive(w, items(51, 53), measure, 10);
    const g = geometry(followed.items, measure);
    expect(followed.top).toBe(g.total - 10);
    expect(followed.items[followed.focus]).toMatchObject({ msg: { id: 53 } });
    expect(followed.total).toBe(53);
    const scrolledUp = { ...w, top: 0, focus: 0 };
    const still = appendLive(scrolledUp, items(51, 53), measure, 10);
    expect(still.top).toBe(0);
    expect(still.focus).toBe(0);
  });

  it('keeps the focused row on relayout (reasoning shown, resize)', () => {
    const w = openWindow(win(items(1, 100)), 60, measure, 20);
    const row = focusRow(w, measure);
    const double: Measure = (it) => measure(it) * 2;
    const next = relayout(w, measure, double, 20);
    expect(focusRow(next, double)).toBe(row);
    // A shorter viewport pulls the focus up into view.
    const shorter = relayout(w, measure, measure, 5, 20);
    expect(focusRow(shorter, measure)).toBeLessThan(5);
    // A view showing the end keeps showing it.
    const tail = openWindow(win(items(1, 100), { atEnd: true }), 99, measure, 20, 'bottom');
    const grown = relayout(tail, measure, double, 30, 20);
    expect(grown.top).toBe(geometry(tail.items, double).total - 30);
  });

  it('walks hits in order', () => {
    expect(adjacentHit([10, 20, 30], 20, 1)).toBe(30);
    expect(adjacentHit([10, 20, 30], 20, -1)).toBe(10);
    expect(adjacentHit([10, 20, 30], 30, 1)).toBeNull();
    expect(adjacentHit([10, 20, 30], 15, 1)).toBe(20);
  });

  it('mounts only the visible lines', () => {
    const w = openWindow(win(items(1, 100)), 50, measure, 12);
    const rows = visibleSlice(w, measure, 12);
    expect(rows.reduce((n, r) => n + r.take, 0)).toBe(12);
    expect(rows.length).toBeLessThan(13);
  });
});
