/** Prototype: exact hits, then conversations ranked by src/store/relaxedRank.ts. */
import { discover } from '../../../src/store/search.js';
import type { Store } from '../../../src/store/store.js';
import { routeQuery } from '../../../src/store/query.js';
import { ftsParts } from '../../../src/store/relaxed.js';
import { rankConversations } from './convRank.js';
import { rootResolver } from '../../../src/store/lineage.js';
import type { Ranked } from './metrics.js';
import { K } from './metrics.js';

export function convSearch(store: Store, query: string, perTerm: number, b = 0): Ranked[] {
  const exact = discover(store, query, { limit: K, views: false, relaxed: false });
  const out: Ranked[] = exact.results.map((r) => ({
    root: r.parent_session_id ?? r.session_id,
    message: r.match_message_id,
    relaxed: false,
  }));
  if (out.length >= K) return out;
  const route = routeQuery(query, { fts: true, trigram: true });
  if (route.kind !== 'fts') {
    const rel = discover(store, query, { limit: K, views: false, relaxed: true });
    return rel.results.map((r) => ({
      root: r.parent_session_id ?? r.session_id,
      message: r.match_message_id,
      relaxed: r.match === 'relaxed',
    }));
  }
  const p = ftsParts(route.match);
  if (!p || p.optional.length === 0) return out;
  const rootOf = rootResolver(store);
  const ranked = rankConversations(
    {
      top: (m, n) =>
        store
          .stmt(
            `SELECT rowid AS id, -rank AS score FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?`,
          )
          .all(m, n) as { id: number; score: number }[],
      roots: (ids) => {
        const rows = store
          .stmt(
            `SELECT id, session_id FROM messages WHERE id IN (SELECT value FROM json_each(?)) AND role IN ('user','assistant')`,
          )
          .all(JSON.stringify(ids)) as { id: number; session_id: string }[];
        return new Map(rows.map((r) => [r.id, rootOf(r.session_id)]));
      },
      sizes: (roots) => {
        const rows = store
          .stmt(
            `SELECT id, message_count AS n FROM sessions WHERE id IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify(roots)) as { id: string; n: number }[];
        const mean = store.stmt(`SELECT avg(message_count) FROM sessions`).pluck().get() as number;
        return { size: new Map(rows.map((r) => [r.id, r.n])), mean };
      },
    },
    p.required,
    p.optional,
    perTerm,
    b,
  );
  const seen = new Set(out.map((r) => r.root));
  for (const c of ranked) {
    if (out.length >= K) break;
    if (seen.has(c.root)) continue;
    out.push({ root: c.root, message: c.id, relaxed: true });
  }
  return out;
}
