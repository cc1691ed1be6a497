/**
 * The anchored message window: a bounded slice of one conversation (a
 * compression chain read as one history), laid out as display lines and
 * scrolled by line. Pure arithmetic over item heights; loading is the data
 * layer's job, deciding when and where to load is this module's.
 */
import type { Message } from '../../store/types.js';

import { WINDOW_MAX_MESSAGES } from '../../budgets.js';
export { WINDOW_MAX_MESSAGES };
export { SLICE_MESSAGES } from '../../budgets.js';
export { OPEN_BEFORE } from '../../budgets.js';
export { OPEN_AFTER } from '../../budgets.js';
/** The anchor sits this far down the viewport when a window opens (like `less -j`). */
export const ANCHOR_FRACTION = 1 / 3;

export type WinItem =
  | { kind: 'message'; msg: Message; seg: number }
  /** Start of chain segment `seg` (a compression continuation). */
  | { kind: 'divider'; seg: number; sessionId: string };

export interface MsgWindow {
  /** Compression chain, oldest segment first. */
  chain: readonly string[];
  items: readonly WinItem[];
  /** The loaded items reach the chain's first / last message. */
  atStart: boolean;
  atEnd: boolean;
  /** Index of the focused item (always a message). */
  focus: number;
  /** First visible display line. */
  top: number;
  /** The message the window was opened on (marked ▶). */
  anchorId: number | null;
  /** Visible chain messages before items[0], and in the whole chain (position and %). */
  before: number;
  total: number;
  /** Keep the newest message in view when the agent appends to a live session. */
  follow: boolean;
}

/** Height in display lines of one item at the current width and expansion. */
export type Measure = (item: WinItem) => number;

export function isMessage(
  item: WinItem | undefined,
): item is Extract<WinItem, { kind: 'message' }> {
  return item !== undefined && item.kind === 'message';
}

export function messageCount(items: readonly WinItem[]): number {
  let n = 0;
  for (const it of items) if (it.kind === 'message') n++;
  return n;
}

export interface Geometry {
  /** Start line of each item. */
  offsets: number[];
  heights: number[];
  total: number;
}

export function geometry(items: readonly WinItem[], measure: Measure): Geometry {
  const offsets: number[] = new Array<number>(items.length);
  const heights: number[] = new Array<number>(items.length);
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    // 0: an item laid out as no lines (a tool step while they are hidden); never focused.
    const h = Math.max(0, measure(items[i]!));
    offsets[i] = total;
    heights[i] = h;
    total += h;
  }
  return { offsets, heights, total };
}

function clampTop(top: number, total: number, viewH: number): number {
  return Math.max(0, Math.min(top, total - viewH));
}

/** Index of the item containing display line `line` (clamped to the items). */
export function itemAtLine(g: Geometry, line: number): number {
  const n = g.offsets.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.offsets[mid]! <= line) lo = mid;
    else hi = mid - 1;
  }
  // Items of no lines share their offset with the next: the line belongs to that one.
  while (lo + 1 < n && g.heights[lo] === 0) lo++;
  return lo;
}

/**
 * The next message after (before) index `from`; with `g`, only a message that
 * shows at least one line (hidden tool steps are skipped).
 */
export function nextMessage(
  items: readonly WinItem[],
  from: number,
  dir: 1 | -1,
  g?: Geometry,
): number | null {
  for (let i = from + dir; i >= 0 && i < items.length; i += dir)
    if (isMessage(items[i]) && (!g || g.heights[i]! > 0)) return i;
  return null;
}

/** The message nearest to index `i` (itself, else the next, else the previous), shown when `g` is given. */
function nearestMessage(items: readonly WinItem[], i: number, g?: Geometry): number {
  if (isMessage(items[i]) && (!g || g.heights[i]! > 0)) return i;
  return (
    nextMessage(items, i, 1, g) ??
    nextMessage(items, i, -1, g) ??
    nextMessage(items, i, 1) ??
    nextMessage(items, i, -1) ??
    -1
  );
}

export function indexOfMessage(items: readonly WinItem[], id: number): number {
  return items.findIndex((it) => it.kind === 'message' && it.msg.id === id);
}

/** The top line that puts item `i` about a third of the way down the viewport. */
function topForAnchor(g: Geometry, i: number, viewH: number): number {
  const start = g.offsets[i] ?? 0;
  return clampTop(start - Math.floor(viewH * ANCHOR_FRACTION), g.total, viewH);
}

/** A new window on `items`, focused on item `focus`, placed a third of the way down. */
export function openWindow(
  base: Omit<MsgWindow, 'top' | 'focus'>,
  focusIndex: number,
  measure: Measure,
  viewH: number,
  placement: 'anchor' | 'bottom' | 'top' = 'anchor',
): MsgWindow {
  const g = geometry(base.items, measure);
  const focus = nearestMessage(base.items, focusIndex, g);
  const top =
    placement === 'bottom'
      ? clampTop(g.total - viewH, g.total, viewH)
      : placement === 'top'
        ? 0
        : topForAnchor(g, Math.max(0, focus), viewH);
  return { ...base, focus, top };
}

/**
 * j / k: inside a focused message taller than the viewport, scroll one line;
 * otherwise focus the next/previous message and scroll as little as needed
 * to show it (its header first when it does not fit).
 */
export function moveFocus(w: MsgWindow, measure: Measure, viewH: number, dir: 1 | -1): MsgWindow {
  if (w.items.length === 0) return w;
  const g = geometry(w.items, measure);
  const f = w.focus;
  const start = g.offsets[f] ?? 0;
  const end = start + (g.heights[f] ?? 1);
  if (dir === 1) {
    if (end > w.top + viewH) return { ...w, top: clampTop(w.top + 1, g.total, viewH) };
    const n = nextMessage(w.items, f, 1, g);
    if (n === null) return { ...w, top: clampTop(w.top + 1, g.total, viewH) };
    const ns = g.offsets[n]!;
    const ne = ns + g.heights[n]!;
    return {
      ...w,
      focus: n,
      top: clampTop(Math.max(w.top, Math.min(ns, ne - viewH)), g.total, viewH),
    };
  }
  if (start < w.top) return { ...w, top: clampTop(w.top - 1, g.total, viewH) };
  const p = nextMessage(w.items, f, -1, g);
  // The first message: only lines above it (a divider) are left to show.
  if (p === null) return { ...w, top: clampTop(w.top - 1, g.total, viewH) };
  const ps = g.offsets[p]!;
  const pe = ps + g.heights[p]!;
  return {
    ...w,
    focus: p,
    top: clampTop(Math.min(w.top, Math.max(ps, pe - viewH)), g.total, viewH),
  };
}

/** PgDn / PgUp: a screen less one line; focus follows when it scrolls out of view. */
export function pageMove(w: MsgWindow, measure: Measure, viewH: number, dir: 1 | -1): MsgWindow {
  if (w.items.length === 0) return w;
  const g = geometry(w.items, measure);
  const top = clampTop(w.top + dir * Math.max(1, viewH - 1), g.total, viewH);
  // On the conversation's first (last) page the focus goes on to its first (last)
  // message, as less reaches line 1: the viewport alone cannot move any further.
  const edge = dir === -1 ? w.atStart && top === 0 : w.atEnd && top >= g.total - viewH;
  if (edge) {
    const m = nearestMessage(w.items, dir === -1 ? 0 : w.items.length - 1, g);
    if (m >= 0) return { ...w, top, focus: m };
  }
  return { ...w, top, focus: focusInView(w.items, g, w.focus, top, viewH) };
}

/** Keep the focus if any of its lines is visible, else the message a third of the way down. */
function focusInView(
  items: readonly WinItem[],
  g: Geometry,
  focus: number,
  top: number,
  viewH: number,
): number {
  const s = g.offsets[focus];
  const h = g.heights[focus];
  if (s !== undefined && h !== undefined && h > 0 && s + h > top && s < top + viewH) return focus;
  const at = itemAtLine(g, Math.min(g.total - 1, top + Math.floor(viewH * ANCHOR_FRACTION)));
  const m = nearestMessage(items, at, g);
  return m < 0 ? focus : m;
}

export type Edge = 'before' | 'after';

/**
 * Which loaded edge the viewport is within `margin` lines of (a screen unless
 * told), when more lies beyond it.
 */
export function edgeNeed(
  w: MsgWindow,
  measure: Measure,
  viewH: number,
  margin: number = viewH,
): Edge | null {
  if (w.items.length === 0) return null;
  const g = geometry(w.items, measure);
  if (!w.atStart && w.top < margin) return 'before';
  if (!w.atEnd && w.top + viewH > g.total - margin) return 'after';
  return null;
}

/**
 * Older items loaded above: the view does not move (top shifts by their
 * height), then the far (newest) side is trimmed to the budget, never
 * touching the viewport or the focus.
 */
export function prependItems(
  w: MsgWindow,
  fresh: readonly WinItem[],
  reachedStart: boolean,
  measure: Measure,
  viewH: number,
): MsgWindow {
  let shift = 0;
  for (const it of fresh) shift += Math.max(1, measure(it));
  const added = messageCount(fresh);
  const next: MsgWindow = {
    ...w,
    items: [...fresh, ...w.items],
    focus: w.focus + fresh.length,
    top: w.top + shift,
    before: reachedStart ? 0 : Math.max(0, w.before - added),
    atStart: reachedStart,
  };
  return trimEnd(next, measure, viewH);
}

/** Newer items loaded below; the oldest side is trimmed to the budget. */
export function appendItems(
  w: MsgWindow,
  fresh: readonly WinItem[],
  reachedEnd: boolean,
  measure: Measure,
  viewH: number,
): MsgWindow {
  const next: MsgWindow = { ...w, items: [...w.items, ...fresh], atEnd: reachedEnd };
  return trimStart(next, measure, viewH);
}

function trimEnd(w: MsgWindow, measure: Measure, viewH: number): MsgWindow {
  let count = messageCount(w.items);
  if (count <= WINDOW_MAX_MESSAGES) return w;
  const g = geometry(w.items, measure);
  let cut = w.items.length;
  while (count > WINDOW_MAX_MESSAGES && cut - 1 > w.focus && g.offsets[cut - 1]! >= w.top + viewH) {
    cut--;
    if (isMessage(w.items[cut])) count--;
  }
  // A divider never ends the window.
  while (cut > 0 && cut - 1 > w.focus && w.items[cut - 1]?.kind === 'divider') cut--;
  if (cut === w.items.length) return w;
  return { ...w, items: w.items.slice(0, cut), atEnd: false };
}

function trimStart(w: MsgWindow, measure: Measure, viewH: number): MsgWindow {
  let count = messageCount(w.items);
  if (count <= WINDOW_MAX_MESSAGES) return w;
  const g = geometry(w.items, measure);
  let cut = 0;
  let removedMessages = 0;
  while (
    count > WINDOW_MAX_MESSAGES &&
    cut < w.focus &&
    g.offsets[cut]! + g.heights[cut]! <= w.top
  ) {
    if (isMessage(w.items[cut])) {
      count--;
      removedMessages++;
    }
    cut++;
  }
  if (cut === 0) return w;
  const removedLines = g.offsets[cut] ?? 0;
  void viewH;
  return {
    ...w,
    items: w.items.slice(cut),
    focus: w.focus - cut,
    top: w.top - removedLines,
    before: w.before + removedMessages,
    atStart: false,
  };
}

/**
 * New messages the agent wrote at the end of a live session. When the view
 * was showing the last line it keeps showing it (following the tail), with the
 * focus on the newest message if it had been on the last one; otherwise
 * nothing on screen moves.
 */
export function appendLive(
  w: MsgWindow,
  fresh: readonly WinItem[],
  measure: Measure,
  viewH: number,
): MsgWindow {
  if (fresh.length === 0) return w;
  const g = geometry(w.items, measure);
  const atBottom = w.top + viewH >= g.total;
  const focusWasLast = nextMessage(w.items, w.focus, 1, g) === null;
  const added = messageCount(fresh);
  let next: MsgWindow = { ...w, items: [...w.items, ...fresh], total: w.total + added };
  if (atBottom && (w.follow || focusWasLast)) {
    const g2 = geometry(next.items, measure);
    const last = nextMessage(next.items, next.items.length, -1, g2) ?? next.focus;
    next = {
      ...next,
      top: clampTop(g2.total - viewH, g2.total, viewH),
      focus: focusWasLast ? last : next.focus,
    };
    next = { ...next, focus: focusInView(next.items, g2, next.focus, next.top, viewH) };
  }
  return trimStart(next, measure, viewH);
}

/**
 * Re-lay out after a change of size or of what is shown (reasoning,
 * expansion): the focused message keeps its screen row (moved up if the
 * viewport got shorter than that row), and a view showing the end keeps
 * showing the end.
 */
export function relayout(
  w: MsgWindow,
  oldMeasure: Measure,
  newMeasure: Measure,
  viewH: number,
  /** The viewport before a resize; given only for resizes, where a view at the end stays at the end. */
  oldViewH?: number,
): MsgWindow {
  if (w.items.length === 0) return w;
  const g0 = geometry(w.items, oldMeasure);
  const g1 = geometry(w.items, newMeasure);
  if (oldViewH !== undefined && w.atEnd && w.top > 0 && w.top + oldViewH >= g0.total)
    return { ...w, top: clampTop(g1.total - viewH, g1.total, viewH) };
  // The focused message's header keeps its row. After a resize, a message that would
  // then run past the bottom (a shorter or narrower pane) moves up until it fits, or
  // its header reaches the top; reading inside a tall message stays inside it.
  const was = (g0.offsets[w.focus] ?? 0) - w.top;
  const h1 = g1.heights[w.focus] ?? 1;
  const row =
    oldViewH === undefined
      ? Math.min(was, Math.max(0, viewH - 1))
      : was >= 0
        ? Math.min(was, Math.max(0, viewH - h1))
        : Math.max(was, Math.min(0, viewH - h1));
  const top = clampTop((g1.offsets[w.focus] ?? 0) - row, g1.total, viewH);
  return { ...w, top };
}

/** Scroll so the focused message shows, or put it a third of the way down when it is off screen. */
function revealFocus(w: MsgWindow, measure: Measure, viewH: number): MsgWindow {
  const g = geometry(w.items, measure);
  const s = g.offsets[w.focus];
  if (s === undefined) return w;
  if (s >= w.top && s < w.top + viewH) return { ...w, top: clampTop(w.top, g.total, viewH) };
  return { ...w, top: topForAnchor(g, w.focus, viewH) };
}

/** Focus message `index` (already loaded), revealing it. */
export function focusIndex(
  w: MsgWindow,
  index: number,
  measure: Measure,
  viewH: number,
): MsgWindow {
  const g = geometry(w.items, measure);
  return revealFocus({ ...w, focus: nearestMessage(w.items, index, g) }, measure, viewH);
}

export function focusedMessage(w: MsgWindow | null): Message | null {
  if (!w) return null;
  const it = w.items[w.focus];
  return isMessage(it) ? it.msg : null;
}

export interface Position {
  messageId: number;
  /** 1-based position of the focused message in the chain. */
  index: number;
  total: number;
  percent: number;
}

export function position(w: MsgWindow): Position | null {
  const m = focusedMessage(w);
  if (!m) return null;
  let index = w.before;
  for (let i = 0; i <= w.focus && i < w.items.length; i++) if (isMessage(w.items[i])) index++;
  const total = Math.max(w.total, index);
  return {
    messageId: m.id,
    index,
    total,
    percent: total > 0 ? Math.round((index / total) * 100) : 0,
  };
}

/** The hit after (dir 1) or before (dir -1) message `id` in chain order, if any. */
export function adjacentHit(hits: readonly number[], id: number, dir: 1 | -1): number | null {
  if (dir === 1) {
    for (const h of hits) if (h > id) return h;
    return null;
  }
  for (let i = hits.length - 1; i >= 0; i--) if (hits[i]! < id) return hits[i]!;
  return null;
}

/** The items with any line in the viewport, with the first visible line of each. */
export function visibleSlice(
  w: MsgWindow,
  measure: Measure,
  viewH: number,
): { index: number; item: WinItem; skip: number; take: number }[] {
  const g = geometry(w.items, measure);
  const out: { index: number; item: WinItem; skip: number; take: number }[] = [];
  if (w.items.length === 0) return out;
  const top = clampTop(w.top, g.total, viewH);
  let i = itemAtLine(g, top);
  let row = 0;
  while (i < w.items.length && row < viewH) {
    const s = g.offsets[i]!;
    const h = g.heights[i]!;
    const skip = Math.max(0, top - s);
    const take = Math.min(h - skip, viewH - row);
    if (take > 0) out.push({ index: i, item: w.items[i]!, skip, take });
    row += take;
    i++;
  }
  return out;
}
