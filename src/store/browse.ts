import { LINEAGE_DEPTH_CAP, MAX_EXCLUDED } from '../budgets.js';
import type { Store } from './store.js';
import { contentText, decodeContent, personText } from './content.js';
import { compressionChain, rootOf } from './lineage.js';
import { filterSessionsSql } from './filters.js';
import {
  HIDDEN_SOURCES_SQL,
  activitySql,
  isRoot,
  continuationOf,
  marker,
  visibleMessage,
} from './sqlParts.js';
import { perCommit } from './perCommit.js';
import type { Filters, HiddenCounts, HiddenReason, RecentRow } from './types.js';
import { POOL_LIMIT, POOL_MARGIN, POOL_SCAN_MESSAGES, PREVIEW_CHARS } from '../budgets.js';

export interface BrowseOptions {
  limit?: number;
  /** Also list what the agent hides: archived and hidden sessions, kanban/subagent/tool sources, delegate runs. */
  all?: boolean;
  /** Applied to the conversation's first row (sources, folder, model, dates) and its lineage (exclusions). */
  filters?: Filters;
  /** Pinned conversations first (the app, the readable list); false: last activity only, as the agent's browse. */
  pinnedFirst?: boolean;
}

export function previewOf(text: string): string {
  const folded = text.replace(/[\r\n]/g, ' ').trim();
  const chars = Array.from(folded);
  return chars.length > PREVIEW_CHARS ? chars.slice(0, PREVIEW_CHARS).join('') + '...' : folded;
}

/** The browse filters as SQL on a root row `s`, with their parameters (null when none is set). */
function filterSql(
  store: Store,
  f: Filters | undefined,
): { sql: string; params: unknown[] } | null {
  if (!f) return null;
  const parts: string[] = [];
  const params: unknown[] = [];
  const own = filterSessionsSql(store, f);
  if (own) {
    parts.push(`s.id IN (${own.sql})`);
    params.push(...own.params);
  }
  if (f.after !== undefined) {
    parts.push('s.started_at >= ?');
    params.push(f.after);
  }
  if (f.before !== undefined) {
    parts.push('s.started_at < ?');
    params.push(f.before);
  }
  const excluded = (f.excludeSessionIds ?? []).slice(0, MAX_EXCLUDED);
  if (excluded.length > 0) {
    parts.push(`s.id NOT IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(excluded.map((id) => rootOf(store, id.trim()))));
  }
  return parts.length > 0 ? { sql: parts.join(' AND '), params } : null;
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
  pinned: number;
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
    const extra = filterSql(store, opts.filters);
    const rank = (pool: string[] | null) =>
      store
        .stmt(rankSql(store, all, pool !== null, extra?.sql ?? null, opts.pinnedFirst ?? true))
        .all(...(pool ? [JSON.stringify(pool)] : []), ...(extra?.params ?? []), limit) as RootRow[];
    let roots: RootRow[] | null = null;
    // Widen the pool until it holds `limit` listable conversations or the scan runs out.
    for (let want = 2 * limit + POOL_MARGIN; roots === null && limit <= POOL_LIMIT; want *= 2) {
      const { ids, exhausted } = candidatePool(store, want);
      const ranked = rank(ids);
      if (ranked.length >= limit || exhausted) roots = ranked;
    }
    return recentRows(store, roots ?? rank(null));
  });
}

/**
 * Pinned sessions, read once per agent commit: there is no index on `pinned`,
 * and a scan of every session per browse costs ~0.8 ms.
 */
function pinnedIds(store: Store): string[] {
  if (!store.layout.has.pinned) return [];
  return perCommit(
    store,
    'pinned',
    () => store.stmt(`SELECT id FROM sessions WHERE pinned = 1`).pluck().all() as string[],
  );
}

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
  // Pinned conversations are listed first whatever their age: always candidates.
  for (const id of pinnedIds(store)) ids.add(id);
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

function rankSql(
  store: Store,
  all: boolean,
  pooled: boolean,
  extra: string | null,
  pinnedFirst: boolean,
): string {
  const { layout } = store;
  const where = `${listedFilter(store, all)}${extra ? ` AND ${extra}` : ''}`;
  const listed = pooled
    ? `SELECT s.id FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?)) AND ${where}`
    : `SELECT s.id FROM sessions s WHERE ${where}`;
  const pinned = layout.has.pinned ? 'COALESCE(r.pinned, 0)' : '0';
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
      FROM chain c CROSS JOIN sessions s ON s.id = c.cur_id GROUP BY c.root_id
    )
    SELECT r.id, r.source, r.title, r.started_at, act.eff, act.segs, r.message_count, r.ended_at,
      ${layout.has.archived ? 'r.archived' : '0'} AS archived,
      ${layout.has.hidden ? 'COALESCE(r.hidden, 0)' : '0'} AS hidden,
      ${pinned} AS pinned,
      ${marker('r', '_delegate_from')} AS delegate
    FROM act JOIN sessions r ON r.id = act.root_id
    ORDER BY ${layout.has.pinned && pinnedFirst ? `${pinned} DESC, ` : ''}act.eff DESC, r.started_at DESC, r.id DESC
    LIMIT ?`;
}

interface TipRow {
  id: string;
  title: string | null;
  message_count: number | null;
  ended_at: number | null;
  act: number;
}

/**
 * The listed rows of ranked roots. What every row needs (its branch count, the
 * opening words of its tip) is read for all rows in one statement each, not
 * per row; a chain's tip row and the rare fallbacks are read one by one.
 */
function recentRows(store: Store, roots: RootRow[]): RecentRow[] {
  const chains = roots.map((r) => (r.segs > 1 ? compressionChain(store, r.id) : [r.id]));
  const tips = roots.map((r, i): TipRow => {
    const chain = chains[i]!;
    const tipId = chain[chain.length - 1] ?? r.id;
    // A single-session conversation is its own tip: the ranking row already has it.
    if (tipId === r.id)
      return {
        id: r.id,
        title: r.title,
        message_count: r.message_count,
        ended_at: r.ended_at,
        act: r.eff,
      };
    return store
      .stmt(
        `SELECT s.id, s.title, s.message_count, s.ended_at, ${activitySql(store.layout, 's')} AS act
         FROM sessions s WHERE s.id = ?`,
      )
      .get(tipId) as TipRow;
  });
  const branches = branchCounts(store, chains);
  const openings = firstUserTexts(
    store,
    tips.map((t) => t.id),
  );
  return roots.map((r, i) => {
    const tip = tips[i]!;
    const chain = chains[i]!;
    return {
      session_id: tip.id,
      title: tip.title ?? r.title,
      source: r.source ?? '',
      started_at: r.started_at,
      last_active: tip.act,
      message_count: tip.message_count ?? 0,
      // The tip's opening is a compaction handoff more often than not: fall back to the root's first prompt.
      preview: previewOf(openings[i]! || (tip.id === r.id ? '' : firstUserText(store, r.id))),
      root_id: r.id,
      chain_length: chain.length,
      live: tip.ended_at === null,
      hidden_reason: hiddenReason(r),
      branches: branches[i]!,
      pinned: r.pinned === 1,
    };
  });
}

/** Branches off each chain (children with a branch marker, or started after a `branched` end), one statement. */
function branchCounts(store: Store, chains: string[][]): number[] {
  if (chains.length === 0) return [];
  const rows = store
    .stmt(
      `SELECT j.key AS i, (SELECT count(*) FROM sessions k JOIN sessions p ON p.id = k.parent_session_id
         WHERE k.parent_session_id IN (SELECT value FROM json_each(j.value))
           AND (${marker('k', '_branched_from')} IS NOT NULL OR (p.end_reason = 'branched' AND k.started_at >= COALESCE(p.ended_at, 0)))) AS n
       FROM json_each(?) j`,
    )
    .all(JSON.stringify(chains)) as { i: number; n: number }[];
  const out = chains.map(() => 0);
  for (const r of rows) out[r.i] = r.n;
  return out;
}

function hiddenReason(r: RootRow): HiddenReason | null {
  if (r.archived === 1) return 'archived';
  if (r.hidden === 1) return 'hidden';
  if (r.source === 'kanban' || r.source === 'subagent' || r.source === 'tool') return r.source;
  if (r.delegate === ORPHANED) return 'orphaned';
  if (r.delegate !== null) return 'delegate';
  return null;
}

/** The `_delegate_from` of a root tool run whose parent is gone: not listed, like any delegate run. */
const ORPHANED = '__orphaned__';

/**
 * Text of the first user message a person wrote, for previews of untitled
 * sessions: visible rows only, compaction summaries skipped (a composite
 * summary gives the person's text after its end marker). Ordered by
 * (timestamp, id) like the agent, which the (session_id, timestamp) index
 * every layout has answers without a sort.
 */
export function firstUserText(store: Store, sessionId: string): string {
  const rows = store
    .stmt(
      `SELECT m.content FROM messages m
       WHERE ${firstUserWhere(store, '?')}
       ORDER BY m.timestamp, m.id LIMIT 8`,
    )
    .pluck()
    .all(sessionId) as string[];
  for (const raw of rows) {
    const text = openingText(raw);
    if (text) return text;
  }
  return '';
}

/** Candidate rows `m` of firstUserText() in the session that `session` names. */
function firstUserWhere(store: Store, session: string): string {
  return `m.session_id = ${session} AND m.role = 'user' AND m.content IS NOT NULL AND m.content <> '' AND ${visibleMessage(store.layout, 'm')}`;
}

/** What a preview shows of one user message: the person's words, '' when it has none. */
function openingText(raw: string): string {
  // A preview needs the opening words only: cap before decoding a huge message
  // (a composite summary keeps the person's words at its end, so it is read whole).
  const head =
    raw.length > 4096 && !raw.startsWith('\u0000') && !raw.trimStart().startsWith('[CONTEXT')
      ? raw.slice(0, 4096)
      : raw;
  return personText(contentText(decodeContent(head))).trim();
}

/**
 * firstUserText() of many sessions: the first candidate row of each in one
 * statement (it nearly always has the person's words), the others one by one.
 */
function firstUserTexts(store: Store, sessionIds: string[]): string[] {
  if (sessionIds.length === 0) return [];
  const rows = store
    .stmt(
      `SELECT j.key AS i, (SELECT m.content FROM messages m
         WHERE ${firstUserWhere(store, 'j.value')}
         ORDER BY m.timestamp, m.id LIMIT 1) AS content
       FROM json_each(?) j`,
    )
    .all(JSON.stringify(sessionIds)) as { i: number; content: string | null }[];
  const out = sessionIds.map(() => '');
  for (const r of rows) {
    if (r.content === null) continue; // no candidate row at all
    // When the first row holds none of the person's words (a summary, structured
    // content only), read on as firstUserText() does.
    out[r.i] = openingText(r.content) || firstUserText(store, sessionIds[r.i]!);
  }
  return out;
}

/** Top-level conversations the default list leaves out, by reason (the status line's "412 hidden: …"). */
export function hiddenCounts(store: Store): HiddenCounts {
  const l = store.layout.has;
  const archived = l.archived ? 'COALESCE(s.archived, 0) = 1' : '0';
  const hidden = `NOT (${archived}) AND ${l.hidden ? 'COALESCE(s.hidden, 0) = 1' : '0'}`;
  const shown = `NOT (${archived}) AND NOT (${l.hidden ? 'COALESCE(s.hidden, 0) = 1' : '0'})`;
  const delegate = marker('s', '_delegate_from');
  const row = store
    .stmt(
      `SELECT
         SUM(CASE WHEN ${archived} THEN 1 ELSE 0 END) AS archived,
         SUM(CASE WHEN ${hidden} THEN 1 ELSE 0 END) AS hidden,
         SUM(CASE WHEN ${shown} AND s.source = 'kanban' THEN 1 ELSE 0 END) AS kanban,
         SUM(CASE WHEN ${shown} AND s.source = 'subagent' THEN 1 ELSE 0 END) AS subagent,
         SUM(CASE WHEN ${shown} AND s.source = 'tool' THEN 1 ELSE 0 END) AS tool,
         SUM(CASE WHEN ${shown} AND s.source NOT IN ${HIDDEN_SOURCES_SQL}
                   AND ${delegate} = '${ORPHANED}' THEN 1 ELSE 0 END) AS orphaned,
         SUM(CASE WHEN ${shown} AND s.source NOT IN ${HIDDEN_SOURCES_SQL}
                   AND ${delegate} IS NOT NULL AND ${delegate} <> '${ORPHANED}' THEN 1 ELSE 0 END) AS delegate
       FROM sessions s WHERE ${isRoot('s')}`,
    )
    .get() as Record<Exclude<keyof HiddenCounts, 'total'>, number | null>;
  const counts = {
    archived: row.archived ?? 0,
    hidden: row.hidden ?? 0,
    kanban: row.kanban ?? 0,
    subagent: row.subagent ?? 0,
    tool: row.tool ?? 0,
    delegate: row.delegate ?? 0,
    orphaned: row.orphaned ?? 0,
  };
  return { ...counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}
