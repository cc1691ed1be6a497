/** The Recent and Results lists: selection, loads, branches and hit counts. */
import { EMPTY_LIST, clampList, moveBy, moveTo, pageBy, type ListState } from '../geometry/list.js';
import { listCapacity } from '../geometry/screen.js';
import type { SessionRow } from '../model.js';
import { screenOf } from './selectors.js';
import type { AppState, ListAction, RecentState, ResultsState } from './types.js';

export const EMPTY_RESULTS: ResultsState = {
  items: [],
  list: EMPTY_LIST,
  forText: '',
  busy: false,
  message: null,
  path: null,
  hitCounts: {},
  total: null,
  capped: false,
};

function flatten(
  rows: SessionRow[],
  branches: Readonly<Record<string, SessionRow[]>>,
): SessionRow[] {
  if (Object.keys(branches).length === 0) return rows;
  const out: SessionRow[] = [];
  for (const r of rows) {
    out.push(r);
    const kids = r.depth === 0 ? branches[r.rootId] : undefined;
    if (kids) out.push(...kids);
  }
  return out;
}

function withRecent(s: AppState, recent: Partial<RecentState>): AppState {
  const next = { ...s.recent, ...recent };
  if (recent.rows !== undefined || recent.branches !== undefined)
    next.entries = flatten(next.rows, next.branches);
  next.list = clampList(next.list, next.entries.length, listCapacity(screenOf(s), 'recent'));
  return { ...s, recent: next };
}

/** Keep the same conversation selected (and on the same screen row) when a list is replaced. */
function keepSelection<T>(
  oldItems: readonly T[],
  list: ListState,
  newItems: readonly T[],
  key: (t: T) => string,
  capacity: number,
): ListState {
  const cur = oldItems[list.selected];
  if (cur === undefined) return clampList(list, newItems.length, capacity);
  const k = key(cur);
  const idx = newItems.findIndex((t) => key(t) === k);
  if (idx < 0) return clampList(list, newItems.length, capacity);
  const row = list.selected - list.offset;
  return clampList({ selected: idx, offset: idx - row }, newItems.length, capacity);
}

export function reduceLists(s: AppState, a: ListAction): AppState {
  switch (a.type) {
    case 'listNav': {
      const screen = screenOf(s);
      const cap = listCapacity(screen, a.pane);
      const count = a.pane === 'recent' ? s.recent.entries.length : s.results.items.length;
      const cur = a.pane === 'recent' ? s.recent.list : s.results.list;
      const list =
        a.move === 'line'
          ? moveBy(cur, a.dir, count, cap)
          : a.move === 'page'
            ? pageBy(cur, a.dir, count, cap)
            : moveTo(cur, a.dir === 1 ? count - 1 : 0, count, cap);
      return a.pane === 'recent'
        ? {
            ...s,
            recent: { ...s.recent, list, newAbove: list.offset === 0 ? 0 : s.recent.newAbove },
          }
        : { ...s, results: { ...s.results, list } };
    }
    case 'listSelect': {
      const cap = listCapacity(screenOf(s), a.pane);
      if (a.pane === 'recent')
        return {
          ...s,
          recent: {
            ...s.recent,
            list: moveTo(s.recent.list, a.index, s.recent.entries.length, cap),
          },
        };
      return {
        ...s,
        results: {
          ...s.results,
          list: moveTo(s.results.list, a.index, s.results.items.length, cap),
        },
      };
    }
    case 'searchStarted':
      return {
        ...s,
        search: { ...s.search, generation: Math.max(s.search.generation, a.generation) },
        results: { ...s.results, busy: true },
      };
    case 'resultsLoaded': {
      if (a.generation < s.search.generation) return s;
      const cap = listCapacity(screenOf(s), 'results');
      const sameQuery = a.forText === s.results.forText;
      const list = sameQuery
        ? keepSelection(s.results.items, s.results.list, a.items, (r) => r.key, cap)
        : clampList(EMPTY_LIST, a.items.length, cap);
      return {
        ...s,
        results: {
          items: a.items,
          list,
          forText: a.forText,
          busy: false,
          message: a.message,
          path: a.path,
          hitCounts: sameQuery ? s.results.hitCounts : {},
          // More rows of the same query keep its count; a new query is counted afresh.
          total: sameQuery ? s.results.total : null,
          capped: sameQuery ? s.results.capped : false,
        },
      };
    }
    case 'resultsTotal':
      if (a.generation < s.search.generation) return s;
      return { ...s, results: { ...s.results, total: a.total, capped: a.capped } };
    case 'hitCounts':
      if (a.generation < s.search.generation) return s;
      return {
        ...s,
        results: { ...s.results, hitCounts: { ...s.results.hitCounts, ...a.counts } },
      };
    case 'clearResults':
      return {
        ...s,
        results: EMPTY_RESULTS,
      };
    case 'recentLoaded': {
      const cap = listCapacity(screenOf(s), 'recent');
      const entries = flatten(a.rows, s.recent.branches);
      const key = (r: SessionRow): string => `${r.depth}:${r.rootId}`;
      const kept = keepSelection(s.recent.entries, s.recent.list, entries, key, cap);
      // At the top, the top stays anchored: what appeared above is in view, and the
      // selection stays on the conversation the person was looking at. Scrolled
      // down, the rows stay where they were and the pane says "↑ N new".
      const atTop = s.recent.list.offset === 0;
      const list = atTop ? clampList({ ...kept, offset: 0 }, entries.length, cap) : kept;
      // Only rows the store gained are new; a new listing (H, filters) starts the count afresh.
      let newAbove = atTop || a.cause === 'relist' ? 0 : s.recent.newAbove;
      if (!atTop && s.recent.loaded && a.cause === 'grew') {
        const before = new Set(s.recent.entries.map(key));
        for (let i = 0; i < list.offset && i < entries.length; i++)
          if (!before.has(key(entries[i]!))) newAbove++;
      }
      return {
        ...s,
        hidden: a.hidden === undefined ? s.hidden : a.hidden,
        recent: {
          ...s.recent,
          rows: a.rows,
          entries,
          list,
          complete: a.complete,
          loaded: true,
          newAbove,
        },
      };
    }
    case 'branchesLoaded':
      return withRecent(s, { branches: { ...s.recent.branches, [a.rootId]: a.rows } });
    case 'collapseBranches': {
      const branches = { ...s.recent.branches };
      delete branches[a.rootId];
      const cap = listCapacity(screenOf(s), 'recent');
      const entries = flatten(s.recent.rows, branches);
      const sel = s.recent.entries[s.recent.list.selected];
      // Keep the selection; when it was one of the hidden branches, select their parent.
      let idx = sel ? entries.indexOf(sel) : -1;
      if (idx < 0) idx = entries.findIndex((r) => r.depth === 0 && r.rootId === a.rootId);
      return {
        ...s,
        recent: {
          ...s.recent,
          branches,
          entries,
          list: moveTo(s.recent.list, Math.max(0, idx), entries.length, cap),
        },
      };
    }
    case 'toggleHidden':
      return { ...s, showHidden: !s.showHidden };
    case 'toggleEveryProfile':
      return { ...s, everyProfile: !s.everyProfile };
    case 'setHere':
      return { ...s, here: a.here };
    case 'filterValues':
      return { ...s, filterValues: a.values };
  }
}
