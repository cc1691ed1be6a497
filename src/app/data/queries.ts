/**
 * The query worker's protocol, and the one function that answers it: full-text
 * search (with hit counts in batches) and the full Recent list, off the main thread.
 */
import { compressionChain } from '../../store/lineage.js';
import { hitsInSessions } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type { HiddenCounts, SearchPath, Sort } from '../../store/types.js';
import type { ResultItem, SessionRow } from '../model.js';
import type { Agent } from '../../agents/model.js';
import { agentFilter } from './agentIds.js';
import type { AgentSource } from './agentSource.js';
import { clean, loadRecent, searchResultItems, type RecentAnswer } from './rows.js';

/** The full Recent list (also what fuzzy search searches), loaded off the main thread. */
export const RECENT_FULL_LIMIT = 5_000;
/** Results per full-text search (the agent fetches 50 hits before deduping). */
export const SEARCH_LIMIT = 50;

export type QueryRequest =
  | {
      kind: 'search';
      generation: number;
      query: string;
      sort: Sort;
      roles: string[];
      limit: number;
      /** Only these agents' conversations (the `agent:` chip, via agentFilter); all when absent. */
      agents?: string[];
    }
  | { kind: 'recent'; generation: number; all: boolean; limit: number };

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

/** Hit counts are posted in batches so the visible rows fill in first. */
const HIT_COUNT_BATCH = 8;

/** Recent across Hermes and the index: newest activity first, every row tagged. */
export function mergedRecent(
  store: Store,
  agents: AgentSource | null,
  limit: number,
  all: boolean,
): RecentAnswer {
  const h = loadRecent(store, limit, all);
  if (!agents) return h;
  const ours = agents.recent(limit, all);
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
    ? searchResultItems(store, req.query, req.sort, req.roles, req.limit)
    : { items: [], path: 'fts' as SearchPath, message: null };
  if (!agents) return h;
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
): void {
  try {
    if (req.kind === 'recent') {
      const r = mergedRecent(store, agents, req.limit, req.all);
      post({ kind: 'recent', generation: req.generation, ...r });
      return;
    }
    const r = mergedSearch(store, agents, req);
    post({ kind: 'search', generation: req.generation, forText: req.query, ...r });
    let counts: Record<string, number> = {};
    let n = 0;
    for (const item of r.items) {
      if (agents && item.agent !== undefined && item.agent !== 'hermes')
        counts[item.key] = agents.hits(req.query, item.sessionId, req.roles).length;
      else {
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
