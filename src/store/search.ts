/**
 * The store's search, as the agent's `session_search` does it (STORE.md): this
 * file is the door, `discover`, with its trigram retry; the parts live in
 * src/store/search/ (plan and SQL, hits, snippets, titles, the damaged-index
 * fallback, counting). The other entry points are re-exported here so callers
 * import one module.
 */
import type { Store } from './store.js';
import { hasCjk, routeQuery } from './query.js';
import type { SearchAnswer, SearchOptions } from './types.js';
import { NO_MATCH, normaliseOptions, pathOf, trigramUsable } from './search/plan.js';
import { AGENT_MARKERS } from './search/snippets.js';
import { searchContext } from './search/context.js';
import { withFallback } from './search/fallback.js';
import { discoverWith } from './search/answer.js';

export { NO_MATCH } from './search/plan.js';
export { hitsInSessions } from './search/inSessions.js';
export { countConversations, type ConversationCount } from './search/count.js';

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
