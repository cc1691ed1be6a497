/**
 * The snippet a result shows, always from the hit's own row: FTS5's snippet()
 * for index hits, a window of the row's text around the first term for
 * substring-scan hits (and for rows a rebuilding index does not hold yet).
 */
import type { Store } from '../store.js';
import { routeQuery, sanitizeQuery } from '../query.js';
import { ftsTable, type Hit, type Plan } from './plan.js';
import { LIKE_SNIPPET_AFTER, LIKE_SNIPPET_BEFORE, SNIPPET_TOKENS } from '../../budgets.js';

export const AGENT_MARKERS: [string, string] = ['>>>', '<<<'];

/**
 * The snippet of one hit, always from that hit's own row: from indexSnippets()
 * for index hits, from the row's text for substring-scan hits.
 */
export function snippetFor(
  store: Store,
  route: Plan['route'],
  hit: Hit,
  fromIndex: ReadonlyMap<number, string>,
): string {
  if (route.kind === 'like') return likeSnippet(store, route.terms, hit.id);
  return fromIndex.get(hit.id) ?? '';
}

/**
 * FTS5's snippets of the given rows, each from its own row, in one pass over
 * the matches. A rowid constraint FTS5 is offered is no help here: it ignores
 * a rowid bound as REAL (better-sqlite3 binds every JS number so: `rowid = ?`
 * returned every match, and each result showed the first one's snippet), and
 * runs the whole query again per value of `rowid IN (…)` (~0.5 ms per row for
 * a prefix or phrase query). `+rowid` keeps the test out of FTS5: one walk
 * over the matches, a snippet only for the rows asked for. `-1` lets FTS5 pick
 * the best-matching column, as the agent asks.
 */
export function indexSnippets(
  store: Store,
  route: Plan['route'],
  match: string,
  ids: readonly number[],
  markers: [string, string],
): Map<number, string> {
  if (route.kind === 'like' || ids.length === 0) return new Map();
  const table = ftsTable(route);
  const rows = store
    .stmt(
      `SELECT rowid AS id, snippet(${table}, -1, ?, ?, '...', ${SNIPPET_TOKENS}) AS s FROM ${table}
       WHERE ${table} MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    )
    .all(markers[0], markers[1], match, JSON.stringify(ids)) as { id: number; s: string | null }[];
  return new Map(rows.map((r) => [r.id, r.s ?? '']));
}

/** A substring-scan snippet: 40 characters before the first term found, 80 from it on. */
function likeSnippet(store: Store, terms: string[], id: number): string {
  const row = store
    .stmt(`SELECT content, tool_name, tool_calls FROM messages WHERE id = ?`)
    .get(id) as
    { content: string | null; tool_name: string | null; tool_calls: string | null } | undefined;
  if (!row) return '';
  for (const text of [row.content, row.tool_name, row.tool_calls]) {
    if (!text || text.startsWith('\u0000')) continue;
    const lower = text.toLowerCase();
    for (const t of terms) {
      const at = lower.indexOf(t.toLowerCase());
      if (at >= 0)
        return text.slice(Math.max(0, at - LIKE_SNIPPET_BEFORE), at + LIKE_SNIPPET_AFTER);
    }
  }
  return (row.content ?? '').slice(0, LIKE_SNIPPET_BEFORE + LIKE_SNIPPET_AFTER);
}

export function likeRoute(q: string, route: Plan['route']): Plan['route'] {
  if (route.kind === 'like') return route;
  const scan = routeQuery(q, { fts: false, trigram: false });
  return scan.kind === 'like' ? scan : { kind: 'like', terms: [sanitizeQuery(q)], combine: 'and' };
}
