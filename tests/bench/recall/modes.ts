/** The search modes the recall benchmark compares, each over the real search path. */
import { discover } from '../../../src/store/search.js';
import type { Store } from '../../../src/store/store.js';
import type { Ranked } from './metrics.js';
import { K } from './metrics.js';
import { convSearch } from './convMode.js';
import { aggSearch } from './aggMode.js';

export interface Mode {
  name: string;
  /** What it is, one line, for the report. */
  about: string;
  search: (query: string) => Ranked[];
  /** Work before the timed questions (embedding the queries), when the mode needs it. */
  prepare?: (queries: readonly string[]) => Promise<void>;
  /** The first n answers (past the page), for the headroom analysis. */
  deep?: (query: string, n: number) => Ranked[];
  /** One short note on how this question was answered (the blend's standout and weight), for the headroom analysis. */
  note?: (query: string) => string;
}

function ranked(store: Store, query: string, relaxed: boolean, limit = K): Ranked[] {
  const answer = discover(store, query, { limit, views: false, relaxed });
  return answer.results.map((r) => ({
    root: r.parent_session_id ?? r.session_id,
    message: r.match_message_id,
    relaxed: r.match === 'relaxed',
  }));
}

export function lexicalModes(store: Store): Mode[] {
  return [
    {
      name: 'exact',
      about: 'lookback before #22: every word must match (FTS5 implicit AND)',
      search: (q) => ranked(store, q, false),
    },
    {
      name: 'relaxed',
      about: 'exact hits, then relaxed BM25 (any word, stop words dropped, stems as prefixes)',
      search: (q) => ranked(store, q, true),
      deep: (q, n) => ranked(store, q, true, n),
    },
    // LOOKBACK_RECALL_EXPERIMENTS=1: conversations ranked as documents (convRank.ts), not shipped.
    ...(process.env.LOOKBACK_RECALL_EXPERIMENTS === '1'
      ? [0, 0.75, 1].map((b) => ({
          name: `conv-b${b}`,
          about: `experiment: conversations as documents, per-word BM25 summed, length norm b ${b}`,
          search: (q: string) => convSearch(store, q, 400, b),
        }))
      : []),
    ...(process.env.LOOKBACK_RECALL_AGG
      ? process.env.LOOKBACK_RECALL_AGG.split(';').map((spec) => {
          const [pool, ...w] = spec.split(',').map(Number);
          return {
            name: `agg-${spec}`,
            about: `experiment: relaxed messages (pool ${pool}) per conversation, weights ${w.join(' ')}`,
            search: (q: string) => aggSearch(store, q, pool!, w),
          };
        })
      : []),
  ];
}
