/**
 * The controller: the one place where key presses become effects. It routes
 * keys (router.ts), loads data (data.ts, the query worker), copies, polls for
 * store changes, and dispatches plain actions to the pure reducer (state.ts).
 * The React container subscribes to it; nothing here renders.
 */
import {
  link,
  multi,
  quote,
  scrollCall,
  windowMarkdown,
  type WindowMessage,
} from '../../anchors/format.js';
import { parseAnchor, parseAnchors } from '../../anchors/parse.js';
import type { CopyResult } from '../../clipboard/copy.js';
import { contentText } from '../../store/content.js';
import type { Message } from '../../store/types.js';
import { termsFromQuery } from '../../text/highlight.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { truncate } from '../../text/width.js';
import type { Opened } from '../data/chainWindow.js';
import type { Recovery } from '../data/live.js';
import { RECENT_FULL_LIMIT, SEARCH_LIMIT, type QueryResponse } from '../data/queries.js';
import { recentFirstPage } from '../data/rows.js';
import type { DataSource } from '../data/source.js';
import { formatCount, plural } from '../../text/format.js';
import { fuzzyResults } from '../data/fuzzy.js';
import type { CommandId, KeyLike } from '../input/keymap.js';
import type { CopyOption, MarkRef, ResultItem, SessionRow } from '../model.js';
import { QueryClient, type BackendFactory } from '../query/client.js';
import { route, splitKeys, type Routed } from '../input/router.js';
import { screenFor, type Size } from '../geometry/screen.js';
import { helpMaxScroll } from '../input/help.js';
import { initialState, reduce } from '../state/reduce.js';
import {
  isMarked,
  measureFor,
  roles,
  selectedRecent,
  selectedResult,
  viewEdgeNeed,
  viewHeight,
} from '../state/selectors.js';
import type { Action, AppState, MessageView, StoreInfo } from '../state/types.js';
import {
  SLICE_MESSAGES,
  adjacentHit,
  focusedMessage,
  indexOfMessage,
  visibleSlice,
} from '../geometry/window.js';

/** Full-text search waits this long after the last key before asking (typing stays smooth; results still feel live). */
export const SEARCH_DEBOUNCE_MS = 80;
/** How often the store is asked whether the agent wrote (PRAGMA data_version: one cheap read). */
export const POLL_MS = 1_000;
/**
 * While the agent writes, a change refreshes only the top of Recent (where new
 * activity lands); the whole list, thousands of rows, at most this often. A
 * full refresh every second was the app's main cost to a busy agent.
 */
export const LIVE_FULL_REFRESH_MS = 10_000;
/** A status message stays this long, then the key hints come back. */
export const STATUS_TTL_MS = 8_000;
/** Loads per key press when the viewport nears an edge (each one is a keyset page). */
const MAX_EDGE_LOADS = 3;

export type CopyFn = (text: string) => Promise<CopyResult>;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref?.();
    return t;
  },
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export interface ControllerOptions {
  data: DataSource;
  /** How queries run: the worker thread, or inline (tests). */
  queries: BackendFactory;
  /** Used when the worker fails. */
  fallbackQueries?: BackendFactory;
  copy: CopyFn;
  size: Size;
  demo?: boolean;
  /** Said on the status line at start (e.g. why the demo store is shown). */
  notice?: string;
  onQuit: () => void;
  /** Wall clock in ms. */
  now?: () => number;
  timers?: Timers;
  pollMs?: number;
  debounceMs?: number;
}

type Target =
  | { kind: 'message'; msg: Message; title: string }
  | { kind: 'hit'; sessionId: string; messageId: number; title: string }
  | { kind: 'session'; sessionId: string; title: string };

export class Controller {
  private state: AppState;
  private readonly listeners = new Set<() => void>();
  private batchDepth = 0;
  private dirty = false;
  private readonly client: QueryClient;
  private readonly timers: Timers;
  private readonly now: () => number;
  private searchGen = 0;
  private recentGen = 0;
  /** Generations that asked for the top page only: merge them into the list. */
  private topPageGen = -1;
  private lastFullRecent = 0;
  private debounce: unknown = null;
  private statusTimer: unknown = null;
  private poll: unknown = null;
  private lastVersion: number | null = null;
  /** Message counts before a store change, to say how many messages are new. */
  private countsBeforeChange: Map<string, number> | null = null;
  private stopped = false;
  private started = false;
  /** Every text copied, in order (for --print). */
  readonly copied: string[] = [];

  constructor(private readonly o: ControllerOptions) {
    this.timers = o.timers ?? realTimers;
    this.now = o.now ?? (() => Date.now());
    const store: StoreInfo = {
      profile: o.data.profile,
      path: o.data.path,
      demo: o.demo ?? false,
    };
    this.state = initialState({ size: o.size, store, now: this.now() / 1000 });
    this.client = new QueryClient(
      o.queries,
      this.onQueryResponse,
      o.fallbackQueries ?? null,
      undefined,
      (m) => this.setStatus(m, 'warn'),
    );
  }

  // ------------------------------------------------------------ plumbing

  getState = (): AppState => this.state;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private dispatch(a: Action): void {
    const next = reduce(this.state, a);
    if (next === this.state) return;
    this.state = next;
    if (this.batchDepth > 0) this.dirty = true;
    else this.notify();
  }

  private notify(): void {
    this.dirty = false;
    for (const fn of this.listeners) fn();
  }

  /** Runs `fn` and tells subscribers once, however many actions it dispatched. */
  private batch<T>(fn: () => T): T {
    this.batchDepth++;
    try {
      return fn();
    } finally {
      this.batchDepth--;
      if (this.batchDepth === 0 && this.dirty) this.notify();
    }
  }

  private setStatus(text: string, tone: 'info' | 'ok' | 'warn' | 'error' = 'info'): void {
    this.dispatch({ type: 'status', text: sanitizeLine(text), tone });
    if (this.statusTimer !== null) this.timers.clearTimeout(this.statusTimer);
    this.statusTimer = this.timers.setTimeout(() => {
      this.statusTimer = null;
      this.dispatch({ type: 'clearStatus' });
    }, STATUS_TTL_MS);
  }

  /** Store errors (busy, I/O) become a status line, never a crash. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      this.setStatus(/busy|locked/i.test(message) ? `store busy: ${message}` : message, 'error');
    }
  }

  // ------------------------------------------------------------ lifecycle

  /** First screen: the first page of Recent, synchronously; the rest comes from the worker. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.batch(() =>
      this.guard(() => {
        this.reloadRecent();
        for (const w of this.o.data.warnings) this.setStatus(w, 'warn');
        if (this.o.notice) this.setStatus(this.o.notice, 'info');
        this.lastVersion = this.o.data.dataVersion();
      }),
    );
    this.poll = this.timers.setInterval(() => this.checkForChanges(), this.o.pollMs ?? POLL_MS);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.poll !== null) this.timers.clearInterval(this.poll);
    if (this.debounce !== null) this.timers.clearTimeout(this.debounce);
    if (this.statusTimer !== null) this.timers.clearTimeout(this.statusTimer);
    this.client.close();
  }

  resize(size: Size): void {
    if (size.cols === this.state.size.cols && size.rows === this.state.size.rows) return;
    this.batch(() => {
      this.dispatch({ type: 'resize', size });
      this.guard(() => this.ensureEdges());
    });
  }

  handleKey(input: string, key: KeyLike): void {
    if (this.stopped) return;
    // A pasted anchor stays whole; any other run of characters is keys typed fast.
    const whole =
      Array.from(input).length > 1 && !key.ctrl && !key.meta && parseAnchors(input).length > 0;
    const presses = whole ? [{ input, key }] : splitKeys(input, key);
    this.batch(() => {
      for (const p of presses) {
        if (this.stopped) return;
        const routed = route(this.state, p.input, p.key);
        if (routed) this.guard(() => this.apply(routed));
      }
    });
  }

  // ------------------------------------------------------------ routing

  private apply(r: Routed): void {
    switch (r.kind) {
      case 'command':
        return this.run(r.command);
      case 'type':
        this.dispatch({ type: 'searchEdit', edit: 'insert', text: r.text });
        return this.searchChanged();
      case 'edit':
        this.dispatch({ type: 'searchEdit', edit: r.edit });
        return this.searchChanged();
      case 'paste':
        return this.paste(r.text);
      case 'closeOverlay':
        return this.dispatch({ type: 'closeOverlay' });
      case 'helpScroll': {
        const o = this.state.overlay;
        if (o?.kind !== 'help') return;
        // Keep the offset within what the help can scroll at this size.
        const max = helpMaxScroll(screenFor(this.state.size));
        return this.dispatch({
          type: 'helpScroll',
          delta: Math.max(-o.scroll, Math.min(r.delta, max - o.scroll)),
        });
      }
      case 'menu': {
        const o = this.state.overlay;
        if (!o || o.kind !== 'copy') return;
        if (r.action === 'move') return this.dispatch({ type: 'menuMove', dir: r.dir });
        const option = o.options[r.index ?? o.selected];
        if (!option) return;
        this.dispatch({ type: 'closeOverlay' });
        return this.copy(option.text, option.label);
      }
    }
  }

  private run(cmd: CommandId): void {
    const s = this.state;
    switch (cmd) {
      case 'quit':
        return this.o.onQuit();
      case 'help':
        return this.dispatch({ type: 'openHelp' });
      case 'back':
        return this.back();
      case 'pane.next':
      case 'pane.prev': {
        const dir = cmd === 'pane.next' ? 1 : -1;
        if (s.typing) {
          this.dispatch({ type: 'setTyping', on: false });
          if (dir === -1) this.dispatch({ type: 'setPane', pane: 'recent' });
          return;
        }
        return this.dispatch({ type: 'cyclePane', dir });
      }
      case 'search.focus':
        return this.dispatch({ type: 'setTyping', on: true });
      case 'nav.down':
      case 'nav.up':
      case 'nav.pageDown':
      case 'nav.pageUp':
      case 'nav.top':
      case 'nav.bottom':
        return this.nav(cmd);
      case 'tree.expand':
      case 'tree.collapse':
        return this.tree(cmd === 'tree.expand');
      case 'open':
        return this.open();
      case 'search.toggleMode':
        this.dispatch({
          type: 'setMode',
          mode: s.search.mode === 'fulltext' ? 'fuzzy' : 'fulltext',
        });
        this.setStatus(
          `search mode: ${this.state.search.mode === 'fuzzy' ? 'fuzzy (titles, prompts, ids, sources, folders)' : 'full-text'}`,
        );
        return this.searchChanged();
      case 'search.cycleSort':
        this.dispatch({ type: 'cycleSort' });
        this.setStatus(
          `sort: ${this.state.search.sort}${this.state.search.mode === 'fuzzy' ? ' (full-text mode only)' : ''}`,
        );
        return this.searchChanged();
      case 'search.toggleTools':
        this.dispatch({ type: 'toggleTools' });
        this.setStatus(
          this.state.search.tools
            ? 'searching tool output too'
            : 'searching user and assistant messages',
        );
        return this.searchChanged();
      case 'hits.next':
      case 'hits.prev':
        return this.walkHits(cmd === 'hits.next' ? 1 : -1);
      case 'msg.toggleExpand':
        return this.toggleExpand();
      case 'msg.toggleReasoning':
        if (!s.view) return this.setStatus('open a conversation first');
        this.dispatch({ type: 'toggleReasoning' });
        return this.setStatus(
          this.state.view?.reasoning ? 'showing reasoning' : 'reasoning hidden',
        );
      case 'copy.anchor':
        return this.copyAnchor();
      case 'copy.menu':
        return this.openCopyMenu();
      case 'mark.toggle':
        return this.toggleMark();
      case 'marks.clear':
        if (s.marks.length === 0) return this.setStatus('no marks');
        this.dispatch({ type: 'clearMarks' });
        return this.setStatus('marks cleared');
      case 'view.toggleHidden':
        this.dispatch({ type: 'toggleHidden' });
        this.reloadRecent();
        return this.setStatus(
          this.state.showHidden
            ? 'showing hidden conversations'
            : 'hiding subagent, tool and archived conversations',
        );
    }
  }

  private back(): void {
    const s = this.state;
    if (s.typing) {
      if (s.search.text !== '') {
        this.dispatch({ type: 'searchEdit', edit: 'clear' });
        return this.searchChanged();
      }
      this.dispatch({ type: 'setTyping', on: false });
      if (s.results.items.length === 0) this.dispatch({ type: 'setPane', pane: 'recent' });
      return;
    }
    if (s.pane === 'messages') return this.dispatch({ type: 'setPane', pane: s.origin });
    if (s.pane === 'results') return this.dispatch({ type: 'setPane', pane: 'recent' });
  }

  // ------------------------------------------------------------ lists and the window

  private nav(
    cmd: 'nav.down' | 'nav.up' | 'nav.pageDown' | 'nav.pageUp' | 'nav.top' | 'nav.bottom',
  ): void {
    const s = this.state;
    const dir: 1 | -1 =
      cmd === 'nav.down' || cmd === 'nav.pageDown' || cmd === 'nav.bottom' ? 1 : -1;
    const move =
      cmd === 'nav.down' || cmd === 'nav.up'
        ? 'line'
        : cmd === 'nav.top' || cmd === 'nav.bottom'
          ? 'edge'
          : 'page';
    if (s.pane === 'messages' && s.view) {
      if (move === 'edge') return this.jumpEdge(dir);
      this.dispatch({ type: 'viewNav', move, dir });
      return this.ensureEdges();
    }
    const pane = s.pane === 'messages' ? s.origin : s.pane;
    this.dispatch({ type: 'listNav', pane, move, dir });
  }

  /** g / G in a conversation: its first or latest messages (loaded fresh: the window is bounded). */
  private jumpEdge(dir: 1 | -1): void {
    const v = this.state.view;
    if (!v) return;
    const opened =
      dir === 1
        ? this.o.data.openTail(v.win.chain[v.win.chain.length - 1] ?? '')
        : this.o.data.openHead(v.win.chain);
    if (!opened) return;
    // The hit the view was opened on stays marked.
    opened.window = { ...opened.window, anchorId: v.win.anchorId };
    this.openView(opened, {
      query: v.query,
      roles: v.roles,
      hits: [...v.hits],
      resultKey: v.resultKey,
    });
    this.setStatus(dir === 1 ? 'latest messages' : 'first messages');
  }

  /** Loads beyond a loaded edge while the viewport is within a screen of it. */
  private ensureEdges(): void {
    for (let i = 0; i < MAX_EDGE_LOADS; i++) {
      const need = viewEdgeNeed(this.state);
      const v = this.state.view;
      if (!need || !v) return;
      const loaded = this.o.data.extend(v.win, need, SLICE_MESSAGES);
      this.dispatch({
        type: 'extendView',
        side: need,
        items: loaded.items,
        reached: loaded.reached || loaded.items.length === 0,
      });
    }
  }

  private tree(expand: boolean): void {
    const s = this.state;
    if (s.pane !== 'recent' || s.typing) return;
    const row = selectedRecent(s);
    if (!row) return;
    if (!expand) {
      if (s.recent.branches[row.rootId] || row.depth > 0) {
        const parent = row.depth > 0 ? this.parentOf(row) : row;
        if (parent) this.dispatch({ type: 'collapseBranches', rootId: parent.rootId });
      }
      return;
    }
    if (row.branches === 0) return this.setStatus('no branches');
    if (s.recent.branches[row.rootId]) return;
    const rows = this.o.data.branches(row);
    this.dispatch({ type: 'branchesLoaded', rootId: row.rootId, rows });
    this.setStatus(`${plural(rows.length, 'branch', 'branches')} of ${row.title}`);
  }

  private parentOf(row: SessionRow): SessionRow | null {
    const entries = this.state.recent.entries;
    const i = entries.indexOf(row);
    for (let j = i - 1; j >= 0; j--)
      if ((entries[j]?.depth ?? 0) < row.depth) return entries[j] ?? null;
    return null;
  }

  private open(): void {
    const s = this.state;
    if (s.pane === 'messages' && !s.typing) return this.toggleExpand();
    if (s.pane === 'recent' && !s.typing) {
      const row = selectedRecent(s);
      if (!row) return;
      return this.openRecent(row);
    }
    const item = selectedResult(s);
    if (!item) return this.setStatus(s.search.text.trim() === '' ? 'type to search' : 'no results');
    this.openResult(item);
  }

  private openRecent(row: SessionRow): void {
    const opened = this.o.data.openTail(row.sessionId);
    if (!opened) return this.setStatus('conversation not found (deleted?)', 'warn');
    this.openView(opened, { query: null, roles: [], hits: [], resultKey: null });
    this.setStatus(opened.live ? `${opened.title} · live: following new messages` : opened.title);
  }

  private openResult(item: ResultItem, at?: number): void {
    const query = item.kind === 'hit' ? this.state.results.forText : null;
    const rs = roles(this.state);
    const messageId = at ?? item.messageId;
    const opened =
      messageId !== null
        ? this.o.data.openAt(item.sessionId, messageId)
        : this.o.data.openTail(item.sessionId);
    if (!opened) return this.setStatus('conversation not found (deleted?)', 'warn');
    const hits = query ? this.o.data.hits(query, opened.window.chain, rs) : [];
    this.openView(opened, { query, roles: rs, hits, resultKey: item.key });
    const k = messageId !== null ? hits.indexOf(messageId) : -1;
    if (opened.note) this.setStatus(opened.note, 'warn');
    else if (query)
      this.setStatus(
        k >= 0
          ? `hit ${k + 1}/${hits.length} · n/N walk hits`
          : `${plural(hits.length, 'hit')} in this conversation`,
      );
  }

  private openView(
    opened: Opened,
    extra: {
      query: string | null;
      roles: readonly string[];
      hits: number[];
      resultKey: string | null;
    },
  ): void {
    const terms = extra.query ? termsFromQuery(extra.query) : [];
    const origin =
      this.state.pane === 'messages'
        ? this.state.origin
        : this.state.pane === 'recent' && !this.state.typing
          ? 'recent'
          : 'results';
    this.dispatch({
      type: 'openView',
      view: {
        title: opened.title,
        source: opened.source,
        live: opened.live,
        query: extra.query,
        roles: extra.roles,
        terms,
        hits: extra.hits,
        resultKey: extra.resultKey,
        bookStart: opened.bookStart,
        bookEnd: opened.bookEnd,
      },
      window: opened.window,
      focusIndex: opened.focusIndex,
      placement: opened.placement,
      origin,
    });
    this.ensureEdges();
  }

  private toggleExpand(): void {
    const v = this.state.view;
    if (!v || this.state.pane !== 'messages')
      return this.setStatus('open a conversation, then e expands a tool call');
    const m = focusedMessage(v.win);
    if (!m) return;
    const expandable = m.role === 'tool' || m.role === 'system' || m.tool_calls !== null;
    if (!expandable) return this.setStatus('nothing to expand in this message');
    this.dispatch({ type: 'toggleExpand' });
    this.ensureEdges();
  }

  // ------------------------------------------------------------ hits

  private walkHits(dir: 1 | -1): void {
    const v = this.state.view;
    if (!v || !v.query) {
      const s = this.state;
      if (s.pane === 'results' && selectedResult(s)) return this.openResult(selectedResult(s)!);
      return this.setStatus('no search in this view: / to search, then open a result');
    }
    const cur = focusedMessage(v.win)?.id ?? v.win.anchorId ?? 0;
    const target = adjacentHit(v.hits, cur, dir);
    if (target !== null) return this.gotoHit(v, target);
    // Past the last (first) hit: continue into the next (previous) result's conversation.
    const items = this.state.results.items;
    const at = items.findIndex((r) => r.key === v.resultKey);
    for (let i = at + dir; at >= 0 && i >= 0 && i < items.length; i += dir) {
      const next = items[i]!;
      if (next.kind !== 'hit') continue;
      this.dispatch({ type: 'listSelect', pane: 'results', index: i });
      const chain = this.o.data.chainOf(next.sessionId);
      const hits = this.o.data.hits(v.query, chain, v.roles);
      const first = dir === 1 ? hits[0] : hits[hits.length - 1];
      const owner = first !== undefined ? this.o.data.ownerOf(first) : null;
      this.openResult(
        owner && first !== undefined ? { ...next, sessionId: owner } : next,
        first ?? undefined,
      );
      this.setStatus(
        `${dir === 1 ? 'next' : 'previous'} result (${i + 1}/${items.length}): ${next.title}`,
      );
      return;
    }
    this.setStatus(dir === 1 ? 'no more hits' : 'no earlier hits');
  }

  private gotoHit(v: MessageView, target: number): void {
    const k = v.hits.indexOf(target) + 1;
    if (indexOfMessage(v.win.items, target) >= 0) {
      this.dispatch({ type: 'focusMessage', id: target });
      this.ensureEdges();
    } else {
      const owner = this.o.data.ownerOf(target);
      const opened = owner ? this.o.data.openAt(owner, target) : null;
      if (!opened) return this.setStatus(`hit ${target} is gone`, 'warn');
      this.openView(opened, {
        query: v.query,
        roles: v.roles,
        hits: [...v.hits],
        resultKey: v.resultKey,
      });
    }
    this.setStatus(`hit ${k}/${v.hits.length}`);
  }

  // ------------------------------------------------------------ search

  /** The search text (or mode, sort, roles) changed: answer it the fastest correct way. */
  private searchChanged(): void {
    const s = this.state;
    const text = s.search.text;
    if (this.debounce !== null) {
      this.timers.clearTimeout(this.debounce);
      this.debounce = null;
    }
    if (text.trim() === '') {
      this.searchGen++;
      this.dispatch({ type: 'searchStarted', generation: this.searchGen, forText: '' });
      this.dispatch({ type: 'clearResults' });
      return;
    }
    const anchor = parseAnchor(text);
    if (anchor) {
      const gen = ++this.searchGen;
      const found = this.o.data.resolve(anchor);
      this.dispatch({ type: 'searchStarted', generation: gen, forText: text });
      this.dispatch({
        type: 'resultsLoaded',
        generation: gen,
        forText: text,
        items: found.items,
        path: null,
        message: found.message,
      });
      return;
    }
    if (s.search.mode === 'fuzzy') {
      const gen = ++this.searchGen;
      const items = fuzzyResults(s.recent.rows, text);
      this.dispatch({ type: 'searchStarted', generation: gen, forText: text });
      this.dispatch({
        type: 'resultsLoaded',
        generation: gen,
        forText: text,
        items,
        path: null,
        message: items.length === 0 ? 'no conversation matches' : null,
      });
      return;
    }
    // Mark the list as searching now; ask after a pause in typing.
    const gen = ++this.searchGen;
    this.dispatch({ type: 'searchStarted', generation: gen, forText: text });
    this.debounce = this.timers.setTimeout(() => {
      this.debounce = null;
      const cur = this.state;
      this.client.request({
        kind: 'search',
        generation: gen,
        query: cur.search.text,
        sort: cur.search.sort,
        roles: roles(cur),
        limit: SEARCH_LIMIT,
      });
    }, this.o.debounceMs ?? SEARCH_DEBOUNCE_MS);
  }

  private paste(raw: string): void {
    const many = parseAnchors(raw);
    if (many.length > 1) {
      // A pasted block of several anchors (what `y` copies with marks): mark them all.
      let added = 0;
      for (const a of many) {
        if (a.kind !== 'scroll') continue;
        const ref = { sessionId: a.sessionId, messageId: a.messageId };
        if (!isMarked(this.state, ref)) {
          this.dispatch({ type: 'toggleMark', ref });
          added++;
        }
      }
      this.setStatus(
        `pasted ${formatCount(many.length)} anchors: ${plural(added, 'new mark')} · y copies all marks`,
      );
      return;
    }
    const text = sanitizeLine(raw).trim();
    const anchor = parseAnchor(raw) ?? many[0] ?? null;
    const wasTyping = this.state.typing;
    this.dispatch({ type: 'setTyping', on: true });
    // A pasted anchor stands alone; other text is typed where the cursor is.
    if (anchor || !wasTyping) this.dispatch({ type: 'searchEdit', edit: 'clear' });
    this.dispatch({ type: 'searchEdit', edit: 'insert', text });
    this.searchChanged();
    if (!anchor) return;
    const first = this.state.results.items[0];
    if (first && first.kind === 'jump' && this.state.results.items.length === 1)
      this.openResult(first);
  }

  private requestRecent(topOnly = false): void {
    if (!topOnly) this.lastFullRecent = this.now();
    this.client.request({
      kind: 'recent',
      generation: ++this.recentGen,
      all: this.state.showHidden,
      limit: topOnly ? recentFirstPage(this.state.size.rows) : RECENT_FULL_LIMIT,
    });
    if (topOnly) this.topPageGen = this.recentGen;
  }

  /** The first page at once, the rest from the worker; a complete first page retires any request in flight. */
  private reloadRecent(): void {
    const first = this.o.data.recent(recentFirstPage(this.state.size.rows), this.state.showHidden);
    this.dispatch({
      type: 'recentLoaded',
      rows: first.rows,
      complete: first.complete,
      hidden: first.hidden,
    });
    if (!first.complete) this.requestRecent();
    else this.recentGen++;
  }

  private readonly onQueryResponse = (r: QueryResponse): void => {
    if (this.stopped) return;
    this.batch(() => {
      switch (r.kind) {
        case 'search':
          if (r.generation !== this.searchGen) return;
          this.dispatch({
            type: 'resultsLoaded',
            generation: r.generation,
            forText: r.forText,
            items: r.items,
            path: r.path,
            message: r.message,
          });
          return;
        case 'hitCounts':
          if (r.generation !== this.searchGen) return;
          this.dispatch({ type: 'hitCounts', generation: r.generation, counts: r.counts });
          return;
        case 'recent': {
          if (r.generation !== this.recentGen) return;
          if (r.generation !== this.topPageGen)
            return this.applyRecent(r.rows, r.complete, r.hidden);
          // The fresh top of the list, then the rest as last loaded.
          const top = new Set(r.rows.map((row) => row.rootId));
          const rest = this.state.recent.rows.filter((row) => !top.has(row.rootId));
          this.applyRecent([...r.rows, ...rest], this.state.recent.complete, r.hidden);
          return;
        }
        case 'error':
          if (r.request === 'search' && r.generation !== this.searchGen) return;
          this.setStatus(r.message, 'error');
          if (r.request === 'search')
            this.dispatch({
              type: 'resultsLoaded',
              generation: r.generation,
              forText: this.state.search.text,
              items: [],
              path: null,
              message: r.message,
            });
          return;
        case 'done':
          return;
      }
    });
  };

  private applyRecent(rows: SessionRow[], complete: boolean, hidden: AppState['hidden']): void {
    const before = this.countsBeforeChange;
    this.countsBeforeChange = null;
    this.dispatch({ type: 'recentLoaded', rows, complete, hidden });
    if (before) {
      let fresh = 0;
      let sessions = 0;
      for (const row of rows) {
        const old = before.get(row.rootId);
        if (old === undefined) {
          sessions++;
          fresh += row.messageCount;
        } else fresh += Math.max(0, row.messageCount - old);
      }
      if (fresh > 0 || sessions > 0)
        this.setStatus(
          `store changed: ${plural(fresh, 'new message')}${sessions > 0 ? `, ${plural(sessions, 'new conversation')}` : ''}`,
        );
    }
    const s = this.state;
    if (s.search.mode === 'fuzzy' && s.search.text.trim() !== '') this.searchChanged();
  }

  // ------------------------------------------------------------ live updates

  /** Called about once a second: has another connection (the agent) committed? */
  checkForChanges(): void {
    if (this.stopped) return;
    this.batch(() =>
      this.guard(() => {
        // Ages move in minutes: redraw for the clock only when a minute has passed.
        const now = this.now() / 1000;
        if (Math.floor(now / 60) !== Math.floor(this.state.now / 60))
          this.dispatch({ type: 'tick', now });
        const version = this.o.data.dataVersion();
        if (version === this.lastVersion) return;
        this.lastVersion = version;
        this.countsBeforeChange = new Map(
          this.state.recent.rows.map((r) => [r.rootId, r.messageCount]),
        );
        this.requestRecent(
          this.state.recent.complete && this.now() - this.lastFullRecent < LIVE_FULL_REFRESH_MS,
        );
        this.refreshView();
      }),
    );
  }

  private refreshView(): void {
    const v = this.state.view;
    if (!v) return;
    const upd = this.o.data.liveUpdate(v.win);
    if (!upd) return;
    if (upd.recover) return this.recover(upd.recover);
    if (upd.chain) {
      this.dispatch({ type: 'chainGrew', chain: upd.chain, total: upd.total, live: upd.live });
      this.ensureEdges();
      return;
    }
    this.dispatch({ type: 'liveAppend', items: upd.items, live: upd.live, bookEnd: upd.bookEnd });
  }

  /** The agent pruned or rewound loaded messages: reload where the reader was, and say so. */
  private recover(r: Recovery): void {
    const v = this.state.view;
    if (!v) return;
    const lost = plural(r.removed, 'loaded message');
    if (r.kind === 'deleted') {
      this.dispatch({ type: 'setPane', pane: this.state.origin });
      return this.setStatus(`this conversation is gone from the store (${lost} removed)`, 'warn');
    }
    const opened = this.o.data.openAt(r.sessionId, r.messageId);
    if (!opened) {
      this.dispatch({ type: 'setPane', pane: this.state.origin });
      return this.setStatus('this conversation is gone from the store', 'warn');
    }
    const hits = v.query ? this.o.data.hits(v.query, opened.window.chain, v.roles) : [];
    this.openView(opened, { query: v.query, roles: v.roles, hits, resultKey: v.resultKey });
    this.setStatus(
      r.focusGone
        ? `message ${formatCount(r.from)} was removed (pruned or rewound); moved to the nearest message, ${formatCount(r.messageId)}`
        : `${lost} removed by the agent (pruned or rewound); reloaded around message ${formatCount(r.messageId)}`,
      'warn',
    );
  }

  // ------------------------------------------------------------ copy and marks

  private target(): Target | null {
    const s = this.state;
    if (s.pane === 'messages' && s.view && !s.typing) {
      const msg = focusedMessage(s.view.win);
      return msg ? { kind: 'message', msg, title: s.view.title } : null;
    }
    if (s.pane === 'results' || s.typing) {
      const r = selectedResult(s);
      if (!r) return null;
      return r.messageId !== null
        ? { kind: 'hit', sessionId: r.sessionId, messageId: r.messageId, title: r.title }
        : { kind: 'session', sessionId: r.sessionId, title: r.title };
    }
    const row = selectedRecent(s);
    return row ? { kind: 'session', sessionId: row.sessionId, title: row.title } : null;
  }

  private copyAnchor(): void {
    const s = this.state;
    if (s.marks.length > 0)
      return this.copy(multi(s.marks), `${plural(s.marks.length, 'marked anchor')}`);
    const t = this.target();
    if (!t) return this.setStatus('nothing to copy here');
    if (t.kind === 'session')
      return this.copy(
        link({ profile: s.store.profile, sessionId: t.sessionId }),
        `link to ${t.sessionId}`,
      );
    const ref = t.kind === 'message' ? { sessionId: t.msg.session_id, messageId: t.msg.id } : t;
    this.copy(scrollCall(ref), `anchor for message ${formatCount(ref.messageId)}`);
  }

  private copyOptions(): CopyOption[] {
    const s = this.state;
    const t = this.target();
    const out: CopyOption[] = [];
    const profile = s.store.profile;
    if (t) {
      const sessionId = t.kind === 'message' ? t.msg.session_id : t.sessionId;
      out.push({ form: 'link', label: 'link', text: link({ profile, sessionId }) });
      if (t.kind !== 'session') {
        const messageId = t.kind === 'message' ? t.msg.id : t.messageId;
        out.push({
          form: 'scroll',
          label: 'scroll call',
          text: scrollCall({ sessionId, messageId }),
        });
      }
      if (t.kind === 'message') {
        const m = t.msg;
        out.push({
          form: 'quote',
          label: 'message quoted with citation',
          text: quote({
            profile,
            sessionId,
            messageId: m.id,
            role: m.role,
            timestamp: m.timestamp,
            content: contentText(m.content),
            title: t.title,
          }),
        });
        const md = this.visibleMarkdown();
        if (md)
          out.push({
            form: 'window',
            label: `visible window as Markdown (${formatCount(md.chars)} chars)`,
            text: md.text,
          });
      }
    }
    if (s.marks.length > 0)
      out.push({
        form: 'marks',
        label: `all ${plural(s.marks.length, 'mark')} as one block`,
        text: multi(s.marks),
      });
    return out;
  }

  private visibleMarkdown(): { text: string; chars: number } | null {
    const s = this.state;
    const v = s.view;
    if (!v) return null;
    const rows = visibleSlice(v.win, measureFor(s, v), viewHeight(s, v));
    const messages: WindowMessage[] = [];
    for (const r of rows) {
      if (r.item.kind !== 'message') continue;
      const m = r.item.msg;
      const calls = Array.isArray(m.tool_calls)
        ? m.tool_calls.map((c) => c.function?.name ?? 'tool').join(', ')
        : '';
      const text = contentText(m.content) || (calls ? `[tool call: ${calls}]` : '');
      messages.push({
        id: m.id,
        role: m.tool_name ? `${m.role} (${m.tool_name})` : m.role,
        timestamp: m.timestamp,
        content: text,
        anchor: m.id === v.win.anchorId,
      });
    }
    const focused = focusedMessage(v.win);
    if (messages.length === 0 || !focused) return null;
    return windowMarkdown(messages, {
      profile: s.store.profile,
      sessionId: focused.session_id,
      title: v.title,
    });
  }

  private openCopyMenu(): void {
    const options = this.copyOptions();
    if (options.length === 0) return this.setStatus('nothing to copy here');
    this.dispatch({ type: 'openCopyMenu', options });
  }

  private copy(text: string, what: string): void {
    if (text === '') return;
    this.copied.push(text);
    const preview = truncate(sanitizeLine(text), 60);
    this.setStatus(`copying ${what}…`);
    void this.o
      .copy(text)
      .then((r) => {
        if (this.stopped) return;
        this.batch(() => {
          if (r.ok) this.setStatus(`copied ${what} via ${r.detail}: ${preview}`, 'ok');
          else this.setStatus(`copy failed (${r.error}); --print prints it at exit`, 'error');
        });
      })
      .catch((err: unknown) => {
        if (!this.stopped)
          this.setStatus(`copy failed: ${(err as Error)?.message ?? String(err)}`, 'error');
      });
  }

  private toggleMark(): void {
    const t = this.target();
    let ref: MarkRef | null = null;
    if (t?.kind === 'message') ref = { sessionId: t.msg.session_id, messageId: t.msg.id };
    else if (t?.kind === 'hit') ref = { sessionId: t.sessionId, messageId: t.messageId };
    if (!ref) return this.setStatus('marks are on messages: open a conversation or select a hit');
    this.dispatch({ type: 'toggleMark', ref });
    const n = this.state.marks.length;
    const on = this.state.marks.some(
      (m) => m.sessionId === ref.sessionId && m.messageId === ref.messageId,
    );
    this.setStatus(
      `${on ? 'marked' : 'unmarked'} message ${formatCount(ref.messageId)} · ${plural(n, 'mark')}${n > 0 ? ' · y copies them all' : ''}`,
    );
  }
}
