/**
 * Sanitized view models: store rows become the Recent list's and the results'
 * rows here, so nothing past this folder sees unsanitized store text.
 */
import { browse, firstUserText, hiddenCounts, previewOf } from '../../store/browse.js';
import { childrenOf, compressionChain, sessionMeta } from '../../store/lineage.js';
import { listFacts, type ListFacts } from '../../store/facts.js';
import { discover } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type { Filters, HiddenCounts, RecentRow, SearchPath, Sort } from '../../store/types.js';
import {
  parseSnippetMarkers,
  splitHighlights,
  termsFromQuery,
  type Segment,
} from '../../text/highlight.js';
import { sanitizeLine } from '../../text/sanitize.js';
import type { ResultItem, SessionRow } from '../model.js';

/**
 * Rows of Recent read synchronously (at start, and on each change while the agent
 * writes): a screenful and a few more, since each row costs a preview query and
 * the first frame waits for them; the full list follows from the worker.
 */
export function recentFirstPage(terminalRows: number): number {
  return Math.max(24, terminalRows) + 8;
}
/** Snippet markers: control characters cannot survive sanitizing, so they cannot be forged by stored text. */
export const SNIPPET_MARKERS: [string, string] = ['\u0002', '\u0003'];

export function clean(s: string | null | undefined): string {
  return sanitizeLine(s ?? '').trim();
}

function sessionRowOf(
  r: RecentRow,
  cwd: string | null,
  facts: ListFacts | undefined,
  depth = 0,
): SessionRow {
  const title = clean(r.title);
  const preview = clean(r.preview);
  return {
    sessionId: r.session_id,
    rootId: r.root_id,
    title: title || preview || '(untitled)',
    hasTitle: title !== '',
    preview,
    source: clean(r.source) || 'unknown',
    cwd: clean(cwd),
    startedAt: r.started_at,
    lastActive: r.last_active,
    // The visible messages of the whole chain: the count an opened window shows.
    messageCount: facts?.messages ?? r.message_count,
    chainLength: r.chain_length,
    open: r.live,
    endedAt: facts?.endedAt ?? null,
    endReason: facts?.endReason ?? null,
    pinned: facts?.pinned ?? false,
    lastReadAt: facts?.lastReadAt ?? null,
    hiddenReason: r.hidden_reason,
    branches: r.branches,
    depth,
  };
}

function cwdOf(store: Store, id: string): string | null {
  return sessionMeta(store, id)?.cwd ?? null;
}

/** A row's compression chain: only chains of several segments need a walk. */
function chainOfRow(store: Store, r: RecentRow): string[] {
  return r.chain_length > 1 ? compressionChain(store, r.root_id) : [r.session_id];
}

/**
 * Pinned conversations first, each group in the store's order (a stable sort).
 * The store lists them first where it knows the column; this keeps that order
 * when the app merges a fresh top page into the list.
 */
export function pinnedFirst(rows: SessionRow[]): SessionRow[] {
  if (!rows.some((r) => r.pinned)) return rows;
  return [...rows.filter((r) => r.pinned), ...rows.filter((r) => !r.pinned)];
}

export interface RecentAnswer {
  rows: SessionRow[];
  hidden: HiddenCounts;
  complete: boolean;
}

export function loadRecent(
  store: Store,
  limit: number,
  all: boolean,
  filters?: Filters,
): RecentAnswer {
  return store.read(() => {
    const raw = browse(store, { limit, all, ...(filters ? { filters } : {}) });
    const facts = listFacts(
      store,
      raw.map((r) => chainOfRow(store, r)),
    );
    const rows = raw.map((r, i) =>
      sessionRowOf(r, cwdOf(store, r.root_id) ?? cwdOf(store, r.session_id), facts[i]),
    );
    return { rows: pinnedFirst(rows), hidden: hiddenCounts(store), complete: raw.length < limit };
  });
}

/**
 * The snippet's marked matches; a substring scan (CJK, no index) returns
 * plain text, so its terms are highlighted here instead.
 */
export function snippetSegments(snippet: string, terms: readonly string[]): Segment[] {
  const segs = parseSnippetMarkers(snippet, SNIPPET_MARKERS[0], SNIPPET_MARKERS[1], sanitizeLine);
  if (segs.some((s) => s.hit)) return segs;
  return splitHighlights(segs.map((s) => s.text).join(''), terms);
}

export function searchResultItems(
  store: Store,
  query: string,
  sort: Sort,
  roles: string[],
  limit: number,
  filters?: Filters,
): { items: ResultItem[]; path: SearchPath; message: string | null } {
  const answer = discover(store, query, {
    views: false,
    markers: SNIPPET_MARKERS,
    limit,
    sort,
    roles,
    ...(filters ? { filters } : {}),
  });
  const terms = termsFromQuery(query);
  const items = answer.results.map((r): ResultItem => {
    const root = r.parent_session_id ?? r.session_id;
    return {
      key: `${r.session_id}#${r.match_message_id}`,
      kind: 'hit',
      sessionId: r.session_id,
      rootId: root,
      title: clean(r.title) || previewOf(clean(firstUserText(store, root))) || '(untitled)',
      source: clean(r.source) || 'unknown',
      startedAt: r.started_at,
      when: r.hit_timestamp,
      messageId: r.match_message_id,
      matchedRole: clean(r.matched_role),
      snippet: snippetSegments(r.snippet, terms),
      live: false,
      ...(r.match === 'relaxed' ? { relaxed: true } : {}),
    };
  });
  return { items, path: answer.path, message: answer.message };
}

/** Branch (and reset) children of a conversation's segments, as nested rows. */
export function branchRows(store: Store, row: SessionRow): SessionRow[] {
  return store.read(() => {
    const chain = compressionChain(store, row.rootId);
    const out: SessionRow[] = [];
    for (const sid of chain) {
      for (const child of childrenOf(store, sid)) {
        if (child.kind !== 'branch' && child.kind !== 'reset') continue;
        const sub = compressionChain(store, child.id);
        const tipId = sub[sub.length - 1] ?? child.id;
        const tip = sessionMeta(store, tipId);
        const grand = sub.reduce(
          (n, s) =>
            n +
            childrenOf(store, s).filter((c) => c.kind === 'branch' || c.kind === 'reset').length,
          0,
        );
        const raw: RecentRow = {
          session_id: tipId,
          title: tip?.title ?? child.title,
          source: child.source,
          started_at: child.started_at,
          last_active: tip?.ended_at ?? tip?.started_at ?? child.started_at,
          message_count: tip?.message_count ?? 0,
          preview: previewOf(firstUserText(store, child.id)),
          root_id: child.id,
          chain_length: sub.length,
          live: tip !== null && tip.ended_at === null,
          hidden_reason: null,
          branches: grand,
        };
        const [facts] = listFacts(store, [sub]);
        out.push(sessionRowOf(raw, tip?.cwd ?? null, facts, row.depth + 1));
      }
    }
    return out;
  });
}
