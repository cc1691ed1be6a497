/**
 * One search answer on one route: the hits (title match first, then the index,
 * then rows a rebuilding index has not reached, then the relaxed leg), each
 * turned into a result with its snippet, metadata and anchored or compact view.
 */
import type { Store } from '../store.js';
import { sessionMeta } from '../lineage.js';
import { anchorCounts, anchoredView, sessionEdge, type AnchorCounts } from '../messages.js';
import { routeQuery } from '../query.js';
import { isoTime } from '../time.js';
import { indexStatus } from '../indexStatus.js';
import { RELAXED_ALL, RELAXED_REST } from '../relaxed.js';
import type { AnchoredView, SearchAnswer, SearchOptions, SearchResult } from '../types.js';
import { NO_MATCH, pathOf, type Hit, type Plan } from './plan.js';
import { withMatch } from './match.js';
import { discoverHits, relaxedHits } from './hits.js';
import { indexSnippets, likeRoute, snippetFor } from './snippets.js';
import { titleMatch, titleQuery } from './titles.js';
import type { SearchContext } from './context.js';
import { RESULT_WINDOW } from '../../budgets.js';

const EMPTY_VIEW: AnchoredView = {
  messages: [],
  bookend_start: [],
  bookend_end: [],
  messages_before: 0,
  messages_after: 0,
};

export function discoverWith(
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
      RESULT_WINDOW,
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
          ? anchoredView(store, hit.session_id, anchorId, RESULT_WINDOW)
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

/** Whether a hit came from the index (not from the scan over rows a rebuild has not reached). */
function hitFromIndex(hit: Hit, status: ReturnType<typeof indexStatus> | null): boolean {
  const p = status?.pending;
  return !p || hit.id <= p.lo || hit.id > p.hi;
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
