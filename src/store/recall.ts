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
import { stripAnsi } from './content.js';
import type { Filters, Message, SearchOptions, SessionMeta } from './types.js';
import {
  BOOKEND_CHARS,
  DEFAULT_SCROLL_WINDOW,
  MAX_SCROLL_WINDOW,
  MIN_SCROLL_WINDOW,
  READ_CHARS,
  WINDOW_CHARS,
} from '../budgets.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/** Text cut to `max` code points (as the agent's Python counts) with "…"; null when it fits. */
function cap(text: string, max: number): { text: string; chars: number } | null {
  if (text.length <= max) return null;
  const points = Array.from(text);
  if (points.length <= max) return null;
  return { text: points.slice(0, max).join('') + '…', chars: points.length };
}

/**
 * The agent's _shape_message: fixed key order, empty optional keys dropped,
 * `content` always present, ANSI escapes stripped, text capped at `maxChars`
 * with `content_truncated` and `original_content_chars`. A reasoning-only
 * reply shows its text with `reasoning_only: true` instead of a blank row;
 * `message_uid` is passed through where the store has it.
 */
export function shapeMessage(
  m: Message,
  anchorId?: number,
  maxChars?: number,
): Record<string, Json> {
  let content = m.content as Json;
  let reasoningOnly = false;
  if ((content === null || content === '') && m.reasoning_only) {
    content = m.reasoning_only;
    reasoningOnly = true;
  }
  let truncated: { text: string; chars: number } | null = null;
  if (typeof content === 'string') {
    content = stripAnsi(content);
    if (maxChars !== undefined) {
      truncated = cap(content, maxChars);
      if (truncated) content = truncated.text;
    }
  }
  const out: Record<string, Json> = {
    id: m.id,
    role: m.role,
    content,
    timestamp: m.timestamp,
  };
  if (m.tool_name) out.tool_name = m.tool_name;
  if (m.tool_calls) out.tool_calls = m.tool_calls as Json;
  if (m.tool_call_id) out.tool_call_id = m.tool_call_id;
  if (anchorId !== undefined && m.id === anchorId) out.anchor = true;
  if (truncated) {
    out.content_truncated = true;
    out.original_content_chars = truncated.chars;
  }
  if (reasoningOnly) out.reasoning_only = true;
  if (m.message_uid) out.message_uid = m.message_uid;
  return out;
}

/** `@session:<profile>/<id>`, the reference the agent resolves itself; bare when there is no profile name. */
export function sessionLink(store: Store, sessionId: string): string {
  const profile = store.profile.trim();
  return profile ? `@session:${profile}/${sessionId}` : `@session:${sessionId}`;
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
  opts: { limit?: number; all?: boolean; filters?: Filters; pinnedFirst?: boolean },
): Record<string, Json> {
  const rows = browse(store, opts);
  const results = rows.map((r) => ({
    session_id: r.session_id,
    link: sessionLink(store, r.session_id),
    title: r.title,
    source: r.source,
    started_at: r.started_at,
    last_active: r.last_active,
    message_count: r.message_count,
    preview: r.preview,
    ...(r.pinned ? { pinned: true } : {}),
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
  const detail = opts.detail ?? 'adaptive';
  // Only present when the search was degraded, so the agent's shape is otherwise unchanged.
  const warning: Record<string, Json> = answer.warning ? { warning: answer.warning } : {};
  if (answer.results.length === 0)
    return {
      success: true,
      mode: 'discover',
      query: answer.query,
      detail,
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
      snippet: stripAnsi(r.snippet),
      bookend_start: r.bookend_start.map((m) => shapeMessage(m, undefined, BOOKEND_CHARS)),
      messages: r.messages.map((m) => shapeMessage(m, anchor, WINDOW_CHARS)),
      bookend_end: r.bookend_end.map((m) => shapeMessage(m, undefined, BOOKEND_CHARS)),
      messages_before: r.messages_before,
      messages_after: r.messages_after,
      detail: r.detail,
    };
    if (r.parent_session_id) entry.parent_session_id = r.parent_session_id;
    entry.link = sessionLink(store, r.session_id);
    // Only on relaxed hits (no conversation had every word): exact hits keep the agent's shape.
    if (r.match === 'relaxed') entry.match = 'relaxed';
    return entry;
  });
  const relaxed: Record<string, Json> = answer.relaxed
    ? { relaxed_count: answer.relaxed.count, message: answer.relaxed.message }
    : {};
  return {
    success: true,
    mode: 'discover',
    query: answer.query,
    detail,
    results,
    count: results.length,
    sessions_searched: results.length,
    ...relaxed,
    ...warning,
  };
}

export function clampWindow(window: number | undefined): number {
  const w = Math.floor(window ?? DEFAULT_SCROLL_WINDOW);
  if (!Number.isFinite(w)) return DEFAULT_SCROLL_WINDOW;
  return Math.max(MIN_SCROLL_WINDOW, Math.min(w, MAX_SCROLL_WINDOW));
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
      link: sessionLink(store, sid),
      session_meta: metaJson(meta),
      message_count: r.total,
      truncated: r.truncated,
      messages: r.messages.map((m) => shapeMessage(m, undefined, READ_CHARS)),
    };
    if (r.truncated)
      out.message = `Session has ${r.total} messages; showing first 20 + last 10. Pass around_message_id (any id above) to scroll the middle.`;
    return out;
  });
}
