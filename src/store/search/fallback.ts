/**
 * The damaged-index fallback: when the full-text index cannot be trusted
 * (damaged at open, marked stale, lagging behind the messages, or failing with
 * corruption now) a search runs as a substring scan instead and says so in one
 * line.
 */
import type { Store } from '../store.js';
import { routeQuery, type Route } from '../query.js';
import { oneLine } from '../errors.js';
import { indexStatus } from '../indexStatus.js';
import type { SearchAnswer } from '../types.js';
import { NO_MATCH } from './plan.js';
import { isIndexDamage } from './match.js';

/**
 * Runs a search on its route, and on the substring scan instead when the full-text
 * index cannot be trusted: damaged at open, lagging behind the messages (its
 * triggers are gone), or failing with corruption now. The answer then carries a
 * one-line `warning`. Runs inside the caller's read snapshot.
 */
export function withFallback(
  store: Store,
  q: string,
  route: Exclude<Route, { kind: 'empty' }>,
  run: (route: Exclude<Route, { kind: 'empty' }>) => SearchAnswer,
): SearchAnswer {
  const like = (warning: string): SearchAnswer => {
    const fallback = routeQuery(q, { fts: false, trigram: false });
    const answer: SearchAnswer =
      fallback.kind === 'empty'
        ? { query: q, results: [], path: 'empty', message: NO_MATCH }
        : run(fallback);
    return { ...answer, warning };
  };
  const damaged = store.layout.ftsIndex.damaged;
  if (damaged !== null) {
    const answer = run(route);
    return route.kind === 'like'
      ? {
          ...answer,
          warning: `the full-text index is damaged (${damaged}); searched with LIKE instead`,
        }
      : answer;
  }
  // The agent marked the index stale (detached after corruption): it misses new rows.
  const status = route.kind === 'like' ? null : indexStatus(store);
  if (status?.stale && status.warning) return like(status.warning);
  if (route.kind === 'fts') {
    const lag = indexLag(store);
    // A declared rebuild whose unindexed range covers the lag is scanned for in discoverWith.
    const covered = lag !== null && status?.pending != null && lag >= status.pending.lo;
    if (lag !== null && !covered)
      return like(
        `the full-text index is stale (messages after #${lag} are not in it); searched with LIKE instead`,
      );
  }
  if (route.kind === 'like') return run(route);
  try {
    return run(route);
  } catch (err) {
    if (!isIndexDamage(err)) throw err;
    const detail = oneLine((err as Error)?.message ?? String(err));
    return like(`the full-text index is damaged (${detail}); searched with LIKE instead`);
  }
}

/**
 * The id of the newest indexed message when `messages_fts` lags behind the
 * messages table (new rows are not being indexed), else null. `messages_fts`
 * indexes every row in every layout, so its `_docsize` table holds one row per
 * message id; two rowid lookups, no scan.
 */
export function indexLag(store: Store): number | null {
  if (!store.layout.ftsIndex.docsize) return null;
  const row = store
    .stmt(
      `SELECT (SELECT max(id) FROM messages) AS newest, (SELECT max(id) FROM messages_fts_docsize) AS indexed`,
    )
    .get() as { newest: number | null; indexed: number | null };
  if (row.newest === null) return null;
  const indexed = row.indexed ?? 0;
  return row.newest > indexed ? indexed : null;
}
