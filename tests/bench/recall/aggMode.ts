/**
 * EXPERIMENT (LOOKBACK_RECALL_EXPERIMENTS=1): the relaxed leg's messages
 * aggregated per conversation, best message plus a share of the next best.
 */
import { discover } from '../../../src/store/search.js';
import type { Store } from '../../../src/store/store.js';
import { routeQuery } from '../../../src/store/query.js';
import { relaxedRoute } from '../../../src/store/relaxed.js';
import { rootResolver } from '../../../src/store/lineage.js';
import type { Ranked } from './metrics.js';
import { K } from './metrics.js';

export function aggSearch(store: Store, query: string, pool: number, weights: number[]): Ranked[] {
  const exact = discover(store, query, { limit: K, views: false, relaxed: false });
  const out: Ranked[] = exact.results.map((r) => ({
    root: r.parent_session_id ?? r.session_id,
    message: r.match_message_id,
    relaxed: false,
  }));
  if (out.length >= K) return out;
  const route = relaxedRoute(routeQuery(query, { fts: true, trigram: true }));
  if (!route || route.kind !== 'fts')
    return discover(store, query, { limit: K, views: false, relaxed: true }).results.map((r) => ({
      root: r.parent_session_id ?? r.session_id,
      message: r.match_message_id,
      relaxed: r.match === 'relaxed',
    }));
  const rootOf = rootResolver(store);
  const rows = store
    .stmt(
      `SELECT f.rowid AS id, -f.rank AS score, m.session_id AS sid FROM (SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?) f
       JOIN messages m ON m.id = f.rowid WHERE m.role IN ('user','assistant')`,
    )
    .all(route.match, pool) as { id: number; score: number; sid: string }[];
  const by = new Map<string, { id: number; scores: number[] }>();
  for (const r of rows) {
    const root = rootOf(r.sid);
    const c = by.get(root);
    if (!c) by.set(root, { id: r.id, scores: [r.score] });
    else c.scores.push(r.score);
  }
  const scored = [...by].map(([root, c]) => {
    const s = c.scores.sort((a, b) => b - a);
    let v = 0;
    weights.forEach((w, i) => (v += w * (s[i] ?? 0)));
    return { root, id: c.id, v };
  });
  scored.sort((a, b) => b.v - a.v);
  const seen = new Set(out.map((r) => r.root));
  for (const c of scored) {
    if (out.length >= K) break;
    if (seen.has(c.root)) continue;
    out.push({ root: c.root, message: c.id, relaxed: true });
  }
  return out;
}
