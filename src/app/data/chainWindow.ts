/**
 * The app's only door to the store. Turns store rows into sanitized view
 * models, loads message-window slices with keyset paging across a compression
 * chain, and answers the query worker's requests. Components never import the
 * store; the reducers never see it.
 */
import type { ParsedAnchor } from '../../anchors/parse.js';
import { browse, firstUserText, hiddenCounts, previewOf } from '../../store/browse.js';
import { contentText } from '../../store/content.js';
import { childrenOf, compressionChain, rootOf, sessionMeta } from '../../store/lineage.js';
import {
  countBefore,
  countVisible,
  messageById,
  messagesAfter,
  messagesBefore,
  owningSession,
  sessionEdge,
  visibleIds,
} from '../../store/messages.js';
import { resolveRef, sessionsByPrefix } from '../../store/resolve.js';
import { discover, hitsInSessions } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type {
  HiddenCounts,
  Message,
  RecentRow,
  SearchPath,
  SessionMeta,
  Sort,
} from '../../store/types.js';
import {
  parseSnippetMarkers,
  splitHighlights,
  termsFromQuery,
  type Segment,
} from '../../text/highlight.js';
import { sanitizeLine } from '../../text/sanitize.js';
import type { ResultItem, SessionRow } from '../model.js';
import {
  OPEN_AFTER,
  OPEN_BEFORE,
  focusedMessage,
  isMessage,
  type MsgWindow,
  type WinItem,
} from '../geometry/window.js';

/**
 * Rows of Recent read synchronously (at start, and on each change while the agent
 * writes): a screenful and a few more, since each row costs a preview query and
 * the first frame waits for them; the full list follows from the worker.
 */
export function recentFirstPage(terminalRows: number): number {
  return Math.max(24, terminalRows) + 8;
}
/** The full Recent list (also what fuzzy search searches), loaded off the main thread. */
export const RECENT_FULL_LIMIT = 5_000;
/** Results per full-text search (the agent fetches 50 hits before deduping). */
export const SEARCH_LIMIT = 50;
/** Snippet markers: control characters cannot survive sanitizing, so they cannot be forged by stored text. */
export const SNIPPET_MARKERS: [string, string] = ['\u0002', '\u0003'];
/** Messages scanned at each end of a conversation for its opening / closing bookend. */
const BOOKEND_SCAN = 20;

// ---------------------------------------------------------------- view models

function clean(s: string | null | undefined): string {
  return sanitizeLine(s ?? '').trim();
}

export function sessionRowOf(r: RecentRow, cwd: string | null, depth = 0): SessionRow {
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
    messageCount: r.message_count,
    chainLength: r.chain_length,
    live: r.live,
    hiddenReason: r.hidden_reason,
    branches: r.branches,
    depth,
  };
}

function cwdOf(store: Store, id: string): string | null {
  return sessionMeta(store, id)?.cwd ?? null;
}

export interface RecentAnswer {
  rows: SessionRow[];
  hidden: HiddenCounts;
  complete: boolean;
}

export function loadRecent(store: Store, limit: number, all: boolean): RecentAnswer {
  return store.read(() => {
    const raw = browse(store, { limit, all });
    const rows = raw.map((r) =>
      sessionRowOf(r, cwdOf(store, r.root_id) ?? cwdOf(store, r.session_id)),
    );
    return { rows, hidden: hiddenCounts(store), complete: raw.length < limit };
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

function searchResultItems(
  store: Store,
  query: string,
  sort: Sort,
  roles: string[],
  limit: number,
): { items: ResultItem[]; path: SearchPath; message: string | null } {
  const answer = discover(store, query, {
    views: false,
    markers: SNIPPET_MARKERS,
    limit,
    sort,
    roles,
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
    };
  });
  return { items, path: answer.path, message: answer.message };
}

// ---------------------------------------------------------------- worker protocol

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

// ---------------------------------------------------------------- message windows

export interface Loaded {
  items: WinItem[];
  /** The chain's edge was reached in the direction loaded. */
  reached: boolean;
}

/**
 * Up to `n` messages after message `afterId` of segment `seg` (exclusive),
 * continuing into later segments of the chain with a divider at each start.
 */
export function loadForward(
  store: Store,
  chain: readonly string[],
  seg: number,
  afterId: number,
  n: number,
): Loaded {
  const items: WinItem[] = [];
  let count = 0;
  let s = seg;
  let cursor = afterId;
  for (;;) {
    const sid = chain[s];
    if (sid === undefined) return { items, reached: true };
    const want = n - count;
    const msgs = messagesAfter(store, sid, cursor, want);
    for (const msg of msgs) items.push({ kind: 'message', msg, seg: s });
    count += msgs.length;
    if (msgs.length === want) return { items, reached: false };
    if (s + 1 >= chain.length) return { items, reached: true };
    s++;
    cursor = Number.MIN_SAFE_INTEGER;
    // An empty segment leaves no divider of its own.
    if (items[items.length - 1]?.kind === 'divider') items.pop();
    items.push({ kind: 'divider', seg: s, sessionId: chain[s]! });
  }
}

/** Up to `n` messages before message `beforeId` of segment `seg`, continuing into earlier segments. */
export function loadBackward(
  store: Store,
  chain: readonly string[],
  seg: number,
  beforeId: number,
  n: number,
): Loaded {
  let items: WinItem[] = [];
  let count = 0;
  let s = seg;
  let cursor = beforeId;
  for (;;) {
    const sid = chain[s];
    if (sid === undefined) return { items, reached: true };
    const want = n - count;
    const msgs = messagesBefore(store, sid, cursor, want);
    items = [...msgs.map((msg): WinItem => ({ kind: 'message', msg, seg: s })), ...items];
    count += msgs.length;
    if (msgs.length === want) return { items, reached: false };
    if (s === 0) return { items, reached: true };
    if (items[0]?.kind === 'divider') items.shift();
    items = [{ kind: 'divider', seg: s, sessionId: sid }, ...items];
    s--;
    cursor = Number.MAX_SAFE_INTEGER;
  }
}

/** More items beyond a loaded edge of a window. */
export function extendWindow(
  store: Store,
  win: MsgWindow,
  side: 'before' | 'after',
  n: number,
): Loaded {
  return store.read(() => {
    if (side === 'after') {
      const last = win.items[win.items.length - 1];
      if (!last) return { items: [], reached: true };
      return last.kind === 'message'
        ? loadForward(store, win.chain, last.seg, last.msg.id, n)
        : loadForward(store, win.chain, last.seg, Number.MIN_SAFE_INTEGER, n);
    }
    const first = win.items[0];
    if (!first) return { items: [], reached: true };
    if (first.kind === 'message') return loadBackward(store, win.chain, first.seg, first.msg.id, n);
    // A divider starts segment `seg`: what lies before it is the previous segment's tail.
    return loadBackward(store, win.chain, first.seg - 1, Number.MAX_SAFE_INTEGER, n);
  });
}

export interface Opened {
  window: Omit<MsgWindow, 'top' | 'focus'>;
  focusIndex: number;
  placement: 'anchor' | 'top' | 'bottom';
  title: string;
  source: string;
  live: boolean;
  bookStart: Message | null;
  bookEnd: Message | null;
  /** Set when the anchor could not be used as asked (e.g. rewound message). */
  note: string | null;
}

function hasText(m: Message): boolean {
  return (m.role === 'user' || m.role === 'assistant') && contentText(m.content).trim() !== '';
}

function bookendsOf(
  store: Store,
  chain: readonly string[],
): { start: Message | null; end: Message | null } {
  const first = chain[0];
  const last = chain[chain.length - 1];
  const head = first ? sessionEdge(store, first, 'head', BOOKEND_SCAN) : [];
  const tail = last ? sessionEdge(store, last, 'tail', BOOKEND_SCAN) : [];
  return { start: head.find(hasText) ?? null, end: [...tail].reverse().find(hasText) ?? null };
}

function titleOf(store: Store, chain: readonly string[], metas: (SessionMeta | null)[]): string {
  for (let i = metas.length - 1; i >= 0; i--) {
    const t = clean(metas[i]?.title);
    if (t) return t;
  }
  const root = chain[0];
  return (root ? previewOf(clean(firstUserText(store, root))) : '') || '(untitled)';
}

function countsOf(store: Store, chain: readonly string[]): number[] {
  return chain.map((sid) => countVisible(store, sid));
}

function sum(xs: readonly number[], upTo = xs.length): number {
  let t = 0;
  for (let i = 0; i < upTo && i < xs.length; i++) t += xs[i]!;
  return t;
}

function describe(store: Store, chain: readonly string[]) {
  const metas = chain.map((sid) => sessionMeta(store, sid));
  const tip = metas[metas.length - 1] ?? null;
  return {
    metas,
    title: titleOf(store, chain, metas),
    source: clean(metas[0]?.source) || 'unknown',
    live: tip !== null && tip.ended_at === null,
  };
}

/** Count of chain messages before the first loaded item. */
function beforeCount(
  store: Store,
  chain: readonly string[],
  counts: number[],
  first: WinItem | undefined,
): number {
  if (!first) return 0;
  if (first.kind === 'divider') return sum(counts, first.seg);
  const sid = chain[first.seg];
  return sum(counts, first.seg) + (sid ? countBefore(store, sid, first.msg.id) : 0);
}

/** A window around message `messageId` of session `sessionId` (the hit about a third of the way down). */
export function openAt(store: Store, sessionId: string, messageId: number): Opened | null {
  return store.read(() => {
    const chain = compressionChain(store, sessionId);
    const seg = Math.max(0, chain.indexOf(sessionId));
    const anchor = messageById(store, messageId);
    if (!anchor || anchor.session_id !== sessionId) {
      const tail = openTailIn(store, chain);
      return tail
        ? {
            ...tail,
            note: `message ${messageId} is not shown in this conversation (rewound or hidden); opened at its latest messages`,
          }
        : null;
    }
    const before = loadBackward(store, chain, seg, messageId, OPEN_BEFORE);
    const after = loadForward(store, chain, seg, messageId, OPEN_AFTER);
    const items: WinItem[] = [
      ...before.items,
      { kind: 'message', msg: anchor, seg },
      ...after.items,
    ];
    const counts = countsOf(store, chain);
    const d = describe(store, chain);
    const b = bookendsOf(store, chain);
    return {
      window: {
        chain,
        items,
        atStart: before.reached,
        atEnd: after.reached,
        anchorId: messageId,
        before: before.reached ? 0 : beforeCount(store, chain, counts, items[0]),
        total: sum(counts),
        follow: false,
      },
      focusIndex: before.items.length,
      placement: 'anchor',
      title: d.title,
      source: d.source,
      live: d.live,
      bookStart: b.start,
      bookEnd: b.end,
      note: null,
    };
  });
}

function openTailIn(store: Store, chain: readonly string[]): Opened | null {
  const lastSeg = chain.length - 1;
  if (lastSeg < 0) return null;
  const loaded = loadBackward(
    store,
    chain,
    lastSeg,
    Number.MAX_SAFE_INTEGER,
    OPEN_BEFORE + OPEN_AFTER,
  );
  const counts = countsOf(store, chain);
  const d = describe(store, chain);
  const b = bookendsOf(store, chain);
  let focus = loaded.items.length - 1;
  while (focus > 0 && loaded.items[focus]?.kind !== 'message') focus--;
  return {
    window: {
      chain,
      items: loaded.items,
      atStart: loaded.reached,
      atEnd: true,
      anchorId: null,
      before: loaded.reached ? 0 : beforeCount(store, chain, counts, loaded.items[0]),
      total: sum(counts),
      follow: true,
    },
    focusIndex: Math.max(0, focus),
    placement: 'bottom',
    title: d.title,
    source: d.source,
    live: d.live,
    bookStart: b.start,
    bookEnd: b.end,
    note: null,
  };
}

/** A window at a conversation's latest messages (following the tail when it is live). */
export function openTail(store: Store, sessionId: string): Opened | null {
  return store.read(() => openTailIn(store, compressionChain(store, sessionId)));
}

/** A window at a conversation's first messages. */
export function openHead(store: Store, chain: readonly string[]): Opened | null {
  return store.read(() => {
    if (chain.length === 0) return null;
    const loaded = loadForward(store, chain, 0, Number.MIN_SAFE_INTEGER, OPEN_BEFORE + OPEN_AFTER);
    const counts = countsOf(store, chain);
    const d = describe(store, chain);
    const b = bookendsOf(store, chain);
    return {
      window: {
        chain,
        items: loaded.items,
        atStart: true,
        atEnd: loaded.reached,
        anchorId: null,
        before: 0,
        total: sum(counts),
        follow: false,
      },
      focusIndex: 0,
      placement: 'top',
      title: d.title,
      source: d.source,
      live: d.live,
      bookStart: b.start,
      bookEnd: b.end,
      note: null,
    };
  });
}

export function chainHits(
  store: Store,
  query: string,
  chain: readonly string[],
  roles: readonly string[],
): number[] {
  if (query.trim() === '') return [];
  return hitsInSessions(store, query, [...chain], { roles: [...roles] });
}

/** Which session of a chain holds a message (for walking hits across segments). */
export function ownerOf(store: Store, messageId: number): string | null {
  return owningSession(store, messageId);
}

/**
 * Loaded messages the store no longer shows (pruned, or rewound by the agent):
 * the window must be reloaded around the focused message, or the nearest one
 * that survives, or given up when the conversation itself is gone.
 */
export type Recovery =
  | {
      kind: 'reanchor';
      sessionId: string;
      messageId: number;
      removed: number;
      focusGone: boolean;
      from: number;
    }
  | { kind: 'deleted'; removed: number };

export interface LiveUpdate {
  recover?: Recovery;
  chain: string[] | null;
  total: number;
  items: WinItem[];
  live: boolean;
  bookEnd: Message | null;
}

/**
 * What the agent wrote since the window was loaded: a longer chain (the live
 * session was compressed into a continuation) or new messages at the end.
 */
export function liveUpdate(store: Store, win: MsgWindow): LiveUpdate | null {
  const root = win.chain[0];
  if (root === undefined) return null;
  return store.read(() => {
    const recover = recovery(store, win);
    if (recover)
      return { recover, chain: null, total: win.total, items: [], live: false, bookEnd: null };
    const chain = compressionChain(store, root);
    const d = describe(store, chain);
    const b = bookendsOf(store, chain);
    if (chain.length > win.chain.length) {
      return { chain, total: sum(countsOf(store, chain)), items: [], live: d.live, bookEnd: b.end };
    }
    if (!win.atEnd)
      return { chain: null, total: win.total, items: [], live: d.live, bookEnd: b.end };
    const loaded = extendWindow(store, win, 'after', OPEN_AFTER);
    return { chain: null, total: win.total, items: loaded.items, live: d.live, bookEnd: b.end };
  });
}

/** Checks that every loaded message is still shown; if not, where the window should go. */
function recovery(store: Store, win: MsgWindow): Recovery | null {
  const loaded: number[] = [];
  for (const it of win.items) if (isMessage(it)) loaded.push(it.msg.id);
  if (loaded.length === 0) return null;
  const alive = new Set(visibleIds(store, loaded));
  const removed = loaded.length - alive.size;
  if (removed === 0) return null;
  const focus = focusedMessage(win);
  if (focus && alive.has(focus.id))
    return {
      kind: 'reanchor',
      sessionId: focus.session_id,
      messageId: focus.id,
      removed,
      focusGone: false,
      from: focus.id,
    };
  const from = focus?.id ?? loaded[0]!;
  const sid = focus?.session_id ?? win.chain[0]!;
  const near =
    messagesBefore(store, sid, from, 1)[0] ??
    messagesAfter(store, sid, from, 1)[0] ??
    win.chain.map((c) => sessionEdge(store, c, 'tail', 1)[0]).find((m) => m !== undefined);
  if (!near) return { kind: 'deleted', removed };
  return {
    kind: 'reanchor',
    sessionId: near.session_id,
    messageId: near.id,
    removed,
    focusGone: true,
    from,
  };
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
        out.push(sessionRowOf(raw, tip?.cwd ?? null, row.depth + 1));
      }
    }
    return out;
  });
}

function jumpRow(
  store: Store,
  sid: string,
  messageId: number | null,
  note: string,
): ResultItem | null {
  const meta = sessionMeta(store, sid);
  if (!meta) return null;
  return {
    key: `jump:${sid}#${messageId ?? ''}`,
    kind: 'jump',
    sessionId: sid,
    rootId: rootOf(store, sid),
    title: clean(meta.title) || previewOf(clean(firstUserText(store, sid))) || '(untitled)',
    source: clean(meta.source) || 'unknown',
    startedAt: meta.started_at,
    when: meta.started_at,
    messageId,
    matchedRole: null,
    snippet: [{ text: `${clean(sid)} · ${clean(note)}`, hit: false }],
    live: meta.ended_at === null,
    note: clean(note),
  };
}

/** Result rows for a pasted or typed anchor: the session (and message) it denotes, or a prefix's candidates. */
export function resolveAnchor(
  store: Store,
  anchor: ParsedAnchor,
): { items: ResultItem[]; message: string | null } {
  return store.read(() => {
    if (anchor.kind === 'idPrefix') {
      const ids = sessionsByPrefix(store, anchor.prefix);
      const items = ids
        .map((id) => jumpRow(store, id, null, 'open at its latest messages'))
        .filter((r): r is ResultItem => r !== null);
      return {
        items,
        message: items.length === 0 ? `no session id starts with ${clean(anchor.prefix)}` : null,
      };
    }
    if (anchor.kind === 'scroll') {
      const r = resolveRef(store, {
        kind: 'message',
        sessionId: anchor.sessionId,
        messageId: anchor.messageId,
      });
      if (r.ok) {
        const row = jumpRow(
          store,
          r.sessionId,
          r.messageId,
          r.note
            ? `message ${anchor.messageId} (rebound to its segment)`
            : `open at message ${anchor.messageId}`,
        );
        return { items: row ? [row] : [], message: null };
      }
      const row = jumpRow(store, anchor.sessionId, null, `${r.error}; open at its latest messages`);
      return { items: row ? [row] : [], message: row ? null : clean(r.error) };
    }
    const r = resolveRef(store, { kind: 'session', sessionId: anchor.sessionId });
    if (!r.ok) return { items: [], message: clean(r.error) };
    const row = jumpRow(store, r.sessionId, null, 'open at its latest messages');
    return { items: row ? [row] : [], message: null };
  });
}

/** Everything the main thread asks of the store, bound to one open store. */
export class DataSource {
  constructor(readonly store: Store) {}

  get profile(): string {
    return this.store.profile;
  }

  get path(): string {
    return this.store.path;
  }

  get warnings(): string[] {
    return this.store.warnings;
  }

  dataVersion(): number {
    return this.store.dataVersion();
  }

  recent(limit: number, all: boolean): RecentAnswer {
    return loadRecent(this.store, limit, all);
  }

  openAt(sessionId: string, messageId: number): Opened | null {
    return openAt(this.store, sessionId, messageId);
  }

  openTail(sessionId: string): Opened | null {
    return openTail(this.store, sessionId);
  }

  openHead(chain: readonly string[]): Opened | null {
    return openHead(this.store, chain);
  }

  extend(win: MsgWindow, side: 'before' | 'after', n: number): Loaded {
    return extendWindow(this.store, win, side, n);
  }

  hits(query: string, chain: readonly string[], roles: readonly string[]): number[] {
    return chainHits(this.store, query, chain, roles);
  }

  chainOf(sessionId: string): string[] {
    return this.store.read(() => compressionChain(this.store, sessionId));
  }

  ownerOf(messageId: number): string | null {
    return ownerOf(this.store, messageId);
  }

  liveUpdate(win: MsgWindow): LiveUpdate | null {
    return liveUpdate(this.store, win);
  }

  branches(row: SessionRow): SessionRow[] {
    return branchRows(this.store, row);
  }

  resolve(anchor: ParsedAnchor): { items: ResultItem[]; message: string | null } {
    return resolveAnchor(this.store, anchor);
  }

  answer(req: QueryRequest, post: (r: QueryResponse) => void): void {
    answerQuery(this.store, req, post);
  }

  close(): void {
    this.store.close();
  }
}
