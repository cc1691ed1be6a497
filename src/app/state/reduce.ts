/**
 * All UI state and its pure reducer. Nothing here touches the store, the
 * clipboard or the terminal: the controller loads data and dispatches the
 * results as actions; tests drive the reducer directly.
 */
import type { Message } from '../../store/types.js';
import { layoutMessage, GUTTER } from '../geometry/lineLayout.js';
import { EMPTY_LIST, clampList, moveBy, moveTo, pageBy, type ListState } from '../geometry/list.js';
import type {
  CopyOption,
  HiddenCounts,
  MarkRef,
  ResultItem,
  SearchMode,
  SearchPath,
  SessionRow,
  Sort,
  StatusMessage,
  Tone,
} from '../model.js';
import {
  PANES,
  innerWidth,
  listCapacity,
  screenFor,
  type PaneId,
  type Screen,
  type Size,
} from '../geometry/screen.js';
import {
  appendItems,
  appendLive,
  edgeNeed,
  focusIndex,
  indexOfMessage,
  moveFocus,
  openWindow,
  pageMove,
  prependItems,
  relayout,
  type Edge,
  type Measure,
  type MsgWindow,
  type WinItem,
} from '../geometry/window.js';

export interface MessageView {
  win: MsgWindow;
  title: string;
  source: string;
  /** The chain's newest segment has not ended: the agent may still write to it. */
  live: boolean;
  /** The query whose hits are highlighted and walked with n/N (null: opened from Recent). */
  query: string | null;
  roles: readonly string[];
  terms: readonly string[];
  /** Hit message ids in the chain, in order. */
  hits: readonly number[];
  expanded: ReadonlySet<number>;
  reasoning: boolean;
  /** The result this view was opened from (n/N continue into its neighbours). */
  resultKey: string | null;
  /** The conversation's opening and closing messages, shown when the window does not reach them. */
  bookStart: Message | null;
  bookEnd: Message | null;
}

export type Overlay =
  { kind: 'help'; scroll: number } | { kind: 'copy'; options: CopyOption[]; selected: number };

export interface SearchState {
  text: string;
  mode: SearchMode;
  sort: Sort;
  /** Include tool output in full-text search. */
  tools: boolean;
  /** The newest search generation asked for; older answers are dropped. */
  generation: number;
}

export interface ResultsState {
  items: ResultItem[];
  list: ListState;
  /** The query (and mode) these results answer. */
  forText: string;
  busy: boolean;
  message: string | null;
  path: SearchPath | null;
  /** Hits in each result's conversation, by result key (filled in as they are counted). */
  hitCounts: Readonly<Record<string, number>>;
}

const EMPTY_RESULTS: ResultsState = {
  items: [],
  list: EMPTY_LIST,
  forText: '',
  busy: false,
  message: null,
  path: null,
  hitCounts: {},
};

export interface RecentState {
  rows: SessionRow[];
  /** Rows with expanded branches nested: what the pane shows. */
  entries: SessionRow[];
  list: ListState;
  /** Conversations whose branches are shown, by root id, with the branch rows. */
  branches: Readonly<Record<string, SessionRow[]>>;
  /** Every listed conversation is loaded (not just the first page). */
  complete: boolean;
  loaded: boolean;
}

export interface StoreInfo {
  profile: string;
  path: string;
  /** The built-in demo store (no store was found). */
  demo: boolean;
  warnings: string[];
}

export interface AppState {
  size: Size;
  store: StoreInfo;
  /** The active pane; with `typing` the search line has the keyboard and the pane follows it. */
  pane: PaneId;
  typing: boolean;
  /** The list the message view was opened from (Esc returns there). */
  origin: 'recent' | 'results';
  search: SearchState;
  results: ResultsState;
  recent: RecentState;
  hidden: HiddenCounts | null;
  showHidden: boolean;
  view: MessageView | null;
  marks: MarkRef[];
  overlay: Overlay | null;
  status: StatusMessage | null;
  /** Wall clock (epoch seconds) for ages; refreshed by the controller. */
  now: number;
}

export type Action =
  | { type: 'resize'; size: Size }
  | { type: 'setPane'; pane: PaneId }
  | { type: 'cyclePane'; dir: 1 | -1 }
  | { type: 'setTyping'; on: boolean }
  | { type: 'listNav'; pane: 'recent' | 'results'; move: 'line' | 'page' | 'edge'; dir: 1 | -1 }
  | { type: 'listSelect'; pane: 'recent' | 'results'; index: number }
  | { type: 'searchEdit'; edit: 'insert'; text: string }
  | { type: 'searchEdit'; edit: 'backspace' | 'deleteWord' | 'clear' }
  | { type: 'setMode'; mode: SearchMode }
  | { type: 'cycleSort' }
  | { type: 'toggleTools' }
  | { type: 'searchStarted'; generation: number; forText: string }
  | {
      type: 'resultsLoaded';
      generation: number;
      forText: string;
      items: ResultItem[];
      path: SearchPath | null;
      message: string | null;
    }
  | { type: 'hitCounts'; generation: number; counts: Record<string, number> }
  | { type: 'clearResults' }
  | { type: 'recentLoaded'; rows: SessionRow[]; complete: boolean; hidden?: HiddenCounts | null }
  | { type: 'branchesLoaded'; rootId: string; rows: SessionRow[] }
  | { type: 'collapseBranches'; rootId: string }
  | { type: 'toggleHidden' }
  | {
      type: 'openView';
      view: Omit<MessageView, 'win' | 'expanded' | 'reasoning'>;
      window: Omit<MsgWindow, 'top' | 'focus'>;
      focusIndex: number;
      placement: 'anchor' | 'top' | 'bottom';
      /** The list Esc returns to. */
      origin: 'recent' | 'results';
    }
  | { type: 'extendView'; side: Edge; items: WinItem[]; reached: boolean }
  | { type: 'liveAppend'; items: WinItem[]; live: boolean; bookEnd?: Message | null }
  | { type: 'chainGrew'; chain: string[]; total: number; live: boolean }
  | { type: 'viewNav'; move: 'line' | 'page'; dir: 1 | -1 }
  | { type: 'focusMessage'; id: number }
  | { type: 'toggleExpand' }
  | { type: 'toggleReasoning' }
  | { type: 'setHits'; hits: number[] }
  | { type: 'toggleMark'; ref: MarkRef }
  | { type: 'clearMarks' }
  | { type: 'openHelp' }
  | { type: 'helpScroll'; delta: number }
  | { type: 'openCopyMenu'; options: CopyOption[] }
  | { type: 'menuMove'; dir: 1 | -1 }
  | { type: 'closeOverlay' }
  | { type: 'status'; text: string; tone?: Tone }
  | { type: 'clearStatus' }
  | { type: 'tick'; now: number };

export interface InitOptions {
  size: Size;
  store: StoreInfo;
  now: number;
  rows?: SessionRow[];
  hidden?: HiddenCounts | null;
}

export function initialState(o: InitOptions): AppState {
  const rows = o.rows ?? [];
  return {
    size: o.size,
    store: o.store,
    pane: 'recent',
    typing: false,
    origin: 'recent',
    search: { text: '', mode: 'fulltext', sort: 'relevance', tools: false, generation: 0 },
    results: EMPTY_RESULTS,
    recent: {
      rows,
      entries: rows,
      list: EMPTY_LIST,
      branches: {},
      complete: false,
      loaded: o.rows !== undefined,
    },
    hidden: o.hidden ?? null,
    showHidden: false,
    view: null,
    marks: [],
    overlay: null,
    status: null,
    now: o.now,
  };
}

// ---------------------------------------------------------------- selectors

export function screenOf(s: AppState): Screen {
  return screenFor(s.size);
}

/** Which pane narrow mode shows (wide mode shows all three). */
export function shownPane(s: AppState): PaneId {
  return s.pane;
}

export function roles(s: AppState): string[] {
  return s.search.tools ? ['user', 'assistant', 'tool'] : ['user', 'assistant'];
}

export function messageWidth(s: AppState): number {
  return Math.max(4, innerWidth(screenOf(s), 'messages') - GUTTER);
}

/** Height of a message view's scrolling area: the pane less the bookend lines. */
export function viewHeight(
  s: AppState,
  view: { win: Pick<MsgWindow, 'atStart' | 'atEnd'> } | null = s.view,
): number {
  const inner = screenOf(s).innerHeight;
  if (!view) return inner;
  const bookends = (view.win.atStart ? 0 : 1) + (view.win.atEnd ? 0 : 1);
  return Math.max(1, inner - bookends);
}

export function measureFor(
  s: AppState,
  view: Pick<MessageView, 'expanded' | 'reasoning' | 'terms'>,
): Measure {
  const width = messageWidth(s);
  return (item) =>
    item.kind === 'divider'
      ? 1
      : layoutMessage(item.msg, {
          width,
          expanded: view.expanded.has(item.msg.id),
          reasoning: view.reasoning,
          terms: view.terms,
        }).lines.length;
}

export function selectedResult(s: AppState): ResultItem | null {
  return s.results.items[s.results.list.selected] ?? null;
}

export function selectedRecent(s: AppState): SessionRow | null {
  return s.recent.entries[s.recent.list.selected] ?? null;
}

export function isMarked(s: AppState, ref: MarkRef): boolean {
  return s.marks.some((m) => m.sessionId === ref.sessionId && m.messageId === ref.messageId);
}

/** Which loaded edge of the message view should be extended now, if any. */
export function viewEdgeNeed(s: AppState): Edge | null {
  const v = s.view;
  if (!v) return null;
  return edgeNeed(v.win, measureFor(s, v), viewHeight(s, v));
}

// ---------------------------------------------------------------- helpers

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

function setView(s: AppState, view: MessageView | null): AppState {
  return { ...s, view };
}

function updateView(
  s: AppState,
  fn: (v: MessageView, measure: Measure, viewH: number) => MessageView,
): AppState {
  const v = s.view;
  if (!v) return s;
  return setView(s, fn(v, measureFor(s, v), viewHeight(s, v)));
}

const SORTS: readonly Sort[] = ['relevance', 'newest', 'oldest'];

function deleteWord(text: string): string {
  return text.replace(/\s*\S+\s*$/u, '');
}

function dropLastChar(text: string): string {
  const chars = Array.from(text);
  chars.pop();
  return chars.join('');
}

// ---------------------------------------------------------------- reducer

export function reduce(s: AppState, a: Action): AppState {
  switch (a.type) {
    case 'resize': {
      const old = s.view;
      let next: AppState = { ...s, size: a.size };
      if (old) {
        const oldMeasure = measureFor(s, old);
        const v = {
          ...old,
          win: relayout(
            old.win,
            oldMeasure,
            measureFor(next, old),
            viewHeight(next, old),
            viewHeight(s, old),
          ),
        };
        next = setView(next, v);
      }
      const screen = screenOf(next);
      return {
        ...next,
        recent: {
          ...next.recent,
          list: clampList(
            next.recent.list,
            next.recent.entries.length,
            listCapacity(screen, 'recent'),
          ),
        },
        results: {
          ...next.results,
          list: clampList(
            next.results.list,
            next.results.items.length,
            listCapacity(screen, 'results'),
          ),
        },
      };
    }
    case 'setPane':
      return { ...s, pane: a.pane, typing: false };
    case 'cyclePane': {
      const avail = PANES.filter((p) => p !== 'messages' || s.view !== null);
      const i = avail.indexOf(s.pane);
      const pane = avail[(i + a.dir + avail.length) % avail.length] ?? 'recent';
      return { ...s, pane, typing: false };
    }
    case 'setTyping':
      // While typing, the arrows move the results (as in fzf), so that pane is the active one.
      return a.on ? { ...s, typing: true, pane: 'results' } : { ...s, typing: false };
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
        ? { ...s, recent: { ...s.recent, list } }
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
    case 'searchEdit': {
      const t = s.search.text;
      const text =
        a.edit === 'insert'
          ? t + a.text
          : a.edit === 'backspace'
            ? dropLastChar(t)
            : a.edit === 'deleteWord'
              ? deleteWord(t)
              : '';
      return text === t ? s : { ...s, search: { ...s.search, text } };
    }
    case 'setMode':
      return { ...s, search: { ...s.search, mode: a.mode } };
    case 'cycleSort': {
      const i = SORTS.indexOf(s.search.sort);
      return { ...s, search: { ...s.search, sort: SORTS[(i + 1) % SORTS.length] ?? 'relevance' } };
    }
    case 'toggleTools':
      return { ...s, search: { ...s.search, tools: !s.search.tools } };
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
        },
      };
    }
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
      const list = keepSelection(
        s.recent.entries,
        s.recent.list,
        entries,
        (r) => `${r.depth}:${r.sessionId}`,
        cap,
      );
      return {
        ...s,
        hidden: a.hidden === undefined ? s.hidden : a.hidden,
        recent: { ...s.recent, rows: a.rows, entries, list, complete: a.complete, loaded: true },
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
    case 'openView': {
      const expanded = new Set<number>();
      const reasoning = s.view?.reasoning ?? false;
      const measure = measureFor(s, { expanded, reasoning, terms: a.view.terms });
      const win = openWindow(
        a.window,
        a.focusIndex,
        measure,
        viewHeight(s, { win: a.window }),
        a.placement,
      );
      return {
        ...s,
        view: { ...a.view, win, expanded, reasoning },
        pane: 'messages',
        origin: a.origin,
        typing: false,
        overlay: null,
      };
    }
    case 'extendView':
      return updateView(s, (v, measure, viewH) => ({
        ...v,
        win:
          a.side === 'before'
            ? prependItems(v.win, a.items, a.reached, measure, viewH)
            : appendItems(v.win, a.items, a.reached, measure, viewH),
      }));
    case 'liveAppend':
      return updateView(s, (v, measure, viewH) => ({
        ...v,
        live: a.live,
        bookEnd: a.bookEnd === undefined ? v.bookEnd : a.bookEnd,
        win: appendLive(v.win, a.items, measure, viewH),
      }));
    case 'chainGrew':
      return updateView(s, (v) => ({
        ...v,
        live: a.live,
        win: { ...v.win, chain: a.chain, total: a.total, atEnd: false },
      }));
    case 'viewNav':
      return updateView(s, (v, measure, viewH) => ({
        ...v,
        win:
          a.move === 'line'
            ? moveFocus(v.win, measure, viewH, a.dir)
            : pageMove(v.win, measure, viewH, a.dir),
      }));
    case 'focusMessage':
      return updateView(s, (v, measure, viewH) => {
        const i = indexOfMessage(v.win.items, a.id);
        return i < 0 ? v : { ...v, win: focusIndex(v.win, i, measure, viewH) };
      });
    case 'toggleExpand':
      return updateView(s, (v) => {
        const item = v.win.items[v.win.focus];
        if (!item || item.kind !== 'message') return v;
        const expanded = new Set(v.expanded);
        if (expanded.has(item.msg.id)) expanded.delete(item.msg.id);
        else expanded.add(item.msg.id);
        const next = { ...v, expanded };
        // The header stays on its row; only the lines below it change.
        return {
          ...next,
          win: relayout(v.win, measureFor(s, v), measureFor(s, next), viewHeight(s, next)),
        };
      });
    case 'toggleReasoning':
      return updateView(s, (v) => {
        const next = { ...v, reasoning: !v.reasoning };
        return {
          ...next,
          win: relayout(v.win, measureFor(s, v), measureFor(s, next), viewHeight(s, next)),
        };
      });
    case 'setHits':
      return updateView(s, (v) => ({ ...v, hits: a.hits }));
    case 'toggleMark': {
      const marked = isMarked(s, a.ref);
      return {
        ...s,
        marks: marked
          ? s.marks.filter(
              (m) => !(m.sessionId === a.ref.sessionId && m.messageId === a.ref.messageId),
            )
          : [...s.marks, a.ref],
      };
    }
    case 'clearMarks':
      return { ...s, marks: [] };
    case 'openHelp':
      return { ...s, overlay: { kind: 'help', scroll: 0 } };
    case 'helpScroll':
      // Clamped by the view, which knows how many lines the help has at this size.
      return s.overlay?.kind === 'help'
        ? { ...s, overlay: { kind: 'help', scroll: Math.max(0, s.overlay.scroll + a.delta) } }
        : s;
    case 'openCopyMenu':
      return { ...s, overlay: { kind: 'copy', options: a.options, selected: 0 } };
    case 'menuMove': {
      const o = s.overlay;
      if (!o || o.kind !== 'copy' || o.options.length === 0) return s;
      const n = o.options.length;
      return { ...s, overlay: { ...o, selected: (o.selected + a.dir + n) % n } };
    }
    case 'closeOverlay':
      return { ...s, overlay: null };
    case 'status':
      return { ...s, status: { text: a.text, tone: a.tone ?? 'info' } };
    case 'clearStatus':
      return s.status === null ? s : { ...s, status: null };
    case 'tick':
      return { ...s, now: a.now };
  }
}
