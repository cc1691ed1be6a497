/**
 * Every hit of a query inside given sessions, in id order: what n/N walk in an
 * open conversation. Same roles and routes as discover, no ranking.
 */
import type { Store } from '../store.js';
import { routeQuery } from '../query.js';
import type { SearchOptions } from '../types.js';
import { filters, ftsTable, likeParams, likeTerms, normaliseOptions, type Plan } from './plan.js';
import { isIndexDamage, withMatch } from './match.js';
import { indexLag } from './fallback.js';

/**
 * Every hit of a query inside the given sessions, in id order (for walking hits
 * with n/N). The FTS scan is bounded to the sessions' id range.
 */
export function hitsInSessions(
  store: Store,
  query: string,
  sessionIds: string[],
  opts: SearchOptions = {},
): number[] {
  if (sessionIds.length === 0) return [];
  const { plan: base } = normaliseOptions({ ...opts, all: true });
  const route = routeQuery(query.trim(), {
    fts: store.layout.fts !== 'none',
    trigram: store.layout.trigram,
  });
  if (route.kind === 'empty') return [];
  const ids = JSON.stringify(sessionIds);
  const roles = JSON.stringify(base.roles);
  const inSessions = (r: Plan['route']): number[] => {
    const plan: Plan = { ...base, route: r };
    const range = store
      .stmt(
        `SELECT MIN(id) AS lo, MAX(id) AS hi FROM messages WHERE session_id IN (SELECT value FROM json_each(?))`,
      )
      .get(ids) as { lo: number | null; hi: number | null };
    if (range.lo === null || range.hi === null) return [];
    const { lo, hi } = range;
    const found = withMatch(r, (match) => {
      if (r.kind === 'like') {
        const sql = `SELECT m.id FROM messages m
          WHERE m.session_id IN (SELECT value FROM json_each(?)) AND (${likeTerms(r)}) AND ${filters(store, plan)}
          ORDER BY m.id`;
        return (store.stmt(sql).all(ids, ...likeParams(r.terms), roles) as { id: number }[]).map(
          (x) => x.id,
        );
      }
      const table = ftsTable(r);
      const sql = `SELECT m.id FROM ${table} JOIN messages m ON m.id = ${table}.rowid
        WHERE ${table} MATCH ? AND ${table}.rowid BETWEEN ? AND ? AND m.session_id IN (SELECT value FROM json_each(?))
          AND ${filters(store, plan)}
        ORDER BY m.id`;
      return (store.stmt(sql).all(match, lo, hi, ids, roles) as { id: number }[]).map((x) => x.id);
    });
    return found?.value ?? [];
  };
  return store.read(() => {
    const like = () => {
      const fallback = routeQuery(query.trim(), { fts: false, trigram: false });
      return fallback.kind === 'empty' ? [] : inSessions(fallback);
    };
    if (route.kind === 'fts' && indexLag(store) !== null) return like();
    try {
      return inSessions(route);
    } catch (err) {
      if (route.kind === 'like' || !isIndexDamage(err)) throw err;
      return like();
    }
  });
}
