import type { Store } from './store.js';
import { rootResolver, sessionMeta } from './lineage.js';
import { anchorCounts, anchoredView, sessionEdge, type AnchorCounts } from './messages.js';
import {
  hasCjk,
  likePattern,
  quoteAllTerms,
  routeQuery,
  sanitizeQuery,
  type Route,
} from './query.js';
import { DEMOTED_SOURCES_SQL, HIDDEN_SOURCES_SQL, visibleMessage } from './sqlParts.js';
import { isoTime } from './time.js';
import { oneLine } from './errors.js';
import { filterSessionsSql, lineageExcluder, type SessionFilter } from './filters.js';
import { indexStatus } from './indexStatus.js';
import { perCommit } from './perCommit.js';
import { RELAXED_ALL, RELAXED_REST, relaxedRoute } from './relaxed.js';
import type {
  AnchoredView,
  Filters,
  SearchAnswer,
  SearchOptions,
  SearchPath,
  SearchResult,
  Sort,
} from './types.js';

export const DEFAULT_ROLES = ['user', 'assistant'];
/** The agent scans this many hits before deduping by lineage (and may return fewer conversations). */
export const AGENT_SCAN = 300;
/**
 * lookback's first page of ranked hits. Any size gives the same answer (pages
 * widen until `limit` conversations are found or the matches run out, and cron
 * hits wait for their own pass), so the first page is as small as usually suffices.
 */
export const FIRST_FETCH = 300;
const FETCH_GROWTH = 8;
/** Rows per keyset page of a substring scan. */
const LIKE_PAGE = 50;
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
  /** Which sessions this pass reads: interactive first, then demoted (cron), as the agent ranks them. */
  pass?: 'interactive' | 'demoted';
  /** Sources, cwd, model: the filters SQL can apply to the hit's own session. */
  sessions?: SessionFilter | null;
  /** Only hits with id > lo and id <= hi (the rows a rebuilding index does not hold yet). */
  idRange?: { lo: number; hi: number } | null;
}

function ftsTable(route: Plan['route']): string {
  return route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
}

/**
 * The plan's filters as SQL on a message `m`. `bySource: false` leaves out the
 * hidden-source and cron-pass tests, for callers that apply them with
 * sourceTest() instead.
 */
function filters(store: Store, plan: Plan, bySource = true): string {
  const parts = [visibleMessage(store.layout, 'm'), `m.role IN (SELECT value FROM json_each(?))`];
  // A set of hidden session ids, built once per query from the source index,
  // rather than a join: joining sessions makes SQLite build a Bloom filter by
  // scanning every session row, and old layouts store large prompts in them.
  if (bySource && !plan.all)
    parts.push(
      `m.session_id NOT IN (SELECT id FROM sessions WHERE source IN ${HIDDEN_SOURCES_SQL})`,
    );
  if (bySource && plan.pass === 'interactive')
    parts.push(
      `m.session_id NOT IN (SELECT id FROM sessions WHERE source IN ${DEMOTED_SOURCES_SQL})`,
    );
  else if (bySource && plan.pass === 'demoted')
    parts.push(`m.session_id IN (SELECT id FROM sessions WHERE source IN ${DEMOTED_SOURCES_SQL})`);
  if (plan.sessions) parts.push(`m.session_id IN (${plan.sessions.sql})`);
  if (plan.idRange) parts.push(`m.id > ${plan.idRange.lo} AND m.id <= ${plan.idRange.hi}`);
  return parts.join(' AND ');
}

/** Bound parameters of filters(), in order. */
function filterParams(plan: Plan): unknown[] {
  return [JSON.stringify(plan.roles), ...(plan.sessions?.params ?? [])];
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

/** Ranked ids are filtered this many at a time: most searches have their conversations in the first batch. */
const FILTER_BATCH = 40;

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

/** Characters of context a substring-scan snippet shows before the match, and from it on. */
const LIKE_BEFORE = 40;
const LIKE_AFTER = 80;

/**
 * The snippet of one hit, always from that hit's own row: from indexSnippets()
 * for index hits, from the row's text for substring-scan hits.
 */
function snippetFor(
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
function indexSnippets(
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
      if (at >= 0) return text.slice(Math.max(0, at - LIKE_BEFORE), at + LIKE_AFTER);
    }
  }
  return (row.content ?? '').slice(0, LIKE_BEFORE + LIKE_AFTER);
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

/** The trigram index leaves out tool rows (and, v30, subagent sessions): such searches scan instead. */
function trigramUsable(store: Store, roles: string[], all: boolean): boolean {
  return store.layout.trigram && !roles.includes('tool') && !all;
}

/** Discover (STORE.md): one result per conversation with its best hit and, optionally, the anchored view. */
export function discover(store: Store, query: string, opts: SearchOptions = {}): SearchAnswer {
  const q = query.trim();
  const { limit, plan: base } = normaliseOptions(opts);
  const route = routeQuery(q, {
    fts: store.layout.fts !== 'none',
    trigram: trigramUsable(store, base.roles, base.all),
  });
  if (route.kind === 'empty' || limit === 0)
    return { query: q, results: [], path: pathOf(route), message: NO_MATCH };
  const markers = opts.markers ?? AGENT_MARKERS;
  return store.read(() => {
    const ctx = searchContext(store, opts.filters);
    const answer = withFallback(store, q, route, (r) =>
      discoverWith(
        store,
        q,
        { ...base, route: r, sessions: ctx.sessions },
        limit,
        opts,
        markers,
        ctx,
      ),
    );
    // A Latin query the default tokenizer missed may sit glued to CJK text (`修改youer服务端`):
    // the agent retries it on the trigram index.
    if (
      answer.results.every((r) => r.match === 'relaxed') &&
      route.kind === 'fts' &&
      trigramUsable(store, base.roles, base.all) &&
      !hasCjk(q) &&
      answer.warning === undefined
    ) {
      const retry = discoverWith(
        store,
        q,
        { ...base, route: { kind: 'trigram', match: route.match }, sessions: ctx.sessions },
        limit,
        opts,
        markers,
        ctx,
      );
      if (retry.results.some((r) => r.match !== 'relaxed')) return retry;
    }
    return answer;
  });
}

interface SearchContext {
  sessions: SessionFilter | null;
  accept: (hit: Hit, root: string) => boolean;
  filters: Filters;
}

/** The filters resolved once per search: SQL for the hit's session, a check on its conversation. */
function searchContext(store: Store, filters: Filters | undefined): SearchContext {
  const f = filters ?? {};
  const sessions = filterSessionsSql(store, { sources: f.sources, cwd: f.cwd, model: f.model });
  const excluded = lineageExcluder(store, f.excludeSessionIds ?? []);
  const started = new Map<string, number>();
  const startOf = (root: string): number => {
    let v = started.get(root);
    if (v === undefined) {
      v =
        (store.stmt(`SELECT started_at FROM sessions WHERE id = ?`).pluck().get(root) as
          number | null) ?? 0;
      started.set(root, v);
    }
    return v;
  };
  const dated = f.after !== undefined || f.before !== undefined;
  return {
    sessions,
    filters: f,
    accept: (_hit, root) => {
      if (excluded(root)) return false;
      if (!dated) return true;
      const at = startOf(root);
      return (f.after === undefined || at >= f.after) && (f.before === undefined || at < f.before);
    },
  };
}

/** Messages on each side of a result's anchor (the agent's window). */
const WINDOW = 5;

const EMPTY_VIEW: AnchoredView = {
  messages: [],
  bookend_start: [],
  bookend_end: [],
  messages_before: 0,
  messages_after: 0,
};

/** The query as a remembered title: quotes and backticks around it dropped (the agent's normalisation). */
export function titleQuery(query: string): string {
  return query
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .trim();
}

type TitleRow = { id: string; title: string; started_at: number | null };
type TitleIndex = Map<string, { id: string; started: number }[]>;

/** Longest title looked up with LIKE (SQLite refuses patterns over 50,000 bytes). */
const TITLE_LIKE_MAX = 1_000;

function indexTitles(rows: readonly TitleRow[]): TitleIndex {
  const byLower: TitleIndex = new Map();
  for (const r of rows) {
    const key = r.title.trim().toLowerCase();
    const list = byLower.get(key) ?? [];
    list.push({ id: r.id, started: r.started_at ?? 0 });
    byLower.set(key, list);
  }
  for (const list of byLower.values())
    list.sort((x, y) => y.started - x.started || (x.id < y.id ? 1 : -1));
  return byLower;
}

/**
 * The sessions whose title, trimmed and in lower case, is `key`, newest first.
 * Stores have no case-insensitive index on titles. The first title looked up
 * after a commit is asked of SQLite for the few rows that can match: an
 * all-ASCII title can only equal the query if it contains it (LIKE ignores
 * ASCII case), and every title with another character (where JavaScript's
 * case folding and trimming go beyond ASCII) is checked here. Another title in
 * the same snapshot (the app, a keystroke later) reads every title once into a
 * map. So a one-shot `lookback search` does not turn 4,000 titles into strings
 * (~10 ms and a collection, cold), and the app pays ~2 ms once per commit as before.
 */
function titled(store: Store, key: string): readonly { id: string; started: number }[] {
  const cache = perCommit(store, 'titles', () => ({
    index: null as TitleIndex | null,
    last: null as { key: string; ids: { id: string; started: number }[] } | null,
  }));
  if (cache.index === null && cache.last?.key === key) return cache.last.ids;
  if (cache.index === null && (cache.last !== null || key.length > TITLE_LIKE_MAX)) {
    const rows = store
      .stmt(`SELECT id, title, started_at FROM sessions WHERE title IS NOT NULL AND title <> ''`)
      .all() as TitleRow[];
    cache.index = indexTitles(rows);
  }
  if (cache.index !== null) return cache.index.get(key) ?? [];
  const rows = store
    .stmt(
      `SELECT id, title, started_at FROM sessions
       WHERE title LIKE ? ESCAPE '\\' OR title GLOB '*[^ -~]*'`,
    )
    .all(likePattern(key)) as TitleRow[];
  cache.last = { key, ids: indexTitles(rows).get(key) ?? [] };
  return cache.last.ids;
}

/**
 * The conversation whose title is the query (case-insensitive), newest first;
 * hidden sources are never title matches.
 */
function titleMatch(
  store: Store,
  query: string,
  ctx: SearchContext,
  all: boolean,
): { id: string; root: string } | null {
  const t = titleQuery(query);
  if (!t) return null;
  const ids = titled(store, t.toLowerCase())
    .slice(0, 5)
    .map((x) => x.id);
  const rootOf = rootResolver(store);
  for (const id of ids) {
    const root = rootOf(id);
    const meta = sessionMeta(store, root);
    if (!all && meta && ['kanban', 'subagent', 'tool'].includes(meta.source)) continue;
    if (
      ctx.sessions &&
      store
        .stmt(`SELECT 1 FROM sessions s WHERE s.id = ? AND s.id IN (${ctx.sessions.sql})`)
        .get(id, ...ctx.sessions.params) === undefined
    )
      continue;
    if (!ctx.accept({ id: 0, session_id: id, role: 'session_title', timestamp: 0 }, root)) continue;
    return { id, root };
  }
  return null;
}

function discoverWith(
  store: Store,
  q: string,
  plan: Plan,
  limit: number,
  opts: SearchOptions,
  markers: [string, string],
  ctx: SearchContext,
): SearchAnswer {
  const title = titleMatch(store, q, ctx, plan.all);
  const seed = new Map<string, Hit>();
  if (title)
    seed.set(title.root, { id: -1, session_id: title.id, role: 'session_title', timestamp: 0 });
  const found = withMatch(plan.route, (match) =>
    discoverHits(store, plan, match, limit, ctx.accept, seed),
  );
  if (!found)
    return {
      query: q,
      results: [],
      path: pathOf(plan.route),
      message: `${NO_MATCH} (the query could not be parsed)`,
    };
  const status = plan.route.kind === 'like' ? null : indexStatus(store);
  let hits = found.value.hits;
  // Rows a rebuilding index does not hold yet are scanned for; their conversations rank after the indexed ones.
  if (status?.pending && hits.size < limit) {
    const scan = routeQuery(q, { fts: false, trigram: false });
    if (scan.kind === 'like')
      hits = discoverHits(
        store,
        { ...plan, route: scan, idRange: status.pending },
        '',
        limit,
        ctx.accept,
        hits,
      ).hits;
  }
  const relaxed =
    opts.relaxed !== false && hits.size < limit && !status?.pending
      ? relaxedHits(store, plan, limit, ctx, hits)
      : null;
  if (relaxed) hits = relaxed.hits;
  const detail = opts.detail ?? 'adaptive';
  const snippets = indexSnippets(
    store,
    plan.route,
    found.match,
    [...hits]
      .filter(([root, h]) => h.id > 0 && hitFromIndex(h, status) && !relaxed?.roots.has(root))
      .map(([, h]) => h.id),
    markers,
  );
  const relaxedSnippets = relaxed
    ? indexSnippets(
        store,
        relaxed.route,
        relaxed.match,
        [...relaxed.roots].map((root) => hits.get(root)!.id),
        markers,
      )
    : new Map<number, string>();
  const shown = [...hits].map(([root, hit], i) => {
    const isTitle = hit.role === 'session_title';
    const full =
      opts.views !== false && (isTitle || detail === 'full' || (detail === 'adaptive' && i === 0));
    const anchorId = isTitle
      ? (sessionEdge(store, hit.session_id, 'head', 1)[0]?.id ?? -1)
      : hit.id;
    return { root, hit, isTitle, full, anchorId };
  });
  // Compact results need their anchors and window lengths only: one statement for all.
  const compact = shown.filter((r) => opts.views !== false && !r.full && r.anchorId >= 0);
  const counts = new Map(
    anchorCounts(
      store,
      compact.map((r) => ({ sessionId: r.hit.session_id, anchorId: r.anchorId })),
      WINDOW,
    ).map((c, i) => [compact[i]!, c]),
  );
  const results: SearchResult[] = [];
  for (const entry of shown) {
    const { root, hit, isTitle, full, anchorId } = entry;
    const loose = relaxed?.roots.has(root) ?? false;
    const meta = sessionMeta(store, root) ?? sessionMeta(store, hit.session_id);
    const own = root === hit.session_id ? meta : sessionMeta(store, hit.session_id);
    const view =
      opts.views === false || anchorId < 0
        ? EMPTY_VIEW
        : full
          ? anchoredView(store, hit.session_id, anchorId, WINDOW)
          : compactView(counts.get(entry) ?? null);
    results.push({
      session_id: hit.session_id,
      parent_session_id: root === hit.session_id ? null : root,
      when: isoTime(meta?.started_at ?? own?.started_at ?? null),
      source: meta?.source || own?.source || 'unknown',
      model: meta?.model || own?.model || 'unknown',
      title: isTitle ? (meta?.title ?? own?.title ?? titleQuery(q)) : (meta?.title ?? null),
      matched_role: hit.role,
      match_message_id: anchorId,
      snippet: isTitle
        ? `Session title matched: ${meta?.title ?? own?.title ?? titleQuery(q)}`
        : loose
          ? (relaxedSnippets.get(hit.id) ?? '')
          : snippetFor(
              store,
              plan.route.kind === 'like' || !hitFromIndex(hit, status)
                ? likeRoute(q, plan.route)
                : plan.route,
              hit,
              snippets,
            ),
      started_at: meta?.started_at ?? 0,
      hit_timestamp: hit.timestamp,
      detail: full ? 'full' : 'compact',
      ...(loose ? { match: 'relaxed' as const } : {}),
      ...view,
    });
  }
  const warning = status?.warning;
  const looseCount = relaxed?.roots.size ?? 0;
  return {
    query: q,
    results,
    path: pathOf(plan.route),
    message: results.length === 0 ? NO_MATCH : null,
    ...(warning ? { warning } : {}),
    ...(looseCount > 0
      ? {
          relaxed: {
            count: looseCount,
            message: looseCount === results.length ? RELAXED_ALL : RELAXED_REST,
          },
        }
      : {}),
  };
}

/**
 * The relaxed leg (src/store/relaxed.ts): when the exact query found fewer
 * conversations than the page holds, the rest of the page by BM25 over any of
 * the words, ranked by relevance whatever the sort (closest first), after and
 * apart from the exact hits. Null when the query has no relaxed form or it
 * finds nothing new.
 */
function relaxedHits(
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
      { ...plan, route, sort: 'relevance' },
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

/** Whether a hit came from the index (not from the scan over rows a rebuild has not reached). */
function hitFromIndex(hit: Hit, status: ReturnType<typeof indexStatus> | null): boolean {
  const p = status?.pending;
  return !p || hit.id <= p.lo || hit.id > p.hi;
}

function likeRoute(q: string, route: Plan['route']): Plan['route'] {
  if (route.kind === 'like') return route;
  const scan = routeQuery(q, { fts: false, trigram: false });
  return scan.kind === 'like' ? scan : { kind: 'like', terms: [sanitizeQuery(q)], combine: 'and' };
}

/**
 * A compact result (the agent's adaptive detail below the first): the anchor
 * alone, no bookends, and how many messages the window would have held.
 */
function compactView(counts: AnchorCounts | null): AnchoredView {
  if (!counts) return EMPTY_VIEW;
  return {
    messages: [counts.anchor],
    bookend_start: [],
    bookend_end: [],
    messages_before: counts.messages_before,
    messages_after: counts.messages_after,
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

/** Matching message rows a count reads at most; past it the count says "N+". */
export const COUNT_ROW_CAP = 50_000;

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
