/**
 * What an export reads: a whole conversation (every segment of its
 * compression chain, every visible message, in order) or the marked
 * messages grouped by conversation, with the metadata the document heads.
 * Read in pages (keyset) inside one read transaction, so a big conversation
 * costs a few queries and the agent writing meanwhile cannot tear it.
 */
import type { ConversationInfo } from '../../export/conversation.js';
import { sessionMeta } from '../../store/lineage.js';
import { messageById, messagesAfter } from '../../store/messages.js';
import type { Store } from '../../store/store.js';
import type { Message } from '../../store/types.js';
import type { MarkRef } from '../model.js';

/** Messages read per query. */
const PAGE = 1_000;

export interface ExportGroup {
  info: ConversationInfo;
  messages: Message[];
}

function infoOf(
  store: Store,
  profile: string,
  sessionId: string,
  title?: string,
): ConversationInfo {
  const meta = sessionMeta(store, sessionId);
  return {
    profile,
    sessionId,
    title: title ?? meta?.title ?? null,
    source: meta?.source ?? null,
    model: meta?.model ?? null,
    startedAt: meta?.started_at ?? null,
    cwd: meta?.cwd ?? null,
  };
}

/** Every visible message of the chain's segments, oldest first; headed by the chain's first segment. */
export function exportConversation(
  store: Store,
  chain: readonly string[],
  title?: string,
): ExportGroup | null {
  const first = chain[0];
  if (first === undefined) return null;
  return store.read(() => {
    const messages: Message[] = [];
    for (const sid of chain) {
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const page = messagesAfter(store, sid, after, PAGE);
        messages.push(...page);
        const last = page[page.length - 1];
        if (page.length < PAGE || last === undefined) break;
        after = last.id;
      }
    }
    return { info: infoOf(store, store.profile, first, title), messages };
  });
}

/** The marked messages that still exist, grouped by conversation in mark order. */
export function exportMarks(store: Store, marks: readonly MarkRef[]): ExportGroup[] {
  return store.read(() => {
    const groups = new Map<string, ExportGroup>();
    for (const ref of marks) {
      const m = messageById(store, ref.messageId);
      if (!m) continue;
      let g = groups.get(m.session_id);
      if (!g) {
        g = { info: infoOf(store, store.profile, m.session_id), messages: [] };
        groups.set(m.session_id, g);
      }
      g.messages.push(m);
    }
    for (const g of groups.values()) g.messages.sort((a, b) => a.id - b.id);
    return [...groups.values()];
  });
}
