/**
 * Another agent's conversation at a glance, and its messages by position,
 * from lookback's index: the overview and range questions of the recall core
 * (src/recall). Positions count the rows a read shows (a copy is never one;
 * what was taken back only with `all`) in the conversation's order from 0.
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../store/errors.js';
import { rangeBounds, type RangeAsk } from '../store/overview.js';
import type { Json } from '../store/recall.js';
import type { AppMsg } from './appReads.js';
import { FLAG, OUT_OF_TRANSCRIPT, type Agent } from './model.js';
import { findConversation, shape } from './recall.js';

type Entry = Record<string, Json>;

/** The first prompt shown in an overview is cut here (a range reads it whole). */
const FIRST_PROMPT_CHARS = 2000;

const secs = (ms: number | null): number | null => (ms === null ? null : ms / 1000);

function shown(all: boolean): string {
  return `flags & ${all ? FLAG.copied : OUT_OF_TRANSCRIPT} = 0`;
}

/** Positions over ids only (`pos(id, role, kind, idx)`), joined back to the rows a page shows. */
function positioned(all: boolean): string {
  return `WITH pos AS (SELECT id, role, kind, ROW_NUMBER() OVER (ORDER BY ordinal) - 1 AS idx
    FROM messages WHERE conv_id = ? AND ${shown(all)})`;
}

const ROWS_AT = `SELECT m.*, pos.idx AS idx FROM pos JOIN messages m ON m.id = pos.id`;

function conversation(db: Database.Database, agents: readonly Agent[], sessionId: string) {
  const c = findConversation(db, agents, sessionId);
  if (!c) throw new StoreError(`session_id not found: ${sessionId.trim()}`, 'no-session');
  return c;
}

function cut(m: Entry, max: number): Entry {
  const text = m.content;
  if (typeof text !== 'string' || text.length <= max) return m;
  return {
    ...m,
    content: text.slice(0, max) + '…',
    content_truncated: true,
    original_content_chars: text.length,
  };
}

export function agentOverviewJson(
  db: Database.Database,
  agents: readonly Agent[],
  sessionId: string,
  all = false,
): Entry {
  const c = conversation(db, agents, sessionId);
  const counts = db
    .prepare(
      `SELECT role, count(*) AS n FROM messages WHERE conv_id = ? AND ${shown(all)} GROUP BY role ORDER BY role`,
    )
    .all(c.id) as { role: string; n: number }[];
  const span = db
    .prepare(
      `SELECT min(created_at) AS first, max(created_at) AS last FROM messages WHERE conv_id = ? AND ${shown(all)}`,
    )
    .get(c.id) as { first: number | null; last: number | null };
  const first = db
    .prepare(
      `${positioned(all)} ${ROWS_AT} WHERE pos.role = 'user' AND pos.kind NOT IN ('injected', 'meta') ORDER BY pos.idx LIMIT 1`,
    )
    .get(c.id) as (AppMsg & { idx: number }) | undefined;
  const parent = c.parent_native_id ? findConversation(db, [c.agent], c.parent_native_id) : null;
  const children = db
    .prepare(
      `SELECT native_id, title, parent_kind, started_at FROM conversations
       WHERE agent = ? AND parent_native_id = ? ORDER BY started_at, native_id`,
    )
    .all(c.agent, c.native_id) as {
    native_id: string;
    title: string | null;
    parent_kind: string | null;
    started_at: number | null;
  }[];
  const byRole: Entry = {};
  let total = 0;
  for (const r of counts) {
    byRole[r.role] = r.n;
    total += r.n;
  }
  return {
    session_id: c.native_id,
    agent: c.agent,
    title: c.title,
    folder: c.cwd,
    ...(c.git_branch ? { git_branch: c.git_branch } : {}),
    model: c.model,
    source: c.source ?? c.agent,
    started_at: secs(c.started_at),
    ended_at: null,
    end_reason: null,
    last_active: secs(span.last ?? c.last_active_at),
    message_count: total,
    messages_by_role: byRole,
    first_prompt: first ? { index: first.idx, ...cut(shape(first), FIRST_PROMPT_CHARS) } : null,
    parent: c.parent_native_id
      ? {
          session_id: c.parent_native_id,
          title: parent?.title ?? null,
          ...(c.parent_kind ? { kind: c.parent_kind } : {}),
          ...(parent ? {} : { missing: true }),
        }
      : null,
    children: children.map((k) => ({
      session_id: k.native_id,
      title: k.title,
      kind: k.parent_kind ?? 'other',
      started_at: secs(k.started_at),
    })),
    ...(c.gone ? { gone: true } : {}),
  };
}

/** The Hermes range question, plus `all` (taken-back messages too). */
export interface AgentRangeAsk extends RangeAsk {
  all?: boolean;
}

export function agentRangeRows(
  db: Database.Database,
  agents: readonly Agent[],
  sessionId: string,
  q: AgentRangeAsk,
): { session_id: string; agent: string; total: number; from: number; to: number; rows: Entry[] } {
  const c = conversation(db, agents, sessionId);
  const all = q.all ?? false;
  const total = (
    db
      .prepare(`SELECT count(*) AS n FROM messages WHERE conv_id = ? AND ${shown(all)}`)
      .get(c.id) as {
      n: number;
    }
  ).n;
  const posOf = (name: string, id: string): number => {
    const idx = db
      .prepare(
        `${positioned(all)} SELECT pos.idx FROM pos JOIN messages m ON m.id = pos.id WHERE m.anchor = ?`,
      )
      .pluck()
      .get(c.id, id.trim()) as number | undefined;
    if (idx === undefined)
      throw new StoreError(
        `${name} ${id} is not a message of session ${c.native_id}`,
        'no-message',
      );
    return idx;
  };
  const { from, to, start, roles } = rangeBounds(q, total, posOf);
  const rows =
    start > to
      ? []
      : (db
          .prepare(
            `${positioned(all)} ${ROWS_AT} WHERE pos.idx >= ? AND pos.idx <= ?
             ${roles ? `AND pos.role IN (SELECT value FROM json_each(?))` : ''} ORDER BY pos.idx LIMIT ?`,
          )
          .all(
            c.id,
            start,
            to,
            ...(roles ? [JSON.stringify(roles)] : []),
            q.take + 1,
          ) as (AppMsg & {
          idx: number;
        })[]);
  return {
    session_id: c.native_id,
    agent: c.agent,
    total,
    from,
    to,
    rows: rows.map((r) => ({ index: r.idx, ...shape(r) })),
  };
}
