/**
 * Message windows over a compression chain: keyset paging forward and backward
 * across segments, and the one builder of an opened conversation (buildOpened).
 */
import { contentText } from '../../store/content.js';
import { firstUserText, previewOf } from '../../store/browse.js';
import { compressionChain, sessionMeta } from '../../store/lineage.js';
import {
  countBefore,
  countVisible,
  messageById,
  messagesAfter,
  messagesBefore,
  owningSession,
  sessionEdge,
} from '../../store/messages.js';
import { conversationContext, type ConversationContext } from '../../store/facts.js';
import { hitsInSessions } from '../../store/search.js';
import type { Store } from '../../store/store.js';
import type { Message, SessionMeta } from '../../store/types.js';
import { OPEN_AFTER, OPEN_BEFORE, type MsgWindow, type WinItem } from '../geometry/window.js';
import { clean } from './rows.js';

import { BOOKEND_SCAN } from '../../budgets.js';

export interface Loaded {
  items: WinItem[];
  /** The chain's edge was reached in the direction loaded. */
  reached: boolean;
}

/**
 * Up to `n` messages after message `afterId` of segment `seg` (exclusive),
 * continuing into later segments of the chain with a divider at each start.
 */
function loadForward(
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
function loadBackward(
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
  /** Folder, branch, model, counts, tokens and cost, with strings sanitized. */
  context: ConversationContext | null;
}

/** The context with every store string cleaned for the terminal. */
function cleanContext(c: ConversationContext | null): ConversationContext | null {
  if (!c) return null;
  const opt = (x: string | null): string | null => (x === null ? null : clean(x) || null);
  return {
    ...c,
    cwd: opt(c.cwd),
    gitBranch: opt(c.gitBranch),
    model: opt(c.model),
    source: clean(c.source) || 'unknown',
    endReason: opt(c.endReason),
  };
}

// The app's bookend rule, kept in this one place until the store exports its own
// (store/messages.ts `bookends` is private): the first and last user/assistant
// message with text, scanned among BOOKEND_SCAN messages at each end.
function hasText(m: Message): boolean {
  return (m.role === 'user' || m.role === 'assistant') && contentText(m.content).trim() !== '';
}

export function bookendsOf(
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

export function countsOf(store: Store, chain: readonly string[]): number[] {
  return chain.map((sid) => countVisible(store, sid));
}

export function sum(xs: readonly number[], upTo = xs.length): number {
  let t = 0;
  for (let i = 0; i < upTo && i < xs.length; i++) t += xs[i]!;
  return t;
}

export function describe(store: Store, chain: readonly string[]) {
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

/** How a window was loaded, and where it opens. */
interface OpenShape {
  items: WinItem[];
  atStart: boolean;
  atEnd: boolean;
  anchorId: number | null;
  follow: boolean;
  focusIndex: number;
  placement: Opened['placement'];
}

/** The one place an opened conversation is built: counts, description, bookends and window. */
function buildOpened(store: Store, chain: readonly string[], shape: OpenShape): Opened {
  const counts = countsOf(store, chain);
  const d = describe(store, chain);
  const b = bookendsOf(store, chain);
  return {
    window: {
      chain,
      items: shape.items,
      atStart: shape.atStart,
      atEnd: shape.atEnd,
      anchorId: shape.anchorId,
      before: shape.atStart ? 0 : beforeCount(store, chain, counts, shape.items[0]),
      total: sum(counts),
      follow: shape.follow,
    },
    focusIndex: shape.focusIndex,
    placement: shape.placement,
    title: d.title,
    source: d.source,
    live: d.live,
    bookStart: b.start,
    bookEnd: b.end,
    note: null,
    context: cleanContext(conversationContext(store, chain)),
  };
}

/** How many messages a window opens with: a full one, or a preview's (a screenful; more load on focus). */
export interface OpenSize {
  before: number;
  after: number;
}
export const FULL_OPEN: OpenSize = { before: OPEN_BEFORE, after: OPEN_AFTER };
/**
 * A preview is laid out whole on the main thread while the list waits: a
 * screenful or two, not the 160 messages of an opened window (Enter loads more).
 */
export const PREVIEW_OPEN: OpenSize = { before: 12, after: 24 };

/** A window around message `messageId` of session `sessionId` (the hit about a third of the way down). */
export function openAt(
  store: Store,
  sessionId: string,
  messageId: number,
  size: OpenSize = FULL_OPEN,
): Opened | null {
  return store.read(() => {
    const chain = compressionChain(store, sessionId);
    const seg = Math.max(0, chain.indexOf(sessionId));
    const anchor = messageById(store, messageId);
    if (!anchor || anchor.session_id !== sessionId) {
      const tail = openTailIn(store, chain, size);
      return tail
        ? {
            ...tail,
            note: `message ${messageId} is not shown in this conversation (rewound or hidden); opened at its latest messages`,
          }
        : null;
    }
    const before = loadBackward(store, chain, seg, messageId, size.before);
    const after = loadForward(store, chain, seg, messageId, size.after);
    return buildOpened(store, chain, {
      items: [...before.items, { kind: 'message', msg: anchor, seg }, ...after.items],
      atStart: before.reached,
      atEnd: after.reached,
      anchorId: messageId,
      follow: false,
      focusIndex: before.items.length,
      placement: 'anchor',
    });
  });
}

function openTailIn(
  store: Store,
  chain: readonly string[],
  size: OpenSize = FULL_OPEN,
): Opened | null {
  const lastSeg = chain.length - 1;
  if (lastSeg < 0) return null;
  const loaded = loadBackward(
    store,
    chain,
    lastSeg,
    Number.MAX_SAFE_INTEGER,
    size.before + size.after,
  );
  let focus = loaded.items.length - 1;
  while (focus > 0 && loaded.items[focus]?.kind !== 'message') focus--;
  return buildOpened(store, chain, {
    items: loaded.items,
    atStart: loaded.reached,
    atEnd: true,
    anchorId: null,
    follow: true,
    focusIndex: Math.max(0, focus),
    placement: 'bottom',
  });
}

/** A window at a conversation's latest messages (following the tail when it is live). */
export function openTail(
  store: Store,
  sessionId: string,
  size: OpenSize = FULL_OPEN,
): Opened | null {
  return store.read(() => openTailIn(store, compressionChain(store, sessionId), size));
}

/** A window at a conversation's first messages. */
export function openHead(store: Store, chain: readonly string[]): Opened | null {
  return store.read(() => {
    if (chain.length === 0) return null;
    const loaded = loadForward(store, chain, 0, Number.MIN_SAFE_INTEGER, OPEN_BEFORE + OPEN_AFTER);
    return buildOpened(store, chain, {
      items: loaded.items,
      atStart: true,
      atEnd: loaded.reached,
      anchorId: null,
      follow: false,
      focusIndex: 0,
      placement: 'top',
    });
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
