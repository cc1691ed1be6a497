/**
 * The four recall operations with the agent's `session_search` semantics and JSON
 * shapes (STORE.md; field names and order as the agent's tool prints them).
 * Plain data in, plain data out: the CLI only serialises these.
 */
import type { Store } from './store.js';
import { StoreError } from './errors.js';
import { browse } from './browse.js';
import { rootOf, sessionMeta } from './lineage.js';
import { owningSession, readSession, sliceAround } from './messages.js';
import { NO_MATCH, discover } from './search.js';
import { isoTime } from './time.js';
import type { Message, SearchOptions, SessionMeta } from './types.js';

export const SCROLL_WINDOW_DEFAULT = 5;
export const SCROLL_WINDOW_MIN = 1;
export const SCROLL_WINDOW_MAX = 20;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/** The agent's _shape_message: fixed key order, empty optional keys dropped, `content` always present. */
export function shapeMessage(m: Message, anchorId?: number): Record<string, Json> {
  const out: Record<string, Json> = {
    id: m.id,
    role: m.role,
    content: m.content as Json,
    timestamp: m.timestamp,
  };
  if (m.tool_name) out.tool_name = m.tool_name;
  if (m.tool_calls) out.tool_calls = m.tool_calls as Json;
  if (m.tool_call_id) out.tool_call_id = m.tool_call_id;
  if (anchorId !== undefined && m.id === anchorId) out.anchor = true;
  return out;
}

function metaJson(meta: SessionMeta): Record<string, Json> {
  return {
    when: isoTime(meta.started_at),
    source: meta.source,
    model: meta.model,
    title: meta.title,
  };
}

export function recentJson(
  store: Store,
  opts: { limit?: number; all?: boolean },
): Record<string, Json> {
  const rows = browse(store, opts);
  const results = rows.map((r) => ({
    session_id: r.session_id,
    title: r.title,
    source: r.source,
    started_at: r.started_at,
    last_active: r.last_active,
    message_count: r.message_count,
    preview: r.preview,
  }));
  return {
    success: true,
    mode: 'browse',
    results,
    count: results.length,
    message: `Showing ${results.length} most recent sessions. Pass a query= to search, or session_id+around_message_id to scroll.`,
  };
}

export function searchJson(store: Store, query: string, opts: SearchOptions): Record<string, Json> {
  const answer = discover(store, query, { ...opts, views: true });
  // Only present when the search was degraded, so the agent's shape is otherwise unchanged.
  const warning: Record<string, Json> = answer.warning ? { warning: answer.warning } : {};
  if (answer.results.length === 0)
    return {
      success: true,
      mode: 'discover',
      query: answer.query,
      results: [],
      count: 0,
      message: answer.message ?? NO_MATCH,
      ...warning,
    };
  const results = answer.results.map((r) => {
    const anchor = r.match_message_id;
    const entry: Record<string, Json> = {
      session_id: r.session_id,
      when: r.when,
      source: r.source,
      model: r.model,
      title: r.title,
      matched_role: r.matched_role,
      match_message_id: anchor,
      snippet: r.snippet,
      bookend_start: r.bookend_start.map((m) => shapeMessage(m)),
      messages: r.messages.map((m) => shapeMessage(m, anchor)),
      bookend_end: r.bookend_end.map((m) => shapeMessage(m)),
      messages_before: r.messages_before,
      messages_after: r.messages_after,
    };
    if (r.parent_session_id) entry.parent_session_id = r.parent_session_id;
    return entry;
  });
  return {
    success: true,
    mode: 'discover',
    query: answer.query,
    results,
    count: results.length,
    sessions_searched: results.length,
    ...warning,
  };
}

export function clampWindow(window: number | undefined): number {
  const w = Math.floor(window ?? SCROLL_WINDOW_DEFAULT);
  if (!Number.isFinite(w)) return SCROLL_WINDOW_DEFAULT;
  return Math.max(SCROLL_WINDOW_MIN, Math.min(w, SCROLL_WINDOW_MAX));
}

export interface ScrollAnswer {
  session_id: string;
  around_message_id: number;
  meta: SessionMeta;
  window: number;
  messages: Message[];
  messages_before: number;
  messages_after: number;
  warning: string | null;
}

/**
 * Scroll: the raw slice around an anchor. An anchor in another session of the same
 * lineage (a compression child) rebinds to its owner with a warning; across
 * lineages it is refused (the agent's rules and wording).
 */
export function scroll(
  store: Store,
  sessionId: string,
  aroundId: number,
  window?: number,
): ScrollAnswer {
  const sid = sessionId.trim();
  if (!sid) throw new StoreError('scroll requires session_id', 'no-session');
  if (!Number.isInteger(aroundId))
    throw new StoreError('scroll requires integer around_message_id', 'no-message');
  const w = clampWindow(window);
  return store.read(() => {
    let meta = sessionMeta(store, sid);
    if (!meta) throw new StoreError(`session_id not found: ${sid}`, 'no-session');
    let slice = sliceAround(store, sid, aroundId, w);
    let owner = sid;
    let warning: string | null = null;
    if (slice.messages.length === 0) {
      const owning = owningSession(store, aroundId);
      if (owning && owning !== sid && rootOf(store, owning) === rootOf(store, sid)) {
        const rebound = sliceAround(store, owning, aroundId, w);
        const ownerMeta = sessionMeta(store, owning);
        if (rebound.messages.length > 0 && ownerMeta) {
          slice = rebound;
          meta = ownerMeta;
          owner = owning;
          warning = `around_message_id ${aroundId} lives in ${owning} (child of ${sid}); rebound transparently`;
        }
      }
    }
    if (slice.messages.length === 0)
      throw new StoreError(`around_message_id ${aroundId} not in session_id ${sid}`, 'no-message');
    return { session_id: owner, around_message_id: aroundId, meta, window: w, ...slice, warning };
  });
}

export function scrollJson(
  store: Store,
  sessionId: string,
  aroundId: number,
  window?: number,
): Record<string, Json> {
  const a = scroll(store, sessionId, aroundId, window);
  const out: Record<string, Json> = {
    success: true,
    mode: 'scroll',
    session_id: a.session_id,
    around_message_id: a.around_message_id,
    session_meta: metaJson(a.meta),
    window: a.window,
    messages: a.messages.map((m) => shapeMessage(m, a.around_message_id)),
    messages_before: a.messages_before,
    messages_after: a.messages_after,
  };
  if (a.warning) out.warning = a.warning;
  return out;
}

export function readJson(store: Store, sessionId: string): Record<string, Json> {
  const sid = sessionId.trim();
  return store.read(() => {
    const meta = sid ? sessionMeta(store, sid) : null;
    if (!meta) throw new StoreError(`session_id not found: ${sid}`, 'no-session');
    const r = readSession(store, sid);
    const out: Record<string, Json> = {
      success: true,
      mode: 'read',
      session_id: sid,
      session_meta: metaJson(meta),
      message_count: r.total,
      truncated: r.truncated,
      messages: r.messages.map((m) => shapeMessage(m)),
    };
    if (r.truncated)
      out.message = `Session has ${r.total} messages; showing first 20 + last 10. Pass around_message_id (any id above) to scroll the middle.`;
    return out;
  });
}
