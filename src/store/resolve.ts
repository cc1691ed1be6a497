import { inRead, type Store } from './store.js';
import { rootOf, sessionMeta } from './lineage.js';
import { messageById, owningSession } from './messages.js';

/** What a pasted anchor, link or id names, before it is checked against the store. */
export type Ref =
  | { kind: 'session'; sessionId: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'message'; sessionId: string; messageId: number };

export type Resolved =
  | { ok: true; sessionId: string; messageId: number | null; note: string | null }
  | { ok: false; error: string; candidates: string[] };

/** How many sessions an ambiguous prefix lists. */
const PREFIX_CANDIDATES = 10;

function sessionsWithPrefix(store: Store, prefix: string): string[] {
  const rows = store
    .stmt(
      `SELECT id FROM sessions WHERE id >= ? AND id < ? ORDER BY id LIMIT ${PREFIX_CANDIDATES + 1}`,
    )
    .all(prefix, prefix + '\uffff') as { id: string }[];
  return rows.map((r) => r.id);
}

/**
 * Resolves a reference to a session and, when it names one, a message. A message
 * id that lives in another session of the same lineage resolves to its owner, as
 * the agent's scroll does; an exact id always wins over a prefix.
 */
function resolveRefImpl(store: Store, ref: Ref): Resolved {
  if (ref.kind === 'prefix') {
    if (sessionMeta(store, ref.prefix))
      return { ok: true, sessionId: ref.prefix, messageId: null, note: null };
    const found = sessionsWithPrefix(store, ref.prefix);
    if (found.length === 1) return { ok: true, sessionId: found[0]!, messageId: null, note: null };
    if (found.length === 0)
      return { ok: false, error: `no session starts with ${ref.prefix}`, candidates: [] };
    const more = found.length > PREFIX_CANDIDATES ? ' (and more)' : '';
    return {
      ok: false,
      error: `${ref.prefix} matches several sessions${more}`,
      candidates: found.slice(0, PREFIX_CANDIDATES),
    };
  }
  if (!sessionMeta(store, ref.sessionId)) {
    const owner = ref.kind === 'message' ? owningSession(store, ref.messageId) : null;
    if (!owner)
      return { ok: false, error: `session_id not found: ${ref.sessionId}`, candidates: [] };
    return {
      ok: true,
      sessionId: owner,
      messageId: ref.kind === 'message' ? ref.messageId : null,
      note: `session ${ref.sessionId} is not in this store; opened the message's own session`,
    };
  }
  if (ref.kind === 'session')
    return { ok: true, sessionId: ref.sessionId, messageId: null, note: null };
  const msg = messageById(store, ref.messageId);
  if (!msg) {
    const exists = owningSession(store, ref.messageId);
    return {
      ok: false,
      error: exists
        ? `message ${ref.messageId} was rewound or hidden`
        : `message ${ref.messageId} is not in this store (pruned?)`,
      candidates: [],
    };
  }
  if (msg.session_id === ref.sessionId)
    return { ok: true, sessionId: ref.sessionId, messageId: ref.messageId, note: null };
  if (rootOf(store, msg.session_id) === rootOf(store, ref.sessionId))
    return {
      ok: true,
      sessionId: msg.session_id,
      messageId: ref.messageId,
      note: `message ${ref.messageId} lives in ${msg.session_id}, in the same conversation`,
    };
  return {
    ok: false,
    error: `around_message_id ${ref.messageId} not in session_id ${ref.sessionId}`,
    candidates: [],
  };
}

export const resolveRef = inRead(resolveRefImpl);
