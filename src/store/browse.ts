import type { Store } from './store.js';
import { contentText, decodeContent } from './content.js';
import { LINEAGE_DEPTH_CAP, compressionChain } from './lineage.js';
import {
  HIDDEN_SOURCES_SQL,
  activitySql,
  isRoot,
  continuationOf,
  marker,
  visibleMessage,
} from './sqlParts.js';
import type { HiddenCounts, HiddenReason, RecentRow } from './types.js';

export interface BrowseOptions {
  limit?: number;
  /** Also list what the agent hides: archived sessions and subagent/tool sources. */
  all?: boolean;
}

/** The agent's preview: first user message, newlines folded, 60 characters then "...". */
export const PREVIEW_CHARS = 60;

export function previewOf(text: string): string {
  const folded = text.replace(/[\r\n]/g, ' ').trim();
  const chars = Array.from(folded);
  return chars.length > PREVIEW_CHARS ? chars.slice(0, PREVIEW_CHARS).join('') + '...' : folded;
}

function listedFilter(store: Store, all: boolean): string {
  const parts = [isRoot('s')];
  if (!all) {
    parts.push(`s.source NOT IN ${HIDDEN_SOURCES_SQL}`, `${marker('s', '_delegate_from')} IS NULL`);
    if (store.layout.has.archived) parts.push('s.archived = 0');
    if (store.layout.has.hidden) parts.push('COALESCE(s.hidden, 0) = 0');
  }
  return parts.join(' AND ');
}

interface RootRow {
  id: string;
  source: string | null;
  title: string | null;
  started_at: number;
  eff: number;
  segs: number;
  message_count: number | null;
  ended_at: number | null;
  archived: number;
  hidden: number;
  delegate: string | null;
}

/**
 * Recent conversations, newest activity first, where a compression chain's
 * activity is the newest anywhere in the chain and the chain is one row
 * carrying its tip (STORE.md browse).
 *
 * Ranking every conversation means reading every session row, and in older
 * layouts each row drags a large system prompt with it. So a small `limit`
 * first ranks a candidate pool: the conversations that own the newest messages
 * (ids are insertion order), the newest started, and (v30) the newest heartbeats.
 * Only a conversation whose newest message is older by id than all of those
 * could be missed, and only if its clock ran ahead of every newer write.
 */
export function browse(store: Store, opts: BrowseOptions = {}): RecentRow[] {
  const limit = Math.max(0, Math.floor(opts.limit ?? 20));
  if (limit === 0) return [];
  const all = opts.all ?? false;
  return store.read(() => {
    const rank = (pool: string[] | null) =>
      store
        .stmt(rankSql(store, all, pool !== null))
        .all(...(pool ? [JSON.stringify(pool)] : []), limit) as RootRow[];
    let roots: RootRow[] | null = null;
    // Widen the pool until it holds `limit` listable conversations or the scan runs out.
    for (let want = 2 * limit + POOL_MARGIN; roots === null && limit <= POOL_LIMIT; want *= 2) {
      const { ids, exhausted } = candidatePool(store, want);
      const ranked = rank(ids);
      if (ranked.length >= limit || exhausted) roots = ranked;
    }
    return (roots ?? rank(null)).map((r) => recentRow(store, r));
  });
}

/** Up to this `limit`, browse ranks a candidate pool instead of every conversation. */
const POOL_LIMIT = 200;
/** The pool starts at twice `limit` plus this: chain segments collapse and hidden sessions drop out. */
const POOL_MARGIN = 10;
/** How many of the newest messages the pool looks through at most. */
const POOL_SCAN_MESSAGES = 20_000;

function candidatePool(store: Store, size: number): { ids: string[]; exhausted: boolean } {
  // The sessions of the newest messages. SQLite runs the subquery as a co-routine
  // and its DISTINCT stops at `size`, so these are the first `size` sessions seen
  // newest-first: ~1.3 ms vs ~5 ms stepping rows in JS, and vs ~12 ms for the
  // GROUP BY form SQL would guarantee (226k-message store). The order of sight is
  // SQLite's plan, not SQL's promise: browse.generated.test.ts checks the pool
  // against the full ranking.
  const newest = store
    .stmt(
      `SELECT DISTINCT session_id FROM
         (SELECT session_id FROM messages ORDER BY id DESC LIMIT ${POOL_SCAN_MESSAGES})
       LIMIT ?`,
    )
    .pluck()
    .all(size) as string[];
  const ids = new Set<string>(newest);
  const exhausted = newest.length < size;
  const started = store
    .stmt(`SELECT id FROM sessions ORDER BY started_at DESC LIMIT ?`)
    .pluck()
    .all(size) as string[];
  for (const id of started) ids.add(id);
  if (store.layout.has.lastActivityAt) {
    const beats = store
      .stmt(
        `SELECT id FROM sessions ORDER BY COALESCE(last_activity_at, started_at) DESC, started_at DESC LIMIT ?`,
      )
      .pluck()
      .all(size) as string[];
    for (const id of beats) ids.add(id);
  }
  // Rank whole conversations: a candidate segment stands for its lineage root.
  // Only roots are ever listed, so a walk that ends anywhere else (a cycle cut
  // by the depth cap) contributes nothing.
  const roots = store
    .stmt(
      `WITH RECURSIVE up(id, parent, depth) AS (
         SELECT s.id, s.parent_session_id, 0 FROM json_each(?) j JOIN sessions s ON s.id = j.value
         UNION
         SELECT p.id, p.parent_session_id, up.depth + 1 FROM up JOIN sessions p ON p.id = up.parent
         WHERE up.depth < ${LINEAGE_DEPTH_CAP}
       )
       SELECT DISTINCT up.id FROM up JOIN sessions s ON s.id = up.id WHERE ${isRoot('s')}`,
    )
    .pluck()
    .all(JSON.stringify([...ids])) as string[];
  return { ids: roots, exhausted };
}

function rankSql(store: Store, all: boolean, pooled: boolean): string {
  const { layout } = store;
  const listed = pooled
    ? `SELECT s.id FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?)) AND ${listedFilter(store, all)}`
    : `SELECT s.id FROM sessions s WHERE ${listedFilter(store, all)}`;
  return `
    WITH RECURSIVE
    listed AS (${listed}),
    chain(root_id, cur_id, depth) AS (
      SELECT id, id, 0 FROM listed
      UNION ALL
      SELECT c.root_id, k.id, c.depth + 1 FROM chain c
        JOIN sessions p ON p.id = c.cur_id
        JOIN sessions k ON k.parent_session_id = p.id
      WHERE ${continuationOf(layout, 'k', 'p')} AND k.id <> p.id AND c.depth < ${LINEAGE_DEPTH_CAP}
    ),
    act AS (
      SELECT c.root_id, MAX(${activitySql(layout, 's')}) AS eff, COUNT(*) AS segs
      FROM chain c JOIN sessions s ON s.id = c.cur_id GROUP BY c.root_id
    )
    SELECT r.id, r.source, r.title, r.started_at, act.eff, act.segs, r.message_count, r.ended_at,
      ${layout.has.archived ? 'r.archived' : '0'} AS archived,
      ${layout.has.hidden ? 'COALESCE(r.hidden, 0)' : '0'} AS hidden,
      ${marker('r', '_delegate_from')} AS delegate
    FROM act JOIN sessions r ON r.id = act.root_id
    ORDER BY act.eff DESC, r.started_at DESC, r.id DESC
    LIMIT ?`;
}

interface TipRow {
  id: string;
  title: string | null;
  message_count: number | null;
  ended_at: number | null;
  act: number;
}

function recentRow(store: Store, r: RootRow): RecentRow {
  const chain = r.segs > 1 ? compressionChain(store, r.id) : [r.id];
  const tipId = chain[chain.length - 1] ?? r.id;
  // A single-session conversation is its own tip: the ranking row already has it.
  const tip: TipRow =
    tipId === r.id
      ? {
          id: r.id,
          title: r.title,
          message_count: r.message_count,
          ended_at: r.ended_at,
          act: r.eff,
        }
      : (store
          .stmt(
            `SELECT s.id, s.title, s.message_count, s.ended_at, ${activitySql(store.layout, 's')} AS act
             FROM sessions s WHERE s.id = ?`,
          )
          .get(tipId) as TipRow);
  const branches = store
    .stmt(
      `SELECT count(*) AS n FROM sessions k JOIN sessions p ON p.id = k.parent_session_id
       WHERE k.parent_session_id IN (SELECT value FROM json_each(?))
         AND (${marker('k', '_branched_from')} IS NOT NULL OR (p.end_reason = 'branched' AND k.started_at >= COALESCE(p.ended_at, 0)))`,
    )
    .get(JSON.stringify(chain)) as { n: number };
  return {
    session_id: tip.id,
    title: tip.title ?? r.title,
    source: r.source ?? '',
    started_at: r.started_at,
    last_active: tip.act,
    message_count: tip.message_count ?? 0,
    preview: previewOf(firstUserText(store, tip.id)),
    root_id: r.id,
    chain_length: chain.length,
    live: tip.ended_at === null,
    hidden_reason: hiddenReason(r),
    branches: branches.n,
  };
}

function hiddenReason(r: RootRow): HiddenReason | null {
  if (r.archived === 1 || r.hidden === 1) return 'archived';
  if (r.source === 'subagent') return 'subagent';
  if (r.source === 'tool') return 'tool';
  if (r.delegate !== null) return 'delegate';
  return null;
}

/**
 * Text of the first visible user message, for previews of untitled sessions.
 * Ordered by (timestamp, id) like the agent, which the (session_id, timestamp)
 * index every layout has answers without a sort.
 */
export function firstUserText(store: Store, sessionId: string): string {
  const row = store
    .stmt(
      `SELECT m.content FROM messages m
       WHERE m.session_id = ? AND m.role = 'user' AND m.content IS NOT NULL AND ${visibleMessage(store.layout, 'm')}
       ORDER BY m.timestamp, m.id LIMIT 1`,
    )
    .get(sessionId) as { content: string | null } | undefined;
  // A preview needs the opening words only: cap before decoding a huge message.
  const raw = row?.content ?? '';
  return contentText(
    decodeContent(raw.length > 4096 && !raw.startsWith('\u0000') ? raw.slice(0, 4096) : raw),
  );
}

/** Top-level conversations the default list leaves out, by reason (the status line's "412 hidden: …"). */
export function hiddenCounts(store: Store): HiddenCounts {
  const l = store.layout.has;
  const archived = [
    l.archived ? 's.archived = 1' : '0',
    l.hidden ? 'COALESCE(s.hidden, 0) = 1' : '0',
  ].join(' OR ');
  const row = store
    .stmt(
      `SELECT
         SUM(CASE WHEN ${archived} THEN 1 ELSE 0 END) AS archived,
         SUM(CASE WHEN NOT (${archived}) AND s.source = 'subagent' THEN 1 ELSE 0 END) AS subagent,
         SUM(CASE WHEN NOT (${archived}) AND s.source = 'tool' THEN 1 ELSE 0 END) AS tool,
         SUM(CASE WHEN NOT (${archived}) AND s.source NOT IN ${HIDDEN_SOURCES_SQL}
                   AND ${marker('s', '_delegate_from')} IS NOT NULL THEN 1 ELSE 0 END) AS delegate
       FROM sessions s WHERE ${isRoot('s')}`,
    )
    .get() as Record<'archived' | 'subagent' | 'tool' | 'delegate', number | null>;
  const counts = {
    archived: row.archived ?? 0,
    subagent: row.subagent ?? 0,
    tool: row.tool ?? 0,
    delegate: row.delegate ?? 0,
  };
  return { ...counts, total: counts.archived + counts.subagent + counts.tool + counts.delegate };
}
