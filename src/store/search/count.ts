/**
 * How many conversations a search matches (the app's "50 of 190"), read up to a
 * row cap: the same filters as discover, no ranking, no snippets.
 */
import type { Store } from '../store.js';
import { rootResolver } from '../lineage.js';
import { routeQuery } from '../query.js';
import type { SearchOptions } from '../types.js';
import {
  filterParams,
  filters,
  ftsTable,
  likeParams,
  likeTerms,
  normaliseOptions,
  trigramUsable,
  type Plan,
} from './plan.js';
import { withMatch } from './match.js';
import { searchContext } from './context.js';
import { COUNT_ROW_CAP } from '../../budgets.js';

export interface ConversationCount {
  /** Distinct conversations (lineage roots) with a hit, within the row cap. */
  count: number;
  /** The row cap was reached: there may be more. */
  capped: boolean;
}

/**
 * How many conversations a search matches (the app's "50 of 190"): distinct
 * lineage roots among the matching rows, with the same roles, hidden sources
 * and filters as `discover`, reading at most `rowCap` rows (no ranking, no
 * snippets). Null when the query cannot be searched.
 */
export function countConversations(
  store: Store,
  query: string,
  opts: SearchOptions = {},
  rowCap: number = COUNT_ROW_CAP,
): ConversationCount | null {
  const q = query.trim();
  const { plan: base } = normaliseOptions(opts);
  const route = routeQuery(q, {
    fts: store.layout.fts !== 'none' && store.layout.ftsIndex.damaged === null,
    trigram: trigramUsable(store, base.roles, base.all),
  });
  if (route.kind === 'empty') return { count: 0, capped: false };
  return store.read(() => {
    const ctx = searchContext(store, opts.filters);
    const plan: Plan = { ...base, route, sessions: ctx.sessions };
    const rootOf = rootResolver(store);
    const found = withMatch(route, (match) => {
      const sql =
        route.kind === 'like'
          ? `SELECT m.session_id AS s FROM messages m WHERE (${likeTerms(route)}) AND ${filters(store, plan)} LIMIT ?`
          : `SELECT m.session_id AS s FROM ${ftsTable(route)} JOIN messages m ON m.id = ${ftsTable(route)}.rowid
             WHERE ${ftsTable(route)} MATCH ? AND ${filters(store, plan)} LIMIT ?`;
      const args =
        route.kind === 'like'
          ? [...likeParams(route.terms), ...filterParams(plan), rowCap]
          : [match, ...filterParams(plan), rowCap];
      return store
        .stmt(sql)
        .pluck()
        .all(...args) as string[];
    });
    if (!found) return null;
    const roots = new Set<string>();
    const seen = new Set<string>();
    for (const sid of found.value) {
      if (seen.has(sid)) continue;
      seen.add(sid);
      const root = rootOf(sid);
      if (!roots.has(root) && ctx.accept({ id: 0, session_id: sid, role: '', timestamp: 0 }, root))
        roots.add(root);
    }
    return { count: roots.size, capped: found.value.length >= rowCap };
  });
}
