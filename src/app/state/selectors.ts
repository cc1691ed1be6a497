/** Derived values read by the reducer, the controller and the views. */
import { completeAt, type Completion } from '../../query/complete.js';
import { parseFilters } from '../../query/filters.js';
import { GUTTER, layoutMessage } from '../geometry/lineLayout.js';
import { innerWidth, screenFor, type Screen } from '../geometry/screen.js';
import { edgeNeed, type Edge, type Measure, type MsgWindow } from '../geometry/window.js';
import type { MarkRef, ResultItem, SessionRow } from '../model.js';
import type { AppState, MessageView } from './types.js';

export function screenOf(s: AppState): Screen {
  return screenFor(s.size);
}

export function roles(s: AppState): string[] {
  return s.search.tools ? ['user', 'assistant', 'tool'] : ['user', 'assistant'];
}

/** Columns of message text in a pane whose inside is `inner` columns wide (the gutter takes the rest). */
export function messageTextWidth(inner: number): number {
  return Math.max(4, inner - GUTTER);
}

export function messageWidth(s: AppState): number {
  return messageTextWidth(innerWidth(screenOf(s), 'messages'));
}

/** Lines at the top of the message pane for the conversation's context. */
export const CONTEXT_LINES = 1;

/** Height of a message view's scrolling area: the pane less the context and bookend lines. */
export function viewHeight(
  s: AppState,
  view: { win: Pick<MsgWindow, 'atStart' | 'atEnd'> } | null = s.view,
): number {
  // The first line of the pane is the conversation's context (folder, branch, model, counts).
  const inner = Math.max(1, screenOf(s).innerHeight - CONTEXT_LINES);
  if (!view) return inner;
  const bookends = (view.win.atStart ? 0 : 1) + (view.win.atEnd ? 0 : 1);
  return Math.max(1, inner - bookends);
}

/**
 * The one measure of a message view: screen lines per window item at a text
 * width. The reducer scrolls with it and MessageWindow draws with it, so the two
 * can never disagree about where a line falls.
 */
export function measureAt(
  width: number,
  view: Pick<MessageView, 'expanded' | 'reasoning' | 'terms'> & {
    hideTools?: boolean;
    codeShift?: number | null;
  },
): Measure {
  return (item) =>
    item.kind === 'divider'
      ? 1
      : layoutMessage(item.msg, {
          width,
          expanded: view.expanded.has(item.msg.id),
          reasoning: view.reasoning,
          terms: view.terms,
          hideTools: view.hideTools === true,
          codeShift: view.codeShift ?? null,
        }).lines.length;
}

export function measureFor(
  s: AppState,
  view: Pick<MessageView, 'expanded' | 'reasoning' | 'terms'> & {
    hideTools?: boolean;
    codeShift?: number | null;
  },
): Measure {
  return measureAt(messageWidth(s), view);
}

export function selectedResult(s: AppState): ResultItem | null {
  return s.results.items[s.results.list.selected] ?? null;
}

export function selectedRecent(s: AppState): SessionRow | null {
  return s.recent.entries[s.recent.list.selected] ?? null;
}

export function isMarked(s: AppState, ref: MarkRef): boolean {
  return s.marks.some((m) => m.sessionId === ref.sessionId && m.messageId === ref.messageId);
}

/** Which loaded edge of the message view should be extended now, if any. */
export function viewEdgeNeed(s: AppState, screens = 1): Edge | null {
  const v = s.view;
  if (!v) return null;
  const h = viewHeight(s, v);
  return edgeNeed(v.win, measureFor(s, v), h, h * screens);
}

/**
 * The list on screen: Results while the search line holds a query, Recent otherwise.
 * A line of filters alone filters Recent; one the filters cannot read shows Results,
 * where the line says what is wrong.
 */
/** The last line listPane parsed: it runs on every reduce and render, the line changes far less often. */
let lastLine: { text: string; pane: 'recent' | 'results' } | null = null;

export function listPane(s: AppState): 'recent' | 'results' {
  const text = s.search.text;
  if (text.trim() === '') return 'recent';
  if (lastLine?.text !== text) {
    const line = parseFilters(text);
    lastLine = { text, pane: line.text.trim() === '' && !line.error ? 'recent' : 'results' };
  }
  return lastLine.pane;
}

/** The key of a Recent row's preview (the tip it opens) and of a result's (its own key). */
export function recentKey(r: SessionRow): string {
  return `recent:${r.sessionId}`;
}

/** What the message pane should show beside the list: its selected row, if any. */
export interface PreviewTarget {
  key: string;
  title: string;
  source: string;
  recent: SessionRow | null;
  result: ResultItem | null;
}

export function previewTarget(s: AppState): PreviewTarget | null {
  if (listPane(s) === 'recent') {
    const r = selectedRecent(s);
    return r
      ? { key: recentKey(r), title: r.title, source: r.source, recent: r, result: null }
      : null;
  }
  const item = selectedResult(s);
  return item
    ? { key: item.key, title: item.title, source: item.source, recent: null, result: item }
    : null;
}

/**
 * Does the message pane show the conversation beside the selection? While the
 * list has the keyboard it must show the selected row's own conversation, or
 * only its title with "loading": never another conversation's text.
 */
export function viewMatchesSelection(s: AppState): boolean {
  if (s.pane === 'messages' && !s.typing) return true;
  const t = previewTarget(s);
  return t !== null && s.view !== null && s.view.key === t.key;
}

/** The completion offered for the word at the search line's cursor (Tab takes the first), or null. */
export function completionOf(s: AppState): Completion | null {
  if (!s.typing || s.search.selected || s.historyFind !== null) return null;
  return completeAt(s.search.text, s.search.cursor, s.filterValues ?? {});
}
