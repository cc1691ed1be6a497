/**
 * Finding hits: pages of matches in the agent's order (ranked, by time, or a
 * keyset substring scan), the hidden and cron source tests, and the walk that
 * keeps the best hit of each conversation until the page is full. The relaxed
 * leg walks the same way over a looser route.
 */
import type { Store } from '../store.js';
import { rootResolver } from '../lineage.js';
import { perCommit } from '../perCommit.js';
import { relaxedRoute } from '../relaxed.js';
import { DEMOTED_SOURCES_SQL, HIDDEN_SOURCES_SQL } from '../sqlParts.js';
import {
  filterParams,
  filters,
  ftsTable,
  likeParams,
  likeTerms,
  type Hit,
  type Plan,
} from './plan.js';
import { isQueryError } from './match.js';
import type { SearchContext } from './context.js';
import { FETCH_GROWTH, FILTER_BATCH, FIRST_FETCH, LIKE_PAGE } from '../../budgets.js';

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
): { hits: Hit[]; exhausted: boolean } {
  const { route } = plan;
  const params = filterParams(plan);
  if (route.kind === 'like') {
    // Source tests are left to the caller (sourceTest()), so both passes share the pages.
    const asc = plan.sort === 'oldest';
    const sql = `SELECT m.id, m.session_id, m.role, m.timestamp FROM messages m
      WHERE m.id ${asc ? '>' : '<'} ? AND (${likeTerms(route)}) AND ${filters(store, plan, false)}
      ORDER BY m.id ${asc ? 'ASC' : 'DESC'} LIMIT ?`;
    const start = after ?? (asc ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER);
    const hits = store.stmt(sql).all(start, ...likeParams(route.terms), ...params, n) as Hit[];
    return { hits, exhausted: hits.length < n };
  }
  // Relevance pages are walked in discoverHits (rankedIds, then filterIds).
  const table = ftsTable(route);
  const order =
    plan.sort === 'newest' ? `m.timestamp DESC, ${table}.rank` : `m.timestamp ASC, ${table}.rank`;
  const sql = `SELECT m.id, m.session_id, m.role, m.timestamp
    FROM ${table} JOIN messages m ON m.id = ${table}.rowid
    WHERE ${table} MATCH ? AND ${filters(store, plan)}
    ORDER BY ${order} LIMIT ?`;
  const hits = store.stmt(sql).all(match, ...params, n) as Hit[];
  return { hits, exhausted: hits.length < n };
}

/**
 * The top `n` matches by rank from the index alone: what the bare FTS5 query
 * costs. Filtering inside the ranked query would read every match's message
 * row (past its content, to reach `timestamp` and `active`) before sorting.
 */
function rankedIds(store: Store, table: string, match: string, n: number): number[] {
  return store
    .stmt(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`)
    .pluck()
    .all(match, n) as number[];
}

/**
 * The rows among `ids` that pass the plan's filters except the source ones
 * (sourceTest() applies those), in the order of `ids`. The SQL is the same for
 * both passes, so they share one statement and its answers.
 */
function filterIds(store: Store, plan: Plan, ids: readonly number[]): Hit[] {
  if (ids.length === 0) return [];
  const rows = store
    .stmt(
      `SELECT m.id, m.session_id, m.role, m.timestamp FROM messages m
       WHERE m.id IN (SELECT value FROM json_each(?)) AND ${filters(store, plan, false)}`,
    )
    .all(JSON.stringify(ids), ...filterParams(plan)) as Hit[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const hits: Hit[] = [];
  for (const id of ids) {
    const h = byId.get(id);
    if (h) hits.push(h);
  }
  return hits;
}

interface SourceSets {
  hidden: Set<string>;
  demoted: Set<string>;
}

/**
 * Sessions of the hidden sources and of the demoted (cron) one, read once per
 * agent commit. As an SQL subquery these cost ~0.3 ms per statement: the source
 * index gives rowids, and each id is then read from a (large) session row.
 */
function sourceSets(store: Store): SourceSets {
  return perCommit(store, 'sessions by source', () => {
    const rows = store
      .stmt(
        `SELECT id, source IN ${HIDDEN_SOURCES_SQL} AS hidden FROM sessions
         WHERE source IN ${HIDDEN_SOURCES_SQL} OR source IN ${DEMOTED_SOURCES_SQL}`,
      )
      .all() as { id: string; hidden: number }[];
    const sets: SourceSets = { hidden: new Set(), demoted: new Set() };
    for (const r of rows) (r.hidden ? sets.hidden : sets.demoted).add(r.id);
    return sets;
  });
}

/** filters()' source tests for one hit's session, as a JS check (the same rules). */
function sourceTest(store: Store, plan: Plan): (sessionId: string) => boolean {
  const { hidden, demoted } = sourceSets(store);
  return (sid) =>
    (plan.all || !hidden.has(sid)) &&
    (plan.pass === 'interactive'
      ? !demoted.has(sid)
      : plan.pass === 'demoted'
        ? demoted.has(sid)
        : true);
}

/**
 * Walks hits in the agent's order and keeps the first (best) hit of each lineage
 * root until `limit` conversations are found, fetching wider pages when one
 * conversation holds many hits (the agent stops at 300 hits and may return fewer).
 * Interactive sessions are walked before cron ones (the agent's stable demotion),
 * so every interactive conversation ranks above every cron one. `accept` applies
 * the filters that need the conversation (its root): dates and exclusions.
 */
export function discoverHits(
  store: Store,
  plan: Plan,
  match: string,
  limit: number,
  accept: (hit: Hit, root: string) => boolean = () => true,
  seed: Map<string, Hit> = new Map(),
): { hits: Map<string, Hit> } {
  const rootOf = rootResolver(store);
  const best = new Map<string, Hit>(seed);
  if (best.size >= limit) return { hits: best };
  const ranked = new Map<number, number[]>();
  const batches = new Map<string, Hit[]>();
  const likePages: { hits: Hit[]; exhausted: boolean }[] = [];
  for (const pass of ['interactive', 'demoted'] as const) {
    const passPlan: Plan = { ...plan, pass };
    if (plan.route.kind !== 'like' && plan.sort === 'relevance') {
      // Both passes walk the same ranked ids, filtered a batch at a time; the
      // second pass reuses the first one's batches and keeps the cron hits.
      const table = ftsTable(plan.route);
      const inPass = sourceTest(store, passPlan);
      let size = FIRST_FETCH;
      let done = 0;
      for (;;) {
        let ids = ranked.get(size);
        if (!ids) ranked.set(size, (ids = rankedIds(store, table, match, size)));
        for (let i = done; i < ids.length; i += FILTER_BATCH) {
          const key = `${size}:${i}`;
          let batch = batches.get(key);
          if (!batch)
            batches.set(key, (batch = filterIds(store, plan, ids.slice(i, i + FILTER_BATCH))));
          for (const hit of batch) {
            if (!inPass(hit.session_id)) continue;
            const root = rootOf(hit.session_id);
            if (!best.has(root) && accept(hit, root)) best.set(root, hit);
            if (best.size >= limit) return { hits: best };
          }
        }
        if (ids.length < size) break;
        done = ids.length;
        size *= FETCH_GROWTH;
      }
      continue;
    }
    if (plan.route.kind === 'like') {
      // Keyset pages in id order: small, since a wider page ranks nothing better
      // and a short CJK scan stops as soon as it has enough. The pages leave the
      // source tests to sourceTest(), so the cron pass walks the interactive
      // pass's pages again instead of scanning every message a second time.
      const inPass = sourceTest(store, passPlan);
      for (let p = 0; ; p++) {
        let page = likePages[p];
        if (!page) {
          const after = p === 0 ? null : (likePages[p - 1]!.hits.at(-1)?.id ?? null);
          likePages.push((page = fetchHits(store, plan, match, LIKE_PAGE, after)));
        }
        for (const hit of page.hits) {
          if (!inPass(hit.session_id)) continue;
          const root = rootOf(hit.session_id);
          if (!best.has(root) && accept(hit, root)) best.set(root, hit);
          if (best.size >= limit) return { hits: best };
        }
        if (page.exhausted) break;
      }
      continue;
    }
    // Ranked by time: each page re-sorts, so each is much wider than the last.
    let size = FIRST_FETCH;
    let done = 0;
    for (;;) {
      const { hits: page, exhausted } = fetchHits(store, passPlan, match, size, null);
      for (const hit of page.slice(done)) {
        const root = rootOf(hit.session_id);
        if (!best.has(root) && accept(hit, root)) best.set(root, hit);
        if (best.size >= limit) return { hits: best };
      }
      if (exhausted) break;
      done = page.length;
      size *= FETCH_GROWTH;
    }
  }
  return { hits: best };
}

/**
 * The relaxed leg (src/store/relaxed.ts): when the exact query found fewer
 * conversations than the page holds, the rest of the page by BM25 over any of
 * the words, ranked by relevance whatever the sort (closest first), after and
 * apart from the exact hits. Null when the query has no relaxed form or it
 * finds nothing new.
 */
export function relaxedHits(
  store: Store,
  plan: Plan,
  limit: number,
  ctx: SearchContext,
  exact: Map<string, Hit>,
): { hits: Map<string, Hit>; roots: Set<string>; route: Plan['route']; match: string } | null {
  const route = relaxedRoute(plan.route);
  if (!route || route.kind === 'empty' || route.kind === 'like') return null;
  let hits: Map<string, Hit>;
  try {
    hits = discoverHits(
      store,
      { ...plan, route, sort: 'relevance', prose: true },
      route.match,
      limit,
      ctx.accept,
      exact,
    ).hits;
  } catch (err) {
    // Our own query should always parse; if FTS5 disagrees, the exact answer stands alone.
    if (isQueryError(err)) return null;
    throw err;
  }
  const roots = new Set([...hits.keys()].filter((root) => !exact.has(root)));
  return roots.size === 0 ? null : { hits, roots, route, match: route.match };
}
