import type { Store } from './store.js';
import { rootResolver, sessionMeta } from './lineage.js';
import { anchoredView } from './messages.js';
import { likePattern, quoteAllTerms, routeQuery, type Route } from './query.js';
import { HIDDEN_SOURCES_SQL, visibleMessage } from './sqlParts.js';
import { isoTime } from './time.js';
import { oneLine } from './errors.js';
import type { SearchAnswer, SearchOptions, SearchPath, SearchResult, Sort } from './types.js';

export const DEFAULT_ROLES = ['user', 'assistant'];
/** The agent fetches this many hits before deduping by lineage; we start there and widen as needed. */
export const FIRST_FETCH = 50;
const FETCH_GROWTH = 8;
/** FTS5 snippet size in tokens, as the agent asks for. */
export const SNIPPET_TOKENS = 40;
export const AGENT_MARKERS: [string, string] = ['>>>', '<<<'];
export const NO_MATCH = 'No matching sessions found.';

export interface Hit {
  id: number;
  session_id: string;
  role: string;
  timestamp: number;
}

/** What a hit query needs to know, resolved once per search. */
interface Plan {
  route: Exclude<Route, { kind: 'empty' }>;
  roles: string[];
  sort: Sort;
  all: boolean;
}

function ftsTable(route: Plan['route']): string {
  return route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
}

function filters(store: Store, plan: Plan): string {
  const parts = [visibleMessage(store.layout, 'm'), `m.role IN (SELECT value FROM json_each(?))`];
  // A set of hidden session ids, built once per query from the source index,
  // rather than a join: joining sessions makes SQLite build a Bloom filter by
  // scanning every session row, and old layouts store large prompts in them.
  if (!plan.all)
    parts.push(
      `m.session_id NOT IN (SELECT id FROM sessions WHERE source IN ${HIDDEN_SOURCES_SQL})`,
    );
  return parts.join(' AND ');
}

function likeTerms(route: { terms: string[]; combine: 'or' | 'and' }): string {
  const one = `(m.content LIKE ? ESCAPE '\\' OR m.tool_name LIKE ? ESCAPE '\\' OR m.tool_calls LIKE ? ESCAPE '\\')`;
  return route.terms.map(() => one).join(route.combine === 'or' ? ' OR ' : ' AND ');
}

function likeParams(terms: string[]): string[] {
  return terms.flatMap((t) => {
    const p = likePattern(t);
    return [p, p, p];
  });
}

/**
 * One page of hits in the agent's order. FTS pages are the first `n` hits (the
 * sort has to see every match anyway); LIKE pages are keyset pages by id so a
 * short CJK scan can stop as soon as it has enough conversations.
 */
function fetchHits(
  store: Store,
  plan: Plan,
  match: string,
  n: number,
  after: number | null,
): Hit[] {
  const { route } = plan;
  const roles = JSON.stringify(plan.roles);
  if (route.kind === 'like') {
    const asc = plan.sort === 'oldest';
    const sql = `SELECT m.id, m.session_id, m.role, m.timestamp FROM messages m
      WHERE m.id ${asc ? '>' : '<'} ? AND (${likeTerms(route)}) AND ${filters(store, plan)}
      ORDER BY m.id ${asc ? 'ASC' : 'DESC'} LIMIT ?`;
    const start = after ?? (asc ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER);
    return store.stmt(sql).all(start, ...likeParams(route.terms), roles, n) as Hit[];
  }
  const table = ftsTable(route);
  const order =
    plan.sort === 'newest'
      ? `m.timestamp DESC, ${table}.rank`
      : plan.sort === 'oldest'
        ? `m.timestamp ASC, ${table}.rank`
        : `${table}.rank`;
  const sql = `SELECT m.id, m.session_id, m.role, m.timestamp
    FROM ${table} JOIN messages m ON m.id = ${table}.rowid
    WHERE ${table} MATCH ? AND ${filters(store, plan)}
    ORDER BY ${order} LIMIT ?`;
  return store.stmt(sql).all(match, roles, n) as Hit[];
}

function isQueryError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === 'SQLITE_ERROR' && !/no such table/i.test(e.message ?? '') && !isIndexDamage(err)
  );
}

/**
 * Runs `fn` with the route's MATCH string; if FTS5 rejects it, once more with every
 * term quoted; if that fails too, the query cannot be searched (never an exception).
 */
function withMatch<T>(
  route: Plan['route'],
  fn: (match: string) => T,
): { value: T; match: string } | null {
  if (route.kind === 'like') return { value: fn(''), match: '' };
  try {
    return { value: fn(route.match), match: route.match };
  } catch (err) {
    if (!isQueryError(err)) throw err;
  }
  const quoted = quoteAllTerms(route.match);
  if (!quoted) return null;
  try {
    return { value: fn(quoted), match: quoted };
  } catch (err) {
    if (!isQueryError(err)) throw err;
    return null;
  }
}

function pathOf(route: Route): SearchPath {
  return route.kind;
}

/**
 * Walks hits in the agent's order and keeps the first (best) hit of each lineage
 * root until `limit` conversations are found, fetching wider pages when one
 * conversation holds many hits (the agent stops at 50 hits and returns fewer).
 */
export function discoverHits(
  store: Store,
  plan: Plan,
  match: string,
  limit: number,
): { hits: Map<string, Hit> } {
  const rootOf = rootResolver(store);
  const best = new Map<string, Hit>();
  let size = FIRST_FETCH;
  let done = 0;
  let after: number | null = null;
  for (;;) {
    const page = fetchHits(store, plan, match, size, after);
    const fresh = plan.route.kind === 'like' ? page : page.slice(done);
    for (const hit of fresh) {
      const root = rootOf(hit.session_id);
      if (!best.has(root)) best.set(root, hit);
      if (best.size >= limit) return { hits: best };
    }
    if (page.length < size) return { hits: best };
    // Keyset LIKE pages continue where the last one stopped, so they stay small
    // (a scan that has enough conversations stops early); FTS pages re-sort, so
    // each is much wider than the last.
    if (plan.route.kind === 'like') after = page[page.length - 1]?.id ?? after;
    else {
      done = page.length;
      size *= FETCH_GROWTH;
    }
  }
}

function snippetFor(
  store: Store,
  plan: Plan,
  match: string,
  hit: Hit,
  markers: [string, string],
): string {
  const { route } = plan;
  if (route.kind === 'like') {
    const first = route.terms[0] ?? '';
    const row = store
      .stmt(
        `SELECT substr(content, max(1, instr(content, ?) - 40), 120) AS s FROM messages WHERE id = ?`,
      )
      .get(first, hit.id) as { s: string | null } | undefined;
    return row?.s ?? '';
  }
  const table = ftsTable(route);
  const row = store
    .stmt(
      `SELECT snippet(${table}, 0, ?, ?, '...', ${SNIPPET_TOKENS}) AS s FROM ${table} WHERE ${table} MATCH ? AND rowid = ?`,
    )
    .get(markers[0], markers[1], match, hit.id) as { s: string | null } | undefined;
  return row?.s ?? '';
}

export function normaliseOptions(opts: SearchOptions): {
  limit: number;
  plan: Omit<Plan, 'route'>;
} {
  const roles = (opts.roles ?? DEFAULT_ROLES).map((r) => r.trim()).filter((r) => r.length > 0);
  return {
    limit: Math.max(0, Math.floor(opts.limit ?? 10)),
    plan: {
      roles: roles.length > 0 ? roles : DEFAULT_ROLES,
      sort: opts.sort ?? 'relevance',
      all: opts.all ?? false,
    },
  };
}

/** Discover (STORE.md): one result per conversation with its best hit and, optionally, the anchored view. */
export function discover(store: Store, query: string, opts: SearchOptions = {}): SearchAnswer {
  const q = query.trim();
  const { limit, plan: base } = normaliseOptions(opts);
  const route = routeQuery(q, { fts: store.layout.fts !== 'none', trigram: store.layout.trigram });
  if (route.kind === 'empty' || limit === 0)
    return { query: q, results: [], path: pathOf(route), message: NO_MATCH };
  const markers = opts.markers ?? AGENT_MARKERS;
  return store.read(() =>
    withFallback(store, q, route, (r) =>
      discoverWith(store, q, { ...base, route: r }, limit, opts, markers),
    ),
  );
}

function discoverWith(
  store: Store,
  q: string,
  plan: Plan,
  limit: number,
  opts: SearchOptions,
  markers: [string, string],
): SearchAnswer {
  const found = withMatch(plan.route, (match) => discoverHits(store, plan, match, limit));
  if (!found)
    return {
      query: q,
      results: [],
      path: pathOf(plan.route),
      message: `${NO_MATCH} (the query could not be parsed)`,
    };
  const results: SearchResult[] = [];
  for (const [root, hit] of found.value.hits) {
    const meta = sessionMeta(store, root) ?? sessionMeta(store, hit.session_id);
    const own = root === hit.session_id ? meta : sessionMeta(store, hit.session_id);
    const view =
      opts.views === false
        ? {
            messages: [],
            bookend_start: [],
            bookend_end: [],
            messages_before: 0,
            messages_after: 0,
          }
        : anchoredView(store, hit.session_id, hit.id, 5);
    results.push({
      session_id: hit.session_id,
      parent_session_id: root === hit.session_id ? null : root,
      when: isoTime(meta?.started_at ?? own?.started_at ?? null),
      source: meta?.source || own?.source || 'unknown',
      model: meta?.model || own?.model || 'unknown',
      title: meta?.title ?? null,
      matched_role: hit.role,
      match_message_id: hit.id,
      snippet: snippetFor(store, plan, found.match, hit, markers),
      started_at: meta?.started_at ?? 0,
      hit_timestamp: hit.timestamp,
      ...view,
    });
  }
  return {
    query: q,
    results,
    path: pathOf(plan.route),
    message: results.length === 0 ? NO_MATCH : null,
  };
}

/** SQLite's word for a full-text index it cannot read (as opposed to a query FTS5 rejects). */
export function isIndexDamage(err: unknown): boolean {
  const e = (err ?? {}) as { code?: string; message?: string };
  if ((e.code ?? '').startsWith('SQLITE_CORRUPT')) return true;
  return /fts5: corrupt|corruption found|malformed|invalid fts5 file format|no such table: (main\.)?messages_fts/i.test(
    e.message ?? '',
  );
}

/**
 * Runs a search on its route, and on the substring scan instead when the full-text
 * index cannot be trusted: damaged at open, lagging behind the messages (its
 * triggers are gone), or failing with corruption now. The answer then carries a
 * one-line `warning`. Runs inside the caller's read snapshot.
 */
function withFallback(
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
  if (route.kind === 'fts') {
    const lag = indexLag(store);
    if (lag !== null)
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
function indexLag(store: Store): number | null {
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
