/**
 * The search line as a shell-like line editor: text and a cursor, edited by
 * pure functions (so every key is a unit test), a bounded history of earlier
 * queries walked with ↑/↓ (kept in a file by src/tui/history.ts), and the
 * visible part of the line for a width. The
 * cursor is an offset in UTF-16 code units that always sits on a grapheme
 * boundary, so no edit splits an emoji or a combining sequence.
 */
import { sanitizeLine } from '../../text/sanitize.js';
import { graphemes, safeWidth } from '../../text/width.js';

export interface LineState {
  text: string;
  /** Code-unit offset into text, on a grapheme boundary, 0..text.length. */
  cursor: number;
}

export type EditAction =
  | { type: 'insert'; text: string }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'wordLeft' }
  | { type: 'wordRight' }
  /** Ctrl-W: delete back to the previous whitespace, as readline's unix-word-rubout. */
  | { type: 'deleteWordBefore' }
  /** Ctrl-U: the whole line. */
  | { type: 'clear' }
  /** Ctrl-K: from the cursor to the end. */
  | { type: 'killToEnd' }
  /** Tab on a completion: the word text[from, cursor) becomes `text` (src/query/complete.ts). */
  | { type: 'replaceWord'; from: number; text: string };

export const EMPTY_LINE: LineState = { text: '', cursor: 0 };

import { LINE_MAX_CHARS } from '../../budgets.js';
export { LINE_MAX_CHARS };

export function lineOf(text: string): LineState {
  const clean = cleanInsert(text).slice(0, LINE_MAX_CHARS);
  return { text: clean, cursor: clean.length };
}

/** Offsets of grapheme boundaries: 0, …, text.length. */
function boundaries(text: string): number[] {
  const out = [0];
  let at = 0;
  for (const g of graphemes(text)) {
    at += g.length;
    out.push(at);
  }
  return out;
}

/** The boundary at or before `cursor` (a cursor from outside may be anywhere). */
function snap(text: string, cursor: number): number {
  const c = Math.max(0, Math.min(text.length, Number.isFinite(cursor) ? Math.trunc(cursor) : 0));
  let best = 0;
  for (const b of boundaries(text)) if (b <= c) best = b;
  return best;
}

function prevBoundary(text: string, cursor: number): number {
  let best = 0;
  for (const b of boundaries(text)) if (b < cursor) best = b;
  return best;
}

function nextBoundary(text: string, cursor: number): number {
  for (const b of boundaries(text)) if (b > cursor) return b;
  return text.length;
}

const WORD = /[\p{L}\p{N}_]/u;
const isWord = (g: string): boolean => WORD.test(g);
const isSpace = (g: string): boolean => /^\s+$/u.test(g);

/** Start of the word before the cursor (Alt-b, Ctrl-←): skip non-word graphemes, then word ones. */
function wordStartBefore(text: string, cursor: number, inWord: (g: string) => boolean): number {
  const g = graphemes(text.slice(0, cursor));
  let i = g.length;
  while (i > 0 && !inWord(g[i - 1] as string)) i--;
  while (i > 0 && inWord(g[i - 1] as string)) i--;
  return g.slice(0, i).join('').length;
}

/** End of the word after the cursor (Alt-f, Ctrl-→). */
function wordEndAfter(text: string, cursor: number): number {
  const g = graphemes(text.slice(cursor));
  let i = 0;
  while (i < g.length && !isWord(g[i] as string)) i++;
  while (i < g.length && isWord(g[i] as string)) i++;
  return cursor + g.slice(0, i).join('').length;
}

/** Typed or pasted text for a one-line field: line breaks and tabs become spaces, controls go. */
function cleanInsert(s: string): string {
  return sanitizeLine(typeof s === 'string' ? s.replace(/\r\n|[\r\n\t]/g, ' ') : '');
}

export function editLine(state: LineState, action: EditAction): LineState {
  const text = state.text;
  const cursor = snap(text, state.cursor);
  switch (action.type) {
    case 'insert': {
      const room = LINE_MAX_CHARS - text.length;
      let add = cleanInsert(action.text);
      if (add.length > room) add = graphemesWithin(add, room);
      if (add === '') return { text, cursor };
      return {
        text: text.slice(0, cursor) + add + text.slice(cursor),
        cursor: cursor + add.length,
      };
    }
    case 'replaceWord': {
      const from = Math.max(0, Math.min(action.from, cursor));
      const add = cleanInsert(action.text);
      if (text.length - (cursor - from) + add.length > LINE_MAX_CHARS) return { text, cursor };
      return { text: text.slice(0, from) + add + text.slice(cursor), cursor: from + add.length };
    }
    case 'backspace': {
      if (cursor === 0) return { text, cursor };
      const p = prevBoundary(text, cursor);
      return { text: text.slice(0, p) + text.slice(cursor), cursor: p };
    }
    case 'delete': {
      if (cursor === text.length) return { text, cursor };
      return { text: text.slice(0, cursor) + text.slice(nextBoundary(text, cursor)), cursor };
    }
    case 'left':
      return { text, cursor: cursor === 0 ? 0 : prevBoundary(text, cursor) };
    case 'right':
      return { text, cursor: nextBoundary(text, cursor) };
    case 'home':
      return { text, cursor: 0 };
    case 'end':
      return { text, cursor: text.length };
    case 'wordLeft':
      return { text, cursor: wordStartBefore(text, cursor, isWord) };
    case 'wordRight':
      return { text, cursor: wordEndAfter(text, cursor) };
    case 'deleteWordBefore': {
      const start = wordStartBefore(text, cursor, (g) => !isSpace(g));
      return { text: text.slice(0, start) + text.slice(cursor), cursor: start };
    }
    case 'clear':
      return EMPTY_LINE;
    case 'killToEnd':
      return { text: text.slice(0, cursor), cursor };
  }
}

/** The longest prefix of whole graphemes of `s` within `max` code units. */
function graphemesWithin(s: string, max: number): string {
  let out = '';
  for (const g of graphemes(s)) {
    if (out.length + g.length > max) break;
    out += g;
  }
  return out;
}

/** The key fields line editing reads; ink's Key fits. */
export interface KeyLike {
  leftArrow?: boolean;
  rightArrow?: boolean;
  home?: boolean;
  end?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
}

/**
 * The edit a key means in the line, or null when it is not a line edit (the
 * caller routes it elsewhere: Enter, Esc, ↑/↓ for history, Tab). Ink reports
 * Backspace as `delete`, so both erase before the cursor. Ctrl-B, Ctrl-F and
 * Ctrl-D are left to the app's key map (Ctrl-F switches the search mode,
 * Ctrl-D pages), so readline's meanings for them are not taken here. Ctrl-U
 * clears the line, as the search line's users expect; the key map's
 * Ctrl-U (page up) should yield to it while typing.
 */
export function keyToEdit(input: string, key: KeyLike): EditAction | null {
  if (key.return || key.escape || key.tab || key.upArrow || key.downArrow) return null;
  if (key.pageUp || key.pageDown) return null;
  if (key.leftArrow) return key.ctrl || key.meta ? { type: 'wordLeft' } : { type: 'left' };
  if (key.rightArrow) return key.ctrl || key.meta ? { type: 'wordRight' } : { type: 'right' };
  if (key.home) return { type: 'home' };
  if (key.end) return { type: 'end' };
  if (key.backspace || key.delete)
    return key.meta ? { type: 'deleteWordBefore' } : { type: 'backspace' };
  if (key.ctrl) {
    switch (input) {
      case 'a':
        return { type: 'home' };
      case 'e':
        return { type: 'end' };
      case 'h':
        return { type: 'backspace' };
      case 'w':
        return { type: 'deleteWordBefore' };
      case 'u':
        return { type: 'clear' };
      case 'k':
        return { type: 'killToEnd' };
      default:
        return null;
    }
  }
  if (key.meta) {
    if (input === 'b') return { type: 'wordLeft' };
    if (input === 'f') return { type: 'wordRight' };
    return null;
  }
  return input === '' ? null : { type: 'insert', text: input };
}

// ------------------------------------------------------------------ history

import { HISTORY_MAX } from '../../budgets.js';
export { HISTORY_MAX };

export interface History {
  /** Oldest first, no duplicates. */
  entries: readonly string[];
  /** Index into entries while walking, null at the draft. */
  index: number | null;
  /** The line as it was before ↑, given back by ↓ past the newest entry. */
  draft: string;
}

export function historyOf(entries: readonly string[]): History {
  return { entries: normalizeEntries(entries), index: null, draft: '' };
}

/** Strings only, cleaned, no blanks or duplicates (the newest kept), at most HISTORY_MAX. */
export function normalizeEntries(entries: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (typeof e !== 'string') continue;
    const q = cleanInsert(e).trim();
    if (q === '') continue;
    const at = out.indexOf(q);
    if (at >= 0) out.splice(at, 1);
    out.push(q);
  }
  return out.slice(-HISTORY_MAX);
}

/**
 * Ctrl-R: the newest entry older than `before` (an index; entries.length for
 * the newest) that contains `query`, ignoring case, as a shell's reverse search.
 */
export function historyMatch(
  entries: readonly string[],
  query: string,
  before: number = entries.length,
): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return null;
  for (let i = Math.min(before, entries.length) - 1; i >= 0; i--)
    if ((entries[i] as string).toLowerCase().includes(q)) return i;
  return null;
}

/** Remember a query run: moved to the newest place if already there; the walk resets. */
export function recordQuery(h: History, query: string, max: number = HISTORY_MAX): History {
  const q = cleanInsert(query).trim();
  if (q === '') return { ...h, index: null, draft: '' };
  const entries = [...h.entries.filter((e) => e !== q), q].slice(-Math.max(1, max));
  return { entries, index: null, draft: '' };
}

/** ↑: the previous (older) entry; the first ↑ keeps the current line as the draft. */
export function historyUp(
  h: History,
  current: string,
): { history: History; line: LineState } | null {
  if (h.entries.length === 0) return null;
  if (h.index === 0) return null;
  const index = h.index === null ? h.entries.length - 1 : h.index - 1;
  const draft = h.index === null ? current : h.draft;
  return { history: { ...h, index, draft }, line: lineOf(h.entries[index] as string) };
}

/** ↓: the next (newer) entry, and past the newest the draft as it was. */
export function historyDown(h: History): { history: History; line: LineState } | null {
  if (h.index === null) return null;
  if (h.index >= h.entries.length - 1)
    return { history: { ...h, index: null, draft: '' }, line: lineOf(h.draft) };
  const index = h.index + 1;
  return { history: { ...h, index }, line: lineOf(h.entries[index] as string) };
}

// ------------------------------------------------------------------ rendering

export interface VisibleLine {
  /** Text left of the cursor cell. */
  before: string;
  /** The grapheme under the cursor, or a space at the end of the line. */
  at: string;
  /** Text right of the cursor cell. */
  after: string;
  /** Column of the cursor cell within the visible part. */
  column: number;
  /** Text is hidden left / right of the visible part. */
  clippedLeft: boolean;
  clippedRight: boolean;
}

/**
 * The part of the line that fits in `width` columns with the cursor cell
 * visible: from the start when it fits, else with the cursor at the right
 * edge. The cursor cell is a whole grapheme (two columns for a wide one), so
 * the cursor is never drawn inside a wide character. Widths are measured as
 * the widest common terminal draws them (safeWidth), so before + at + after
 * fits `width` columns in any terminal; `column` is in the same measure.
 */
export function visibleLine(state: LineState, width: number): VisibleLine {
  const max = Number.isFinite(width) ? Math.max(0, Math.floor(width)) : 0;
  const cursor = snap(state.text, state.cursor);
  const g = graphemes(state.text);
  const w = g.map((x) => safeWidth(x));
  // Index of the cursor grapheme; at the end it is the virtual trailing space.
  let ci = 0;
  for (let at = 0; ci < g.length && at < cursor; ci++) at += (g[ci] as string).length;
  const cellWidth = ci < g.length ? (w[ci] as number) : 1;
  const empty = {
    before: '',
    at: '',
    after: '',
    column: 0,
    clippedLeft: false,
    clippedRight: false,
  };
  if (max < cellWidth)
    // A grapheme wider than the whole field: a stand-in marks the cursor.
    return {
      ...empty,
      at: max >= 1 ? '?' : '',
      clippedLeft: ci > 0,
      clippedRight: ci + 1 < g.length,
    };
  let start = 0;
  let used = 0;
  for (let i = 0; i < ci; i++) used += w[i] as number;
  while (used + cellWidth > max) used -= w[start++] as number;
  let end = ci + 1; // exclusive index past the cursor grapheme (or the virtual space)
  let total = used + cellWidth;
  while (end < g.length && total + (w[end] as number) <= max) total += w[end++] as number;
  return {
    before: g.slice(start, ci).join(''),
    at: ci < g.length ? (g[ci] as string) : ' ',
    after: g.slice(ci + 1, Math.min(end, g.length)).join(''),
    column: used,
    clippedLeft: start > 0,
    clippedRight: end < g.length,
  };
}
