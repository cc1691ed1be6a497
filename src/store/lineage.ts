import { inRead, type Store } from './store.js';
import { continuationOf, marker } from './sqlParts.js';
import { perCommit } from './perCommit.js';
import type { SessionMeta } from './types.js';
import { LINEAGE_DEPTH_CAP } from '../budgets.js';

interface SessionRow {
  id: string;
  source: string | null;
  model: string | null;
  title: string | null;
  parent_session_id: string | null;
  started_at: number | null;
  ended_at: number | null;
  end_reason: string | null;
  message_count: number | null;
  cwd: string | null;
  archived: number | null;
  model_config: string | null;
}

function metaColumns(store: Store): string {
  const l = store.layout.has;
  return `s.id, s.source, s.model, s.title, s.parent_session_id, s.started_at, s.ended_at, s.end_reason,
    s.message_count, ${l.cwd ? 's.cwd' : 'NULL AS cwd'}, ${l.archived ? 's.archived' : '0 AS archived'}, s.model_config`;
}

function toMeta(r: SessionRow): SessionMeta {
  return {
    id: r.id,
    source: r.source ?? '',
    model: r.model,
    title: r.title,
    parent_session_id: r.parent_session_id,
    started_at: r.started_at ?? 0,
    ended_at: r.ended_at,
    end_reason: r.end_reason,
    message_count: r.message_count ?? 0,
    cwd: r.cwd,
    archived: r.archived === 1,
    model_config: r.model_config,
  };
}

function sessionMetaImpl(store: Store, id: string): SessionMeta | null {
  const row = store.stmt(`SELECT ${metaColumns(store)} FROM sessions s WHERE s.id = ?`).get(id) as
    SessionRow | undefined;
  return row ? toMeta(row) : null;
}

/**
 * The lineage root: follow parent links (every kind, as the agent does for dedupe)
 * until a session has no parent, the parent is missing, a session repeats, or the
 * depth cap is reached.
 */
function rootOfImpl(store: Store, id: string): string {
  const row = store
    .stmt(
      `WITH RECURSIVE up(id, parent, depth, path) AS (
         SELECT id, parent_session_id, 0, '/' || id || '/' FROM sessions WHERE id = ?
         UNION ALL
         SELECT s.id, s.parent_session_id, up.depth + 1, up.path || s.id || '/'
         FROM up JOIN sessions s ON s.id = up.parent
         WHERE up.depth < ${LINEAGE_DEPTH_CAP} AND instr(up.path, '/' || s.id || '/') = 0
       )
       SELECT id FROM up ORDER BY depth DESC LIMIT 1`,
    )
    .get(id) as { id: string } | undefined;
  return row?.id ?? id;
}

/**
 * Lineage roots, remembered until the agent next commits: a search walks
 * hundreds of hits in the same few hundred sessions, keystroke after
 * keystroke, and parent links change only when the agent writes. Call
 * inside Store.read (the cache is that snapshot's).
 */
export function rootResolver(store: Store): (id: string) => string {
  const cache = perCommit(store, 'lineage roots', () => new Map<string, string>());
  return (id) => {
    let r = cache.get(id);
    if (r === undefined) {
      r = rootOfImpl(store, id);
      cache.set(id, r);
    }
    return r;
  };
}

/** The next segment of a compression chain: the agent's get_compression_tip step. */
function continuationChildImpl(store: Store, id: string): string | null {
  const row = store
    .stmt(
      `SELECT k.id FROM sessions k JOIN sessions p ON p.id = k.parent_session_id
       WHERE k.parent_session_id = ? AND ${continuationOf(store.layout, 'k', 'p')}
       ORDER BY CASE WHEN k.end_reason = 'compression' THEN 0 WHEN k.ended_at IS NULL THEN 1 ELSE 2 END,
                COALESCE((SELECT MAX(timestamp) FROM messages WHERE session_id = k.id), k.started_at) DESC,
                k.started_at DESC, k.id DESC
       LIMIT 1`,
    )
    .get(id) as { id: string } | undefined;
  return row?.id ?? null;
}

/** The compression predecessor of a session, when it is a continuation. */
function continuationParentImpl(store: Store, id: string): string | null {
  const row = store
    .stmt(
      `SELECT p.id FROM sessions k JOIN sessions p ON p.id = k.parent_session_id
       WHERE k.id = ? AND ${continuationOf(store.layout, 'k', 'p')}`,
    )
    .get(id) as { id: string } | undefined;
  return row?.id ?? null;
}

/**
 * The compression chain a session belongs to, oldest segment first: walk up
 * through continuation links, then down to the tip. Cycle-guarded and capped.
 */
function compressionChainImpl(store: Store, id: string): string[] {
  const seen = new Set<string>([id]);
  const up: string[] = [];
  for (let cur = id, i = 0; i < LINEAGE_DEPTH_CAP; i++) {
    const p = continuationParentImpl(store, cur);
    if (!p || seen.has(p)) break;
    seen.add(p);
    up.unshift(p);
    cur = p;
  }
  const down: string[] = [];
  for (let cur = id, i = 0; i < LINEAGE_DEPTH_CAP; i++) {
    const c = continuationChildImpl(store, cur);
    if (!c || seen.has(c)) break;
    seen.add(c);
    down.push(c);
    cur = c;
  }
  return [...up, id, ...down];
}

export type ChildKind = 'continuation' | 'branch' | 'delegate' | 'reset' | 'other';

export interface Child {
  id: string;
  kind: ChildKind;
  title: string | null;
  source: string;
  started_at: number;
}

const RESET_REASONS = `('session_reset', 'session_switch', 'idle', 'daily', 'suspended', 'resume_pending_expired')`;

/** Direct children of a session, each classified by the rules of STORE.md "Lineage". */
function childrenOfImpl(store: Store, id: string): Child[] {
  const rows = store
    .stmt(
      `SELECT k.id, k.title, k.source, k.started_at,
         CASE
           WHEN ${marker('k', '_delegate_from')} IS NOT NULL OR k.source = 'subagent' THEN 'delegate'
           WHEN ${marker('k', '_branched_from')} IS NOT NULL
             OR (p.end_reason = 'branched' AND k.started_at >= COALESCE(p.ended_at, 0)) THEN 'branch'
           WHEN ${marker('k', '_reset_from')} IS NOT NULL OR p.end_reason IN ${RESET_REASONS} THEN 'reset'
           WHEN ${continuationOf(store.layout, 'k', 'p')} THEN 'continuation'
           ELSE 'other'
         END AS kind
       FROM sessions k JOIN sessions p ON p.id = k.parent_session_id
       WHERE k.parent_session_id = ? AND k.id <> p.id
       ORDER BY k.started_at, k.id`,
    )
    .all(id) as (Omit<Child, 'source'> & { source: string | null })[];
  return rows.map((r) => ({ ...r, source: r.source ?? '' }));
}

export const sessionMeta = inRead(sessionMetaImpl);
export const rootOf = inRead((store: Store, id: string) => rootResolver(store)(id));
export const compressionChain = inRead(compressionChainImpl);
export const childrenOf = inRead(childrenOfImpl);
