/**
 * A Hermes session at a glance, and its messages by position: what the
 * overview and range questions of the recall core (src/recall) ask of a
 * Hermes store. Positions count the session's live messages (the rows a read
 * shows: archived compaction turns and hidden rows are not the session's
 * content now) in display order from 0, so a position names the same message
 * in every answer until the agent writes more.
 */
import { StoreError } from './errors.js';
import { childrenOf, sessionMeta } from './lineage.js';
import { toMessage } from './messages.js';
import { shapeMessage, sessionLink, type Json } from './recall.js';
import { liveMessage, messageColumns, orderKey } from './sqlParts.js';
import type { Store } from './store.js';

type Entry = Record<string, Json>;

/** The first prompt shown in an overview is cut here (the messages question reads it whole). */
export const FIRST_PROMPT_CHARS = 2000;

/**
 * The live messages of a session with their positions: a CTE `pos(id, role,
 * idx)` over ids only (numbering the rows with their text took ~80 ms for a
 * 3,000-message session), joined back to `messages m` for the rows a page shows.
 */
function positioned(store: Store): string {
  const l = store.layout;
  return `WITH pos AS (SELECT m.id, m.role, ROW_NUMBER() OVER (ORDER BY ${orderKey(l, 'm')}, m.id) - 1 AS idx
    FROM messages m WHERE m.session_id = ? AND ${liveMessage(l, 'm')})`;
}

function rowsAt(store: Store): string {
  return `SELECT ${messageColumns(store.layout, 'm')}, pos.idx AS idx FROM pos JOIN messages m ON m.id = pos.id`;
}

/** The facts of one session; throws `no-session` when it is not in the store. */
export function overviewJson(store: Store, sessionId: string): Entry {
  return store.read(() => {
    const meta = sessionMeta(store, sessionId);
    if (!meta) throw new StoreError(`session_id not found: ${sessionId}`, 'no-session');
    const live = liveMessage(store.layout, 'm');
    // One pass over the session's rows: counts per role, and the first and last times.
    const counts = store
      .stmt(
        `SELECT m.role AS role, count(*) AS n, max(m.timestamp) AS last FROM messages m
         WHERE m.session_id = ? AND ${live} GROUP BY m.role ORDER BY m.role`,
      )
      .all(sessionId) as { role: string; n: number; last: number | null }[];
    const lasts = counts.map((c) => c.last).filter((t): t is number => typeof t === 'number');
    const span = { last: lasts.length > 0 ? Math.max(...lasts) : null };
    const first = store
      .stmt(
        `${positioned(store)} ${rowsAt(store)} WHERE pos.role = 'user' ORDER BY pos.idx LIMIT 1`,
      )
      .get(sessionId) as (Parameters<typeof toMessage>[0] & { idx: number }) | undefined;
    const parent = meta.parent_session_id ? sessionMeta(store, meta.parent_session_id) : null;
    const byRole: Entry = {};
    let total = 0;
    for (const c of counts) {
      byRole[c.role] = c.n;
      total += c.n;
    }
    return {
      session_id: meta.id,
      title: meta.title,
      folder: meta.cwd,
      model: meta.model,
      source: meta.source,
      started_at: meta.started_at,
      ended_at: meta.ended_at,
      end_reason: meta.end_reason,
      last_active: span.last ?? meta.started_at,
      message_count: total,
      messages_by_role: byRole,
      first_prompt: first
        ? { index: first.idx, ...shapeMessage(toMessage(first), undefined, FIRST_PROMPT_CHARS) }
        : null,
      parent: meta.parent_session_id
        ? {
            session_id: meta.parent_session_id,
            title: parent?.title ?? null,
            ...(parent ? {} : { missing: true }),
          }
        : null,
      children: childrenOf(store, meta.id).map((c) => ({
        session_id: c.id,
        title: c.title,
        kind: c.kind,
        started_at: c.started_at,
      })),
      link: sessionLink(store, meta.id),
    };
  });
}

/** Which messages a range question asks for, in positions (see the file comment). */
export interface RangeAsk {
  /** First and last position wanted (inclusive); null: the session's start / end. */
  from: number | null;
  to: number | null;
  /** Bounds given as message ids, resolved here to positions. */
  fromId?: string;
  toId?: string;
  roles?: readonly string[];
  /** The page starts at this position (a cursor's), never before `from`. */
  at: number;
  /** At most this many messages (one more is read to know whether the range goes on). */
  take: number;
}

export interface RangeRows {
  session_id: string;
  /** Live messages in the session. */
  total: number;
  /** The range's first and last position, the bounds resolved. */
  from: number;
  to: number;
  /** Messages in the range from the page's start, with `index`; up to take+1. */
  rows: Entry[];
}

/**
 * A range question's bounds in positions: `from`/`to` (ids resolved by `posOf`,
 * the tighter bound kept), where this page starts, and the roles asked (null: all).
 * Shared by the Hermes store and the other agents' index (src/agents/overview.ts).
 */
export function rangeBounds(
  q: RangeAsk,
  total: number,
  posOf: (name: 'from' | 'to', id: string) => number,
): { from: number; to: number; start: number; roles: readonly string[] | null } {
  let from = q.from ?? 0;
  let to = q.to ?? total - 1;
  if (q.fromId !== undefined) from = Math.max(from, posOf('from', q.fromId));
  if (q.toId !== undefined) to = Math.min(to, posOf('to', q.toId));
  return {
    from,
    to,
    start: Math.max(from, q.at),
    roles: q.roles && q.roles.length > 0 ? q.roles : null,
  };
}

/** The messages of a session by position; throws `no-session` or `no-message` in one line. */
export function rangeRows(store: Store, sessionId: string, q: RangeAsk): RangeRows {
  return store.read(() => {
    if (!sessionMeta(store, sessionId))
      throw new StoreError(`session_id not found: ${sessionId}`, 'no-session');
    const total = store
      .stmt(
        `SELECT count(*) FROM messages m WHERE m.session_id = ? AND ${liveMessage(store.layout, 'm')}`,
      )
      .pluck()
      .get(sessionId) as number;
    const posOf = (name: string, id: string): number => {
      const n = /^\d+$/.test(id.trim()) ? Number(id.trim()) : NaN;
      const idx = Number.isSafeInteger(n)
        ? (store
            .stmt(`${positioned(store)} SELECT idx FROM pos WHERE id = ?`)
            .pluck()
            .get(sessionId, n) as number | undefined)
        : undefined;
      if (idx === undefined)
        throw new StoreError(
          `${name} ${id} is not a message of session ${sessionId} (message ids of a Hermes session are whole numbers)`,
          'no-message',
        );
      return idx;
    };
    const { from, to, start, roles } = rangeBounds(q, total, posOf);
    const rows =
      start > to
        ? []
        : (store
            .stmt(
              `${positioned(store)} ${rowsAt(store)} WHERE pos.idx >= ? AND pos.idx <= ?
               ${roles ? `AND pos.role IN (SELECT value FROM json_each(?))` : ''} ORDER BY pos.idx LIMIT ?`,
            )
            .all(
              sessionId,
              start,
              to,
              ...(roles ? [JSON.stringify(roles)] : []),
              q.take + 1,
            ) as (Parameters<typeof toMessage>[0] & { idx: number })[]);
    return {
      session_id: sessionId,
      total,
      from,
      to,
      rows: rows.map((r) => ({ index: r.idx, ...shapeMessage(toMessage(r)) })),
    };
  });
}
