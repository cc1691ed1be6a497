/**
 * What the agent wrote since a window was loaded, and where a window goes when
 * its messages are pruned or rewound under it.
 */
import { compressionChain } from '../../store/lineage.js';
import { messagesAfter, messagesBefore, sessionEdge, visibleIds } from '../../store/messages.js';
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/types.js';
import {
  OPEN_AFTER,
  focusedMessage,
  isMessage,
  type MsgWindow,
  type WinItem,
} from '../geometry/window.js';
import { bookendsOf, countsOf, describe, extendWindow, sum } from './chainWindow.js';

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
