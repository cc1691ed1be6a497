/** The open conversation: moving in it, loading at its edges, opening it from a list or a hit, walking hits (n/N). */
import { parseFilters } from '../../query/filters.js';
import { termsFromQuery } from '../../text/highlight.js';
import { FULL_OPEN, PREVIEW_OPEN, type Opened } from '../data/chainWindow.js';
import { splitAgentSession } from '../../ids/app.js';
import {
  adjacentHit,
  focusedMessage,
  geometry,
  indexOfMessage,
  nextMessage,
  SLICE_MESSAGES,
} from '../geometry/window.js';
import type { ResultItem, SessionRow } from '../model.js';
import {
  measureFor,
  previewTarget,
  recentKey,
  roles,
  selectedResult,
  viewEdgeNeed,
} from '../state/selectors.js';
import type { FindResult, MessageView } from '../state/types.js';
import type { Ctx } from './ctx.js';
import { say } from './status.js';

import { MAX_EDGE_LOADS } from '../../budgets.js';

/** The search a view shows: its query's terms are highlighted and its hits walked with n/N. */
interface ViewSearch {
  /** The list row the view shows (selectors.ts previewKey). */
  key: string;
  query: string | null;
  roles: readonly string[];
  hits: number[];
  resultKey: string | null;
  find?: FindResult | null;
}

/** g / G in a conversation: its first or latest messages (loaded fresh: the window is bounded). */
export function jumpEdge(ctx: Ctx, dir: 1 | -1): void {
  const v = ctx.state.view;
  if (!v) return;
  const opened =
    dir === 1
      ? ctx.data.openTail(v.win.chain[v.win.chain.length - 1] ?? '')
      : ctx.data.openHead(v.win.chain);
  if (!opened) return;
  // The hit the view was opened on stays marked.
  opened.window = { ...opened.window, anchorId: v.win.anchorId };
  openView(ctx, opened, sameSearch(v));
  ctx.setStatus(say.edge(dir));
}

import { PREFETCH_SCREENS } from '../../budgets.js';
export { PREFETCH_SCREENS };

/** One read ahead, if the viewport is within PREFETCH_SCREENS of an edge (called when idle). */
export function prefetchEdges(ctx: Ctx): void {
  const need = viewEdgeNeed(ctx.state, PREFETCH_SCREENS);
  const v = ctx.state.view;
  if (!need || !v) return;
  const loaded = ctx.data.extend(v.win, need, SLICE_MESSAGES);
  ctx.dispatch({
    type: 'extendView',
    side: need,
    items: loaded.items,
    reached: loaded.reached || loaded.items.length === 0,
  });
}

/** Loads beyond a loaded edge while the viewport is within a screen of it. */
export function ensureEdges(ctx: Ctx): void {
  for (let i = 0; i < MAX_EDGE_LOADS; i++) {
    const need = viewEdgeNeed(ctx.state);
    const v = ctx.state.view;
    if (!need || !v) return;
    const loaded = ctx.data.extend(v.win, need, SLICE_MESSAGES);
    ctx.dispatch({
      type: 'extendView',
      side: need,
      items: loaded.items,
      reached: loaded.reached || loaded.items.length === 0,
    });
  }
}

/** Enter on the list: the keyboard moves to the conversation beside it (loaded now if the preview was not). */
export function open(ctx: Ctx): void {
  const s = ctx.state;
  // Enter on a message expands it when there is something to expand; on any other it
  // keeps the status line (an Enter after a pasted link is a shell habit, not a request).
  if (s.pane === 'messages' && !s.typing) return toggleExpand(ctx, false);
  const t = previewTarget(s);
  if (!t) return s.search.text.trim() === '' ? undefined : ctx.setStatus(say.noResults);
  const v = s.view;
  if (v?.key === t.key) {
    // The preview is already there: the keyboard moves, and the window loads
    // beyond the preview's few messages as reading needs.
    ctx.dispatch({ type: 'focusView' });
    ensureEdges(ctx);
    const at = t.result?.messageId ?? null;
    return ctx.setStatus(
      v.query && at !== null
        ? say.openedAtHit(v.hits.indexOf(at), v.hits.length)
        : say.opened(v.title, v.live),
    );
  }
  if (t.recent) return openRecent(ctx, t.recent);
  if (t.result) openResult(ctx, t.result);
}

export function openRecent(ctx: Ctx, row: SessionRow, focus = true): void {
  const opened = ctx.data.openTail(row.sessionId, focus ? FULL_OPEN : PREVIEW_OPEN);
  if (!opened) return ctx.setStatus(say.notFound, 'warn');
  openView(
    ctx,
    opened,
    { key: recentKey(row), query: null, roles: [], hits: [], resultKey: null },
    focus,
  );
  if (focus) ctx.setStatus(say.opened(opened.title, opened.live));
}

export function openResult(ctx: Ctx, item: ResultItem, at?: number, focus = true): void {
  // The results answer the whole line; the view highlights and walks its free text, not its chips.
  const line = parseFilters(ctx.state.results.forText);
  const query = item.kind === 'hit' ? line.text : null;
  const rs = line.filters.roles ?? roles(ctx.state);
  const messageId = at ?? item.messageId;
  const size = focus ? FULL_OPEN : PREVIEW_OPEN;
  const opened =
    messageId !== null
      ? ctx.data.openAt(item.sessionId, messageId, size)
      : ctx.data.openTail(item.sessionId, size);
  if (!opened) return ctx.setStatus(say.notFound, 'warn');
  const hits = query ? ctx.data.hits(query, opened.window.chain, rs) : [];
  openView(ctx, opened, { key: item.key, query, roles: rs, hits, resultKey: item.key }, focus);
  if (!focus) return;
  const k = messageId !== null ? hits.indexOf(messageId) : -1;
  if (opened.note) ctx.setStatus(opened.note, 'warn');
  else if (query) ctx.setStatus(say.openedAtHit(k, hits.length));
  // A pasted link, scroll call or id: say what it opened (the status left over from before would mislead).
  else if (item.kind === 'jump') ctx.setStatus(say.openedAnchor(opened.title, item.messageId));
}

/** H changed what another agent's window holds (what was taken back): reload it where the reader was. */
export function reloadAgentView(ctx: Ctx): void {
  const v = ctx.state.view;
  const sid = v?.win.chain[0];
  if (!v || sid === undefined || splitAgentSession(sid) === null) return;
  const it = v.win.items[v.win.focus];
  const opened =
    it && it.kind === 'message' ? ctx.data.openAt(sid, it.msg.id) : ctx.data.openTail(sid);
  if (!opened) return;
  const hits = v.query ? ctx.data.hits(v.query, opened.window.chain, v.roles) : [];
  openView(ctx, opened, sameSearch(v, hits), ctx.state.pane === 'messages' && !ctx.state.typing);
}

/** The search a view was opened with, carried to a reloaded window of the same conversation. */
export function sameSearch(v: MessageView, hits: number[] = [...v.hits]): ViewSearch {
  return {
    key: v.key,
    query: v.query,
    roles: v.roles,
    hits,
    resultKey: v.resultKey,
    find: v.find,
  };
}

/** Shows a loaded conversation; `focus` moves the keyboard to it (a preview leaves it on the list). */
export function openView(ctx: Ctx, opened: Opened, extra: ViewSearch, focus = true): void {
  const find = extra.find ?? null;
  const terms = find ? [find.text] : extra.query ? termsFromQuery(extra.query) : [];
  ctx.dispatch({
    type: 'openView',
    focus,
    view: {
      key: extra.key,
      context: opened.context,
      title: opened.title,
      source: opened.source,
      live: opened.live,
      query: extra.query,
      roles: extra.roles,
      terms,
      hits: extra.hits,
      resultKey: extra.resultKey,
      bookStart: opened.bookStart,
      bookEnd: opened.bookEnd,
      find,
    },
    window: opened.window,
    focusIndex: opened.focusIndex,
    placement: opened.placement,
  });
  // A preview stays as loaded (a screenful): more is read when it gets the keyboard.
  if (focus) ensureEdges(ctx);
}

/** e (and Enter on a message): expand or collapse a tool call or output; `say` reports a message with nothing to expand. */
export function toggleExpand(ctx: Ctx, sayNothing = true): void {
  const v = ctx.state.view;
  if (!v || ctx.state.pane !== 'messages') return ctx.setStatus(say.expandWhere);
  const m = focusedMessage(v.win);
  if (!m) return;
  const expandable = m.role === 'tool' || m.role === 'system' || m.tool_calls !== null;
  if (!expandable) return sayNothing ? ctx.setStatus(say.nothingToExpand) : undefined;
  ctx.dispatch({ type: 'toggleExpand' });
  ensureEdges(ctx);
}

export function walkHits(ctx: Ctx, dir: 1 | -1): void {
  const v = ctx.state.view;
  if (v?.find && ctx.state.pane === 'messages') return walkFind(ctx, v, v.find, dir);
  if (!v || !v.query) {
    const s = ctx.state;
    if (s.pane === 'results' && selectedResult(s)) return openResult(ctx, selectedResult(s)!);
    return ctx.setStatus(say.noSearchHere);
  }
  const cur = focusedMessage(v.win)?.id ?? v.win.anchorId ?? 0;
  const target = adjacentHit(v.hits, cur, dir);
  if (target !== null) return gotoHit(ctx, v, target);
  // Past the last (first) hit: continue into the next (previous) result's conversation.
  const items = ctx.state.results.items;
  const at = items.findIndex((r) => r.key === v.resultKey);
  for (let i = at + dir; at >= 0 && i >= 0 && i < items.length; i += dir) {
    const next = items[i]!;
    if (next.kind !== 'hit') continue;
    ctx.dispatch({ type: 'listSelect', pane: 'results', index: i });
    const chain = ctx.data.chainOf(next.sessionId);
    const hits = ctx.data.hits(v.query, chain, v.roles);
    const first = dir === 1 ? hits[0] : hits[hits.length - 1];
    const owner = first !== undefined ? ctx.data.ownerOf(first) : null;
    openResult(
      ctx,
      owner && first !== undefined ? { ...next, sessionId: owner } : next,
      first ?? undefined,
    );
    ctx.setStatus(say.nextResult(dir, i, items.length, next.title));
    return;
  }
  ctx.setStatus(say.noMoreHits(dir));
}

function gotoHit(ctx: Ctx, v: MessageView, target: number): void {
  const k = v.hits.indexOf(target) + 1;
  if (indexOfMessage(v.win.items, target) >= 0) {
    ctx.dispatch({ type: 'focusMessage', id: target });
    ensureEdges(ctx);
  } else {
    const owner = ctx.data.ownerOf(target);
    const opened = owner ? ctx.data.openAt(owner, target) : null;
    if (!opened) return ctx.setStatus(say.hitGone(target), 'warn');
    openView(ctx, opened, sameSearch(v));
  }
  ctx.setStatus(say.hit(k, v.hits.length));
}

// ------------------------------------------------------------------ find within the conversation

/** Enter in the find line: every message of the chain with the text, and the first one from the focus on. */
export function commitFind(ctx: Ctx, text: string): void {
  const v = ctx.state.view;
  ctx.dispatch({ type: 'findClose' });
  const t = text.trim();
  if (!v || t === '') return;
  const hits = ctx.data.find(v.win.chain, t);
  if (hits.length === 0) {
    ctx.dispatch({ type: 'setFind', find: null });
    return ctx.setStatus(say.findNone(t), 'warn');
  }
  const find = { text: t, hits };
  ctx.dispatch({ type: 'setFind', find });
  const cur = focusedMessage(v.win)?.id ?? 0;
  const target = hits.includes(cur) ? cur : (adjacentHit(hits, cur, 1) ?? hits[0]!);
  landOnFind(ctx, find, target);
}

/**
 * The find line changed: from where the reader was when it opened, the view
 * moves to the first match at or after the focus (wrapping past the end), the
 * matches highlighted; no match (or no text) puts the view back where it was.
 */
export function findAsYouType(ctx: Ctx): void {
  const from = ctx.state.findFrom;
  const t = ctx.state.findLine?.text.trim() ?? '';
  if (!from) return;
  ctx.dispatch({ type: 'restoreView', view: from });
  if (t === '') return ctx.setStatus(say.findTyping);
  const hits = ctx.data.find(from.win.chain, t);
  if (hits.length === 0) return ctx.setStatus(say.findNone(t), 'warn');
  const find = { text: t, hits };
  ctx.dispatch({ type: 'setFind', find });
  const cur = focusedMessage(from.win)?.id ?? 0;
  const next = hits.includes(cur) ? cur : adjacentHit(hits, cur, 1);
  landOnFind(ctx, find, next ?? hits[0]!, next === null ? 1 : undefined);
}

/** Esc on the find line: the view exactly where it was before the find line opened. */
export function cancelFind(ctx: Ctx): void {
  const from = ctx.state.findFrom;
  if (from) ctx.dispatch({ type: 'restoreView', view: from });
  ctx.dispatch({ type: 'findClose' });
  ctx.setStatus(say.findCancelled);
}

function walkFind(ctx: Ctx, v: MessageView, find: FindResult, dir: 1 | -1): void {
  const cur = focusedMessage(v.win)?.id ?? 0;
  const next = adjacentHit(find.hits, cur, dir);
  // Past the last (first) match it wraps around, as less and vim do, and says so.
  const target = next ?? (dir === 1 ? find.hits[0] : find.hits[find.hits.length - 1]);
  if (target === undefined) return ctx.setStatus(say.noMoreHits(dir));
  landOnFind(ctx, find, target, next === null ? dir : undefined);
}

/** Focus a found message (loading its part of the chain if needed); a tool call or output is expanded, so the match shows. */
function landOnFind(ctx: Ctx, find: FindResult, target: number, wrapped?: 1 | -1): void {
  const v = ctx.state.view;
  if (!v) return;
  if (indexOfMessage(v.win.items, target) >= 0) ctx.dispatch({ type: 'focusMessage', id: target });
  else {
    const owner = ctx.data.ownerOf(target);
    const opened = owner ? ctx.data.openAt(owner, target) : null;
    if (!opened) return ctx.setStatus(say.hitGone(target), 'warn');
    openView(ctx, opened, sameSearch(v));
  }
  const now = ctx.state.view;
  const m = now ? focusedMessage(now.win) : null;
  if (now && m && m.id === target && !now.expanded.has(m.id)) {
    const collapsed = m.role === 'tool' || m.role === 'system' || m.tool_calls !== null;
    if (collapsed) ctx.dispatch({ type: 'toggleExpand' });
  }
  ensureEdges(ctx);
  const at = say.find(find.hits.indexOf(target) + 1, find.hits.length, find.text);
  ctx.setStatus(wrapped === undefined ? at : `${say.findWrapped(wrapped)} · ${at}`);
}

/**
 * ] / [: the focus to the next (previous) message's header, however tall the
 * focused one is (j/k scroll through a tall message line by line). Hidden
 * tool steps are skipped; past the loaded edge the next page is loaded.
 */
export function stepMessage(ctx: Ctx, dir: 1 | -1): void {
  if (!ctx.state.view || ctx.state.pane !== 'messages') return ctx.setStatus(say.openFirst);
  for (let attempt = 0; attempt < 2; attempt++) {
    const v = ctx.state.view;
    if (!v) return;
    const g = geometry(v.win.items, measureFor(ctx.state, v));
    const n = nextMessage(v.win.items, v.win.focus, dir, g);
    const item = n === null ? undefined : v.win.items[n];
    if (item?.kind === 'message') {
      ctx.dispatch({ type: 'focusMessage', id: item.msg.id });
      return ensureEdges(ctx);
    }
    const edge = dir === 1 ? v.win.atEnd : v.win.atStart;
    if (edge || attempt > 0) break;
    const loaded = ctx.data.extend(v.win, dir === 1 ? 'after' : 'before', SLICE_MESSAGES);
    ctx.dispatch({
      type: 'extendView',
      side: dir === 1 ? 'after' : 'before',
      items: loaded.items,
      reached: loaded.reached || loaded.items.length === 0,
    });
  }
  ctx.setStatus(say.nextMessage(dir));
}

/** T: hide or show tool steps (tool calls and outputs) in the open conversation. */
export function toggleToolSteps(ctx: Ctx): void {
  if (!ctx.state.view) return ctx.setStatus(say.openFirst);
  ctx.dispatch({ type: 'toggleToolSteps' });
  ensureEdges(ctx);
  ctx.setStatus(say.toolSteps(ctx.state.view?.hideTools !== true));
}
