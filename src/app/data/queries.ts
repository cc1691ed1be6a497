/**
 * The query worker's protocol, and the one function that answers it: full-text
 * search (with hit counts in batches) and the full Recent list, off the main thread.
 */
import { compressionChain } from '../../store/lineage.js';
import { countConversations, hitsInSessions } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type { Filters, HiddenCounts, SearchPath, Sort } from '../../store/types.js';
import type { ResultItem, SessionRow } from '../model.js';
import type { Agent } from '../../agents/model.js';
import { agentFilter } from './agentIds.js';
import type { AgentSource } from './agentSource.js';
import { clean, loadRecent, searchResultItems, type RecentAnswer } from './rows.js';
import { everyRecent, everySearch, type ProfileRef, type RefOpener } from './everyProfile.js';
import { splitProfileSession } from './profileIds.js';

export { RECENT_FULL_LIMIT } from '../../budgets.js';
export { SEARCH_LIMIT } from '../../budgets.js';

/** The store filters one at a time, to name the one that excludes everything. */
export type FilterField = 'sources' | 'after' | 'before' | 'cwd' | 'model';
const FILTER_FIELDS: readonly FilterField[] = ['sources', 'after', 'before', 'cwd', 'model'];

/** What an empty answer's hint needs (query/filters.ts noResultsHint), found by cheap counts. */
export interface NoResultsFacts {
  /** Conversations the query finds without the filters (when there were filters). */
  unfilteredCount?: number;
  /** The one filter that alone finds nothing. */
  excludingFilter?: FilterField;
  /** The last word as a prefix (`word*`) finds something. */
  prefixWouldMatch?: boolean;
  /** Tool output (left out of the search) would match: `t` includes it. */
  toolWouldMatch?: boolean;
}

export type QueryRequest =
  | {
      kind: 'search';
      generation: number;
      query: string;
      sort: Sort;
      roles: string[];
      limit: number;
      /** The whole search line the answer is for (query is its free text). */
      forText?: string;
      filters?: Filters;
      /** Count every matching conversation ("50 of 190"); a request for more rows of the same query skips it. */
      count?: boolean;
      /** Hit counts only for results from this index on (the ones a page of more adds). */
      countsFrom?: number;
      /** H: other agents' messages that were taken back are hits too (marked). */
      all?: boolean;
      /** Only these agents' conversations (the `agent:` chip, via agentFilter); all when absent. */
      agents?: string[];
      /** The every-profile view (P): the other profiles' stores searched too. */
      profiles?: ProfileRef[];
    }
  | {
      kind: 'recent';
      generation: number;
      all: boolean;
      limit: number;
      filters?: Filters;
      /** The every-profile view (P): the other profiles' stores listed too. */
      profiles?: ProfileRef[];
    };

export type QueryResponse =
  | {
      kind: 'search';
      generation: number;
      forText: string;
      items: ResultItem[];
      path: SearchPath;
      message: string | null;
    }
  | { kind: 'hitCounts'; generation: number; counts: Record<string, number> }
  /** How many conversations the query matches in all (capped: at least that many). */
  | { kind: 'count'; generation: number; total: number; capped: boolean }
  | { kind: 'noResults'; generation: number; facts: NoResultsFacts }
  | {
      kind: 'recent';
      generation: number;
      rows: SessionRow[];
      hidden: HiddenCounts;
      complete: boolean;
    }
  | { kind: 'error'; generation: number; request: QueryRequest['kind']; message: string }
  /** The request is fully answered (sent last, always). */
  | { kind: 'done'; generation: number; request: QueryRequest['kind'] };

import { HIT_COUNT_BATCH } from '../../budgets.js';

/** Recent across Hermes and the index: newest activity first, every row tagged. */
/** Whether the store's filters are in use: the other agents' index cannot apply them. */
function hermesOnly(filters: Filters | undefined): boolean {
  return filters !== undefined && Object.values(filters).some((v) => v !== undefined);
}

export function mergedRecent(
  store: Store,
  agents: AgentSource | null,
  limit: number,
  all: boolean,
  filters?: Filters,
): RecentAnswer {
  const h = loadRecent(store, limit, all, filters);
  if (!agents) return h;
  const ours = agents.recent(limit, all);
  // No other agent's history on this machine: no tags, the list as before.
  if (ours.length === 0 && !agents.hasConversations()) return h;
  const rows = [...h.rows.map((r) => ({ ...r, agent: 'hermes' })), ...ours]
    .sort((a, b) => b.lastActive - a.lastActive)
    .slice(0, limit);
  return { rows, hidden: h.hidden, complete: h.complete && ours.length < limit };
}

/**
 * Full-text results across Hermes and the index. Two indexes' scores do not
 * compare, so relevance takes turns; newest/oldest merge by the hit's time.
 */
export function mergedSearch(
  store: Store,
  agents: AgentSource | null,
  req: Extract<QueryRequest, { kind: 'search' }>,
): ReturnType<typeof searchResultItems> {
  const filter = req.agents ? agentFilter(req.agents) : null;
  const wanted = filter && filter.agents.length > 0 ? filter.agents : null;
  const withHermes = !wanted || wanted.includes('hermes');
  const h = withHermes
    ? searchResultItems(store, req.query, req.sort, req.roles, req.limit, req.filters)
    : { items: [], path: 'fts' as SearchPath, message: null };
  if (!agents || !agents.hasConversations()) return h;
  const indexAgents = wanted ? (wanted.filter((a) => a !== 'hermes') as Agent[]) : undefined;
  const ours =
    indexAgents && indexAgents.length === 0
      ? []
      : agents.search(req.query, req.sort, req.roles, req.limit, indexAgents);
  const a = h.items.map((r) => ({ ...r, agent: 'hermes' }));
  let items: ResultItem[] = [];
  if (req.sort === 'newest' || req.sort === 'oldest') {
    const dir = req.sort === 'newest' ? -1 : 1;
    items = [...a, ...ours].sort((x, y) => dir * (x.when - y.when));
  } else
    for (let i = 0; i < Math.max(a.length, ours.length); i++)
      items.push(...[a[i], ours[i]].filter((x): x is ResultItem => x !== undefined));
  items = items.slice(0, req.limit);
  return { items, path: h.path, message: items.length > 0 ? null : h.message };
}

/** Answers one request (in the worker, or inline in tests); `post` may be called several times. */
export function answerQuery(
  store: Store,
  req: QueryRequest,
  post: (r: QueryResponse) => void,
  agents: AgentSource | null = null,
  /** Opens another profile's store for the every-profile view; absent, requests naming profiles read this store alone. */
  openRef: RefOpener | null = null,
): void {
  const refs = openRef && req.profiles && req.profiles.length > 0 ? req.profiles : null;
  try {
    if (req.kind === 'recent') {
      let r = mergedRecent(
        store,
        hermesOnly(req.filters) ? null : agents,
        req.limit,
        req.all,
        req.filters,
      );
      if (refs) r = everyRecent(r, store.profile, refs, openRef!, req.limit, req.all, req.filters);
      post({ kind: 'recent', generation: req.generation, ...r });
      return;
    }
    // The other agents' index has none of the store's filters: a filtered search is Hermes alone.
    agents?.setShowTakenBack(req.all === true);
    const others = hermesOnly(req.filters) ? null : agents;
    let r = mergedSearch(store, others, req);
    if (refs) r = everySearch(r, store.profile, refs, openRef!, req);
    post({
      kind: 'search',
      generation: req.generation,
      forText: req.forText ?? req.query,
      ...r,
    });
    if (r.items.length === 0) {
      post({
        kind: 'noResults',
        generation: req.generation,
        facts: noResultsFacts(store, req, others),
      });
    } else if (
      req.count &&
      !refs &&
      r.items.every((i) => i.agent === undefined || i.agent === 'hermes')
    ) {
      // The count is the Hermes store's: offered only while the results are all from it.
      // Fewer than asked: that is all of them, no count needed.
      const c =
        r.items.length < req.limit
          ? { count: r.items.length, capped: false }
          : countConversations(store, req.query, {
              roles: req.roles,
              ...(req.filters ? { filters: req.filters } : {}),
            });
      if (c)
        post({
          kind: 'count',
          generation: req.generation,
          total: Math.max(c.count, r.items.length),
          capped: c.capped,
        });
    }
    let counts: Record<string, number> = {};
    let n = 0;
    for (const item of r.items.slice(req.countsFrom ?? 0)) {
      const prof = refs ? splitProfileSession(item.sessionId) : null;
      const ref = prof ? refs?.find((x) => x.name === prof.profile) : undefined;
      if (others && item.agent !== undefined && item.agent !== 'hermes')
        counts[item.key] = others.hits(req.query, item.sessionId, req.roles).length;
      else if (prof && ref) {
        const s = openRef!(ref);
        const chain = s.read(() => compressionChain(s, prof.nativeId));
        counts[item.key] = hitsInSessions(s, req.query, chain, { roles: req.roles }).length;
      } else {
        const chain = store.read(() => compressionChain(store, item.sessionId));
        counts[item.key] = hitsInSessions(store, req.query, chain, { roles: req.roles }).length;
      }
      if (++n % HIT_COUNT_BATCH === 0) {
        post({ kind: 'hitCounts', generation: req.generation, counts });
        counts = {};
      }
    }
    if (Object.keys(counts).length > 0)
      post({ kind: 'hitCounts', generation: req.generation, counts });
  } catch (err) {
    post({
      kind: 'error',
      generation: req.generation,
      request: req.kind,
      message: clean((err as Error)?.message ?? String(err)),
    });
  } finally {
    post({ kind: 'done', generation: req.generation, request: req.kind });
  }
}

/** Cheap counts that say why a search found nothing and what would find something. */
function noResultsFacts(
  store: Store,
  req: Extract<QueryRequest, { kind: 'search' }>,
  agents: AgentSource | null,
): NoResultsFacts {
  const facts: NoResultsFacts = {};
  // Tool output is out of a default search, as in the agents' own tools: say when it holds the words.
  if (!req.roles.includes('tool')) {
    const roles = [...(req.roles.length > 0 ? req.roles : ['user', 'assistant']), 'tool'];
    const wider = { ...req, roles, limit: 1 };
    facts.toolWouldMatch = mergedSearch(store, agents, wider).items.length > 0;
  }
  const count = (query: string, filters?: Filters): number =>
    countConversations(store, query, { roles: req.roles, ...(filters ? { filters } : {}) }, 5_000)
      ?.count ?? 0;
  const f = req.filters ?? {};
  const set = FILTER_FIELDS.filter((k) => f[k] !== undefined);
  if (set.length > 0) {
    facts.unfilteredCount = count(req.query);
    if (facts.unfilteredCount > 0)
      for (const k of set) {
        if (count(req.query, { [k]: f[k] }) === 0) {
          facts.excludingFilter = k;
          break;
        }
      }
  }
  const word = /[\p{L}\p{N}_]+$/u.exec(req.query.trim())?.[0];
  if (word !== undefined && facts.unfilteredCount === undefined)
    facts.prefixWouldMatch = count(`${req.query.trim()}*`, req.filters) > 0;
  return facts;
}
