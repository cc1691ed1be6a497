/**
 * The query worker's protocol, and the one function that answers it: full-text
 * search (with hit counts in batches) and the full Recent list, off the main thread.
 */
import { compressionChain } from '../../store/lineage.js';
import { countConversations, hitsInSessions } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type { HiddenCounts, SearchPath, Sort } from '../../store/types.js';
import type { Meaning, ResultItem, SessionRow } from '../model.js';
import type { AgentSource } from './agentSource.js';
import type { ProfileRef, RefOpener } from './everyProfile.js';
import type { HostIndexRef, IndexOpener } from './hostAgents.js';
import type { AppFilters } from './filters.js';
import {
  countEverywhere,
  recentEverywhere,
  searchEverywhere,
  type AppSources,
  type ListedRecent,
} from './lists.js';
import { nativeSessionId } from '../../ids/app.js';
import { Conversations } from '../../recall/conversation.js';
import { clean } from './rows.js';

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
      /** The store's filters and the `agent:`/`profile:` chips (filters.ts AppFilters). */
      filters?: AppFilters;
      /** Count every matching conversation ("50 of 190"); a request for more rows of the same query skips it. */
      count?: boolean;
      /** Hit counts only for results from this index on (the ones a page of more adds). */
      countsFrom?: number;
      /** H: other agents' messages that were taken back are hits too (marked). */
      all?: boolean;
      /** The every-profile view (P): the other profiles' stores searched too. */
      profiles?: ProfileRef[];
      /** Other machines' agents' indexes (`lookback sync --host`), searched too. */
      hostIndexes?: HostIndexRef[];
    }
  | {
      /** By meaning (`v`): the hybrid/semantic answer (src/app/data/meaning.ts), off the main thread too. */
      kind: 'meaning';
      generation: number;
      query: string;
      forText: string;
      mode: Exclude<Meaning, 'lexical'>;
      /** The embedder's spec; the worker opens it once and keeps it. */
      embedder: string;
      limit: number;
      /** The background worker embeds: the search embeds nothing and says how much is done. */
      background: boolean;
      /** Over the other agents' index instead of the Hermes store: these agents (src/semantic/agents.ts). */
      agents?: string[];
    }
  | {
      kind: 'recent';
      generation: number;
      all: boolean;
      limit: number;
      filters?: AppFilters;
      /** The every-profile view (P): the other profiles' stores listed too. */
      profiles?: ProfileRef[];
      /** Other machines' agents' indexes (`lookback sync --host`), listed too. */
      hostIndexes?: HostIndexRef[];
    };

export type QueryResponse =
  | {
      kind: 'search';
      generation: number;
      forText: string;
      items: ResultItem[];
      path: SearchPath;
      message: string | null;
      /** Sources a filter could not apply to, one line each (src/recall/answer.ts admitFilters). */
      refused?: string[];
    }
  | {
      kind: 'meaning';
      generation: number;
      forText: string;
      items: ResultItem[];
      /** Said on the status line: a fallback, a part-embedded store. */
      note: string | null;
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
      refused?: string[];
    }
  | { kind: 'error'; generation: number; request: QueryRequest['kind']; message: string }
  /** The request is fully answered (sent last, always). */
  | { kind: 'done'; generation: number; request: QueryRequest['kind'] };

import { COUNT_CAP, HIT_COUNT_BATCH } from '../../budgets.js';

/** One source's count of a conversation's matching messages (n/N's total). */
type HitCounter = (query: string, sessionId: string, roles: readonly string[]) => number;

/** A Hermes store's counter; `native` maps the app id to the store's own. */
function storeCounter(st: Store, native: (sessionId: string) => string): HitCounter {
  return (query, sessionId, roles) => {
    const chain = st.read(() => compressionChain(st, native(sessionId)));
    return hitsInSessions(st, query, chain, { roles: [...roles] }).length;
  };
}

/** The worker's sources of hit counts, found for each item by the core's one lookup. */
function counters(s: AppSources): Conversations<HitCounter> {
  const agents = s.agents;
  return new Conversations<HitCounter>({
    own: storeCounter(s.store, (id) => id),
    profile: (name) => {
      const ref = s.refs?.find((x) => x.name === name);
      return ref && s.open ? storeCounter(s.open(ref), nativeSessionId) : null;
    },
    profileSlot: () => null,
    agents: agents ? (q, sid, roles) => agents.hits(q, [sid], roles).length : null,
    hostAgents: (host) => {
      const ref = s.hostIndexes?.find((r) => r.host === host);
      if (!ref || !s.openIndex) return null;
      const a = s.openIndex(ref);
      return (q, sid, roles) => a.hits(q, [sid], roles).length;
    },
  });
}

function countsFor(
  c: Conversations<HitCounter>,
  req: Extract<QueryRequest, { kind: 'search' }>,
  item: ResultItem,
): number {
  return c.of(item.sessionId)?.(req.query, item.sessionId, req.roles) ?? 0;
}

/** The sources a request reads: this store, the index, and the every-profile view's stores. */
function sourcesOf(
  store: Store,
  req: QueryRequest,
  agents: AgentSource | null,
  openRef: RefOpener | null,
  openIndex: IndexOpener | null,
): AppSources {
  const asked = req.kind === 'meaning' ? undefined : req.profiles;
  const refs = openRef && asked && asked.length > 0 ? asked : null;
  const askedHosts = req.kind === 'meaning' ? undefined : req.hostIndexes;
  const hostIndexes = openIndex && askedHosts?.length ? askedHosts : null;
  return {
    store,
    agents,
    refs,
    open: refs ? openRef : null,
    hostIndexes,
    openIndex: hostIndexes ? openIndex : null,
  };
}

/** Recent across every source, by the core's rule and merge (lists.ts). */
export function mergedRecent(
  store: Store,
  agents: AgentSource | null,
  limit: number,
  all: boolean,
  filters?: AppFilters,
  refs?: readonly ProfileRef[] | null,
  openRef?: RefOpener | null,
  hosts?: { refs: readonly HostIndexRef[]; open: IndexOpener } | null,
): ListedRecent {
  const on =
    refs && refs.length > 0 && openRef ? { refs, open: openRef } : { refs: null, open: null };
  const idx =
    hosts && hosts.refs.length > 0 ? { hostIndexes: hosts.refs, openIndex: hosts.open } : {};
  return recentEverywhere({ store, agents, ...on, ...idx }, limit, all, filters);
}

/** Answers one request (in the worker, or inline in tests); `post` may be called several times. */
export function answerQuery(
  store: Store,
  req: QueryRequest,
  post: (r: QueryResponse) => void,
  agents: AgentSource | null = null,
  /** Opens another profile's store for the every-profile view; absent, requests naming profiles read this store alone. */
  openRef: RefOpener | null = null,
  /** Opens a synced host's agents' index; absent, requests naming host indexes read none. */
  openIndex: IndexOpener | null = null,
): void {
  const s = sourcesOf(store, req, agents, openRef, openIndex);
  try {
    // Asynchronous, with a model: meaning.ts answerMeaning answers it (the worker and create.ts route it there).
    if (req.kind === 'meaning') throw new Error('a search by meaning is answered by answerMeaning');
    if (req.kind === 'recent') {
      const r = recentEverywhere(s, req.limit, req.all, req.filters);
      post({ kind: 'recent', generation: req.generation, ...r });
      return;
    }
    agents?.setShowTakenBack(req.all === true);
    for (const r of s.hostIndexes ?? []) s.openIndex?.(r).setShowTakenBack(req.all === true);
    const r = searchEverywhere(s, req);
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
        facts: noResultsFacts(s, req),
      });
    } else if (req.count) {
      // Fewer than asked: that is all of them. Else every source's count, summed.
      const c =
        r.items.length < req.limit
          ? { count: r.items.length, capped: false }
          : countEverywhere(
              s,
              req,
              (st, filters) =>
                countConversations(st, req.query, {
                  roles: req.roles,
                  ...(filters ? { filters } : {}),
                }),
              COUNT_CAP,
            );
      post({
        kind: 'count',
        generation: req.generation,
        total: Math.max(c.count, r.items.length),
        capped: c.capped,
      });
    }
    let counts: Record<string, number> = {};
    let n = 0;
    const hc = counters(s);
    for (const item of r.items.slice(req.countsFrom ?? 0)) {
      counts[item.key] = countsFor(hc, req, item);
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

/** Cheap counts, over every source the search read, that say why it found nothing and what would find something. */
function noResultsFacts(
  s: AppSources,
  req: Extract<QueryRequest, { kind: 'search' }>,
): NoResultsFacts {
  const facts: NoResultsFacts = {};
  // Tool output is out of a default search, as in the agents' own tools: say when it holds the words.
  if (!req.roles.includes('tool')) {
    const roles = [...(req.roles.length > 0 ? req.roles : ['user', 'assistant']), 'tool'];
    facts.toolWouldMatch = searchEverywhere(s, { ...req, roles, limit: 1 }).items.length > 0;
  }
  const count = (query: string, filters?: AppFilters): number => {
    const ask = { ...req, query, ...(filters ? { filters } : { filters: undefined }) };
    return countEverywhere(
      s,
      ask,
      (st, f) =>
        countConversations(st, query, { roles: req.roles, ...(f ? { filters: f } : {}) }, 5_000),
      5_000,
    ).count;
  };
  const f = req.filters ?? {};
  // Whose conversations are listed stays as asked; the store's filters are tried one at a time.
  const owners: AppFilters = {
    ...(f.agents ? { agents: f.agents } : {}),
    ...(f.profiles ? { profiles: f.profiles } : {}),
  };
  const set = FILTER_FIELDS.filter((k) => f[k] !== undefined);
  if (set.length > 0) {
    facts.unfilteredCount = count(req.query, owners);
    if (facts.unfilteredCount > 0)
      for (const k of set) {
        if (count(req.query, { ...owners, [k]: f[k] }) === 0) {
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
