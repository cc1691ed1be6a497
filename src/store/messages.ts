import { inRead, type Store } from './store.js';
import {
  contentText,
  decodeContent,
  decodeToolCalls,
  isCompactionSummary,
  jsonText,
} from './content.js';
import { liveMessage, messageColumns, orderKey, visibleMessage } from './sqlParts.js';
import type { AnchoredView, Message } from './types.js';
import { BOOKEND_SIZE, NEARBY_IDS, READ_HEAD, READ_SMALL, READ_TAIL } from '../budgets.js';

interface MessageRow {
  id: number;
  session_id: string;
  role: string;
  content: string | null;
  tool_calls: string | null;
  tool_name: string | null;
  tool_call_id: string | null;
  timestamp: number;
  reasoning: string | null;
  reasoning_content: string | null;
  reasoning_details: string | null;
  codex_message_items: string | null;
  message_uid: string | null;
  ord: number;
}

export function toMessage(r: MessageRow): Message {
  const reasoning = r.reasoning || r.reasoning_content || jsonText(r.reasoning_details) || null;
  // A reasoning-only stop: the reply's text lives beside an empty `content`.
  const onlyReply =
    r.role === 'assistant' && !r.content && !r.tool_calls
      ? jsonText(r.codex_message_items) || reasoning
      : null;
  return {
    ...(r.message_uid ? { message_uid: r.message_uid } : {}),
    ...(onlyReply ? { reasoning_only: onlyReply } : {}),
    id: r.id,
    session_id: r.session_id,
    role: r.role,
    content: decodeContent(r.content),
    timestamp: r.timestamp,
    tool_name: r.tool_name || null,
    tool_calls: decodeToolCalls(r.tool_calls),
    tool_call_id: r.tool_call_id || null,
    reasoning,
  };
}

/** Roles a discover window keeps around its anchor (STORE.md). */
const WINDOW_ROLES = new Set(['user', 'assistant']);

function cols(store: Store): string {
  return messageColumns(store.layout, 'm');
}

function vis(store: Store): string {
  return visibleMessage(store.layout, 'm');
}

/**
 * Without an index on (session_id, id) (layouts before v30), "the n messages
 * before id X in session S" would sort every message of S. Messages of one
 * session sit close together by id, so first scan a bounded id range next to X
 * by rowid (NEARBY_IDS in src/budgets.ts), and fall back to the index only when
 * that range is not enough.
 */

/**
 * Whether a session's displayed order can differ from id order: it holds
 * archived compaction rows and the layout orders by `display_order`. An index
 * seek on (session_id, active); most sessions answer no and page by id.
 */
function displayOrdered(store: Store, sessionId: string): boolean {
  if (!store.layout.has.displayOrder || !store.layout.has.active) return false;
  return (
    store
      .stmt(`SELECT EXISTS (SELECT 1 FROM messages WHERE session_id = ? AND active = 0) AS x`)
      .pluck()
      .get(sessionId) === 1
  );
}

/** The display position of a message id (its `display_order`, else the id); sentinels stand for themselves. */
function ordOf(store: Store, id: number): number {
  if (!store.layout.has.displayOrder || !Number.isSafeInteger(id) || Math.abs(id) >= 2 ** 52)
    return id;
  const v = store
    .stmt(`SELECT ${orderKey(store.layout, 'm')} FROM messages m WHERE m.id = ?`)
    .pluck()
    .get(id) as number | undefined;
  return v ?? id;
}

function keyset(
  store: Store,
  sessionId: string,
  id: number,
  n: number,
  dir: 'before' | 'after',
  live = false,
): MessageRow[] {
  const [cmp, order, bound] = dir === 'before' ? ['<', 'DESC', '>='] : ['>', 'ASC', '<='];
  const vis = (s: Store) => (live ? liveMessage(s.layout, 'm') : visibleMessage(s.layout, 'm'));
  if (displayOrdered(store, sessionId)) {
    // A compacted session reads in display order; (order, id) keeps the keyset total.
    const key = orderKey(store.layout, 'm');
    return store
      .stmt(
        `SELECT ${cols(store)} FROM messages m WHERE m.session_id = ? AND (${key}, m.id) ${cmp} (?, ?) AND ${vis(store)}
         ORDER BY ${key} ${order}, m.id ${order} LIMIT ?`,
      )
      .all(sessionId, ordOf(store, id), id, n) as MessageRow[];
  }
  if (!store.layout.has.sessionIdIndex) {
    const rows = store
      .stmt(
        `SELECT ${cols(store)} FROM messages m NOT INDEXED
         WHERE m.id ${cmp} ? AND m.id ${bound} ? AND m.session_id = ? AND ${vis(store)}
         ORDER BY m.id ${order} LIMIT ?`,
      )
      .all(id, dir === 'before' ? id - NEARBY_IDS : id + NEARBY_IDS, sessionId, n) as MessageRow[];
    if (rows.length === n) return rows;
  }
  return store
    .stmt(
      `SELECT ${cols(store)} FROM messages m WHERE m.session_id = ? AND m.id ${cmp} ? AND ${vis(store)} ORDER BY m.id ${order} LIMIT ?`,
    )
    .all(sessionId, id, n) as MessageRow[];
}

/** Up to `n` visible messages of a session before `id` (exclusive), returned in id order. Keyset paging. */
function messagesBeforeImpl(store: Store, sessionId: string, id: number, n: number): Message[] {
  if (n <= 0) return [];
  return keyset(store, sessionId, id, n, 'before').reverse().map(toMessage);
}

/** Up to `n` visible messages of a session after `id` (exclusive), in id order. */
function messagesAfterImpl(store: Store, sessionId: string, id: number, n: number): Message[] {
  if (n <= 0) return [];
  return keyset(store, sessionId, id, n, 'after').map(toMessage);
}

/** One visible message by id, in any session. */
function messageByIdImpl(store: Store, id: number): Message | null {
  const row = store
    .stmt(`SELECT ${cols(store)} FROM messages m WHERE m.id = ? AND ${vis(store)}`)
    .get(id) as MessageRow | undefined;
  return row ? toMessage(row) : null;
}

/** The session that owns a message id, visible or not (for lineage rebinding and pruned anchors). */
function owningSessionImpl(store: Store, id: number): string | null {
  const row = store.stmt(`SELECT session_id FROM messages WHERE id = ?`).get(id) as
    { session_id: string } | undefined;
  return row?.session_id ?? null;
}

export interface Slice {
  messages: Message[];
  messages_before: number;
  messages_after: number;
}

/**
 * The raw slice around an anchor: up to `window` visible messages before it, the
 * anchor, up to `window` after, in id order (the agent's get_messages_around).
 * Empty when the anchor is not a visible message of this session.
 */
function sliceAroundImpl(store: Store, sessionId: string, anchorId: number, window: number): Slice {
  const anchor = store
    .stmt(
      `SELECT ${cols(store)} FROM messages m WHERE m.id = ? AND m.session_id = ? AND ${vis(store)}`,
    )
    .get(anchorId, sessionId) as MessageRow | undefined;
  if (!anchor) return { messages: [], messages_before: 0, messages_after: 0 };
  const before = messagesBeforeImpl(store, sessionId, anchorId, window);
  const after = messagesAfterImpl(store, sessionId, anchorId, window);
  return {
    messages: [...before, toMessage(anchor), ...after],
    messages_before: before.length,
    messages_after: after.length,
  };
}

/** An anchor of a compact view: a message id in its session. */
export interface Anchor {
  sessionId: string;
  anchorId: number;
}

/** An anchor's row and how many visible messages a ±window slice around it would hold. */
export interface AnchorCounts {
  anchor: Message;
  messages_before: number;
  messages_after: number;
}

/**
 * What sliceAround() tells of each anchor, without reading the neighbours'
 * rows: the anchor (null when it is not a visible message of its session) and
 * the lengths of its before and after parts. One statement for every anchor
 * (a search's compact results) instead of five per anchor. A count stops at
 * `window` rows, which is the length the keyset page would have, in whatever
 * order they are found; a session whose displayed order is `display_order`
 * (displayOrdered()) is counted by (order, id) as keyset() pages it.
 */
function anchorCountsImpl(
  store: Store,
  anchors: readonly Anchor[],
  window: number,
): (AnchorCounts | null)[] {
  if (anchors.length === 0) return [];
  const { layout } = store;
  // A literal LIMIT: bound as a parameter, it made the statement ~3× slower.
  const limit = Math.max(0, Math.floor(window));
  const count = (cmp: '<' | '>', ordered: boolean) => {
    const key = (a: string) => orderKey(layout, a);
    const where = ordered ? `(${key('b')}, b.id) ${cmp} (${key('m')}, m.id)` : `b.id ${cmp} m.id`;
    return `(SELECT count(*) FROM (SELECT 1 FROM messages b
      WHERE b.session_id = m.session_id AND ${where} AND ${visibleMessage(layout, 'b')} LIMIT ${limit}))`;
  };
  const side = (cmp: '<' | '>') =>
    layout.has.displayOrder && layout.has.active
      ? `CASE WHEN EXISTS (SELECT 1 FROM messages x WHERE x.session_id = m.session_id AND x.active = 0)
          THEN ${count(cmp, true)} ELSE ${count(cmp, false)} END`
      : count(cmp, false);
  const rows = store
    .stmt(
      `SELECT j.key AS anchor_index, ${cols(store)}, ${side('<')} AS n_before, ${side('>')} AS n_after
       FROM json_each(?) j JOIN messages m ON m.id = json_extract(j.value, '$[1]')
       WHERE m.session_id = json_extract(j.value, '$[0]') AND ${vis(store)}`,
    )
    .all(JSON.stringify(anchors.map((a) => [a.sessionId, a.anchorId]))) as (MessageRow & {
    anchor_index: number;
    n_before: number;
    n_after: number;
  })[];
  const out: (AnchorCounts | null)[] = anchors.map(() => null);
  for (const r of rows)
    out[r.anchor_index] = {
      anchor: toMessage(r),
      messages_before: r.n_before,
      messages_after: r.n_after,
    };
  return out;
}

// Non-empty content, tested with <> '' rather than the agent's length() > 0:
// SQLite's length() stops at the NUL that starts structured (multimodal) content,
// which would wrongly drop those messages from the bookends.
function bookends(
  store: Store,
  sessionId: string,
  edge: { id: number },
  side: 'start' | 'end',
): Message[] {
  const cmp = side === 'start' ? '<' : '>';
  const dir = side === 'start' ? 'ASC' : 'DESC';
  const ordered = displayOrdered(store, sessionId);
  const key = ordered ? orderKey(store.layout, 'm') : 'm.id';
  const rows = store
    .stmt(
      `SELECT ${cols(store)} FROM messages m
       WHERE m.session_id = ? AND ${ordered ? `(${key}, m.id) ${cmp} (?, ?)` : `m.id ${cmp} ?`}
         AND m.role IN ('user', 'assistant')
         AND m.content IS NOT NULL AND m.content <> '' AND ${vis(store)}
       ORDER BY ${key} ${dir}${ordered ? `, m.id ${dir}` : ''} LIMIT ${BOOKEND_SIZE}`,
    )
    .all(sessionId, ...(ordered ? [ordOf(store, edge.id), edge.id] : [edge.id])) as MessageRow[];
  if (side === 'end') rows.reverse();
  // As the agent does: the three edge messages, then compaction summaries dropped.
  return rows.map(toMessage).filter((m) => !isCompactionSummary(contentText(m.content)));
}

/**
 * The agent's anchored view: the slice filtered to user/assistant (the anchor is
 * always kept), with the session's opening and closing messages outside it.
 */
function anchoredViewImpl(
  store: Store,
  sessionId: string,
  anchorId: number,
  window = 5,
): AnchoredView {
  const slice = sliceAroundImpl(store, sessionId, anchorId, window);
  const first = slice.messages[0];
  const last = slice.messages[slice.messages.length - 1];
  if (!first || !last)
    return {
      messages: [],
      bookend_start: [],
      bookend_end: [],
      messages_before: 0,
      messages_after: 0,
    };
  return {
    messages: slice.messages.filter((m) => m.id === anchorId || WINDOW_ROLES.has(m.role)),
    bookend_start: bookends(store, sessionId, first, 'start'),
    bookend_end: bookends(store, sessionId, last, 'end'),
    messages_before: slice.messages_before,
    messages_after: slice.messages_after,
  };
}

/** First or last `n` visible messages of a session, in id order. */
function sessionEdgeImpl(
  store: Store,
  sessionId: string,
  edge: 'head' | 'tail',
  n: number,
): Message[] {
  return edge === 'head'
    ? messagesAfterImpl(store, sessionId, Number.MIN_SAFE_INTEGER, n)
    : messagesBeforeImpl(store, sessionId, Number.MAX_SAFE_INTEGER, n);
}

/** Visible messages in a session, and the position of an id among them (for "62%" and k/N). */
function countVisibleImpl(store: Store, sessionId: string): number {
  const row = store
    .stmt(`SELECT count(*) AS n FROM messages m WHERE m.session_id = ? AND ${vis(store)}`)
    .get(sessionId) as { n: number };
  return row.n;
}

function countBeforeImpl(store: Store, sessionId: string, id: number): number {
  if (displayOrdered(store, sessionId)) {
    const key = orderKey(store.layout, 'm');
    return store
      .stmt(
        `SELECT count(*) FROM messages m WHERE m.session_id = ? AND (${key}, m.id) < (?, ?) AND ${vis(store)}`,
      )
      .pluck()
      .get(sessionId, ordOf(store, id), id) as number;
  }
  const row = store
    .stmt(
      `SELECT count(*) AS n FROM messages m WHERE m.session_id = ? AND m.id < ? AND ${vis(store)}`,
    )
    .get(sessionId, id) as { n: number };
  return row.n;
}

function readSessionImpl(
  store: Store,
  sessionId: string,
): { total: number; truncated: boolean; messages: Message[] } {
  // Live rows only: archived compaction turns are history the window shows, not the session's content now.
  const total = store
    .stmt(
      `SELECT count(*) FROM messages m WHERE m.session_id = ? AND ${liveMessage(store.layout, 'm')}`,
    )
    .pluck()
    .get(sessionId) as number;
  const head = (n: number) =>
    keyset(store, sessionId, Number.MIN_SAFE_INTEGER, n, 'after', true).map(toMessage);
  const tail = (n: number) =>
    keyset(store, sessionId, Number.MAX_SAFE_INTEGER, n, 'before', true).reverse().map(toMessage);
  if (total <= READ_SMALL) return { total, truncated: false, messages: head(READ_SMALL) };
  return { total, truncated: true, messages: [...head(READ_HEAD), ...tail(READ_TAIL)] };
}

/** Which of these message ids are still shown (not pruned, rewound or hidden since they were read). */
function visibleIdsImpl(store: Store, ids: readonly number[]): number[] {
  if (ids.length === 0) return [];
  return store
    .stmt(
      `SELECT m.id FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND ${vis(store)}`,
    )
    .pluck()
    .all(JSON.stringify(ids)) as number[];
}

export const visibleIds = inRead(visibleIdsImpl);
export const messagesBefore = inRead(messagesBeforeImpl);
export const messagesAfter = inRead(messagesAfterImpl);
export const messageById = inRead(messageByIdImpl);
export const owningSession = inRead(owningSessionImpl);
export const sliceAround = inRead(sliceAroundImpl);
export const anchorCounts = inRead(anchorCountsImpl);
export const anchoredView = inRead(anchoredViewImpl);
export const sessionEdge = inRead(sessionEdgeImpl);
export const countVisible = inRead(countVisibleImpl);
export const countBefore = inRead(countBeforeImpl);
export const readSession = inRead(readSessionImpl);
