/**
 * Facts about whole conversations that the app shows beside a title: how many
 * messages it can show (the same count an opened window pages through), who
 * pinned it, when it was last read, how it ended, and its context (folder,
 * branch, model, tokens, cost). Columns that only newer layouts have read as
 * NULL elsewhere.
 */
import { activitySql, visibleMessage } from './sqlParts.js';
import type { Store } from './store.js';

/** A session column, or NULL on layouts without it (the layout read its columns once). */
function col(store: Store, name: string, alias = 's'): string {
  return store.layout.sessionColumns.has(name) ? `${alias}.${name}` : `NULL`;
}

/** What the list needs of each conversation, by chain (oldest segment first). */
export interface ListFacts {
  /** Visible messages over the whole chain: what an opened window counts. */
  messages: number;
  pinned: boolean;
  /** The tip's unread watermark (epoch seconds), null when the store has none. */
  lastReadAt: number | null;
  /** The tip's end. */
  endedAt: number | null;
  endReason: string | null;
}

/** Visible messages of each session (one grouped count, an index range per session). */
export function visibleCounts(store: Store, sessionIds: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (sessionIds.length === 0) return out;
  const rows = store
    .stmt(
      `SELECT m.session_id AS id, count(*) AS n FROM messages m
       WHERE m.session_id IN (SELECT value FROM json_each(?)) AND ${visibleMessage(store.layout, 'm')}
       GROUP BY m.session_id`,
    )
    .all(JSON.stringify(sessionIds)) as { id: string; n: number }[];
  for (const r of rows) out.set(r.id, r.n);
  return out;
}

interface FactRow {
  id: string;
  pinned: number | null;
  last_read_at: number | null;
  ended_at: number | null;
  end_reason: string | null;
}

/**
 * List facts for each chain, in the order given. `pinned` is read on the chain's
 * root (the row the person pinned), the rest on its tip (the segment being written).
 */
export function listFacts(store: Store, chains: readonly (readonly string[])[]): ListFacts[] {
  return store.read(() => {
    const ids = new Set<string>();
    for (const c of chains) for (const id of c) ids.add(id);
    const all = [...ids];
    const counts = visibleCounts(store, all);
    const rows = store
      .stmt(
        `SELECT s.id, ${col(store, 'pinned')} AS pinned, ${col(store, 'last_read_at')} AS last_read_at,
           s.ended_at, s.end_reason
         FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(all)) as FactRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return chains.map((chain) => {
      const root = byId.get(chain[0] ?? '');
      const tip = byId.get(chain[chain.length - 1] ?? '');
      let messages = 0;
      for (const id of chain) messages += counts.get(id) ?? 0;
      return {
        messages,
        pinned: root?.pinned === 1,
        lastReadAt: typeof tip?.last_read_at === 'number' ? tip.last_read_at : null,
        endedAt: tip?.ended_at ?? null,
        endReason: tip?.end_reason ?? null,
      };
    });
  });
}

/** The context of one conversation (a chain): the pane header and the `i` key. */
export interface ConversationContext {
  /** Working directory of the tip (else the root), as stored. */
  cwd: string | null;
  gitBranch: string | null;
  /** The tip's model (the one answering now). */
  model: string | null;
  source: string;
  /** Visible messages over the chain. */
  messages: number;
  /** Summed over the chain; null when the store has no counters. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** Actual cost where the provider reported it, else the estimate, summed over the chain; null when none. */
  costUsd: number | null;
  costEstimated: boolean;
  startedAt: number;
  /** The tip's last activity (heartbeat or newest message), epoch seconds. */
  lastActive: number;
  endedAt: number | null;
  endReason: string | null;
  lastReadAt: number | null;
  pinned: boolean;
  /** False where the history records no end (other agents' files): no status is claimed. */
  endKnown?: boolean;
}

interface ContextRow {
  id: string;
  source: string | null;
  model: string | null;
  cwd: string | null;
  git_branch: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  actual_cost_usd: number | null;
  estimated_cost_usd: number | null;
  started_at: number | null;
  act: number | null;
  ended_at: number | null;
  end_reason: string | null;
  last_read_at: number | null;
  pinned: number | null;
}

export function conversationContext(
  store: Store,
  chain: readonly string[],
): ConversationContext | null {
  if (chain.length === 0) return null;
  return store.read(() => {
    const rows = store
      .stmt(
        `SELECT s.id, s.source, s.model, ${col(store, 'cwd')} AS cwd, ${col(store, 'git_branch')} AS git_branch,
           s.input_tokens, s.output_tokens, s.actual_cost_usd, s.estimated_cost_usd,
           s.started_at, ${activitySql(store.layout, 's')} AS act, s.ended_at, s.end_reason,
           ${col(store, 'last_read_at')} AS last_read_at, ${col(store, 'pinned')} AS pinned
         FROM sessions s WHERE s.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(chain)) as ContextRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const segs = chain.map((id) => byId.get(id)).filter((r): r is ContextRow => r !== undefined);
    const root = segs[0];
    const tip = segs[segs.length - 1];
    if (!root || !tip) return null;
    const total = (pick: (r: ContextRow) => number | null): number | null =>
      segs.some((r) => typeof pick(r) === 'number')
        ? segs.reduce((n, r) => n + (pick(r) ?? 0), 0)
        : null;
    const costOf = (r: ContextRow): number | null => r.actual_cost_usd ?? r.estimated_cost_usd;
    const counts = visibleCounts(store, chain);
    let messages = 0;
    for (const id of chain) messages += counts.get(id) ?? 0;
    return {
      cwd: tip.cwd ?? root.cwd,
      gitBranch: tip.git_branch ?? root.git_branch,
      model: tip.model ?? root.model,
      source: root.source ?? '',
      messages,
      inputTokens: total((r) => r.input_tokens),
      outputTokens: total((r) => r.output_tokens),
      costUsd: total(costOf),
      costEstimated: segs.some((r) => r.actual_cost_usd === null && r.estimated_cost_usd !== null),
      startedAt: root.started_at ?? 0,
      lastActive: tip.act ?? tip.started_at ?? 0,
      endedAt: tip.ended_at,
      endReason: tip.end_reason,
      lastReadAt: typeof tip.last_read_at === 'number' ? tip.last_read_at : null,
      pinned: root.pinned === 1,
    };
  });
}
