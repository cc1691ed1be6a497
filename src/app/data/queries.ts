/**
 * The query worker's protocol, and the one function that answers it: full-text
 * search (with hit counts in batches) and the full Recent list, off the main thread.
 */
import { compressionChain } from '../../store/lineage.js';
import { hitsInSessions } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type { HiddenCounts, SearchPath, Sort } from '../../store/types.js';
import type { ResultItem, SessionRow } from '../model.js';
import { clean, loadRecent, searchResultItems } from './rows.js';

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

/** Answers one request (in the worker, or inline in tests); `post` may be called several times. */
export function answerQuery(
  store: Store,
  req: QueryRequest,
  post: (r: QueryResponse) => void,
): void {
  try {
    if (req.kind === 'recent') {
      const r = loadRecent(store, req.limit, req.all);
      post({ kind: 'recent', generation: req.generation, ...r });
      return;
    }
    const r = searchResultItems(store, req.query, req.sort, req.roles, req.limit);
    post({ kind: 'search', generation: req.generation, forText: req.query, ...r });
    let counts: Record<string, number> = {};
    let n = 0;
    for (const item of r.items) {
      const chain = store.read(() => compressionChain(store, item.sessionId));
      counts[item.key] = hitsInSessions(store, req.query, chain, { roles: req.roles }).length;
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
