import type { Store } from './store.js';
import { rootOf, sessionMeta } from './lineage.js';
import { messageById, owningSession } from './messages.js';
import { PREFIX_MATCH_LIMIT } from '../budgets.js';

/**
 * Sessions whose id starts with `prefix`, newest first (for pasted or typed
 * id prefixes such as `20260301_14`). `%`, `_` and `\` in the prefix are
 * literal.
 */
export function sessionsByPrefix(
  store: Store,
  prefix: string,
  limit = PREFIX_MATCH_LIMIT,
): string[] {
  const p = prefix.trim();
  if (p === '') return [];
  const pattern = `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = store
    .stmt(
      `SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY started_at DESC, id DESC LIMIT ?`,
    )
    .all(pattern, Math.max(1, Math.floor(limit))) as { id: string }[];
  return rows.map((r) => r.id);
}

/** What a pasted anchor points at, before it is checked against the store. */
export type Ref =
  | { kind: 'session'; sessionId: string }
  | { kind: 'message'; sessionId: string; messageId: number }
  | { kind: 'prefix'; prefix: string };

export type Resolved =
  | { ok: true; sessionId: string; messageId: number | null; note: string | null }
  | { ok: false; error: string; candidates: string[] };

/**
 * Checks a reference against the store with the agent's scroll rules: a
 * message in another session of the same lineage (a compression child)
 * rebinds to its owner with a note; a prefix must name exactly one session.
 */
export function resolveRef(store: Store, ref: Ref): Resolved {
  return store.read((): Resolved => {
    if (ref.kind === 'prefix') {
      const ids = sessionsByPrefix(store, ref.prefix);
      if (ids.length === 1) return { ok: true, sessionId: ids[0]!, messageId: null, note: null };
      return {
        ok: false,
        error:
          ids.length === 0
            ? `no session id starts with ${ref.prefix}`
            : `${ids.length}${ids.length >= PREFIX_MATCH_LIMIT ? '+' : ''} sessions start with ${ref.prefix}`,
        candidates: ids,
      };
    }
    const sid = ref.sessionId.trim();
    if (!sessionMeta(store, sid))
      return { ok: false, error: `session_id not found: ${sid}`, candidates: [] };
    if (ref.kind === 'session') return { ok: true, sessionId: sid, messageId: null, note: null };
    const owner = owningSession(store, ref.messageId);
    if (owner === null || messageById(store, ref.messageId) === null)
      return {
        ok: false,
        error: `around_message_id ${ref.messageId} not in session_id ${sid}`,
        candidates: [],
      };
    if (owner === sid) return { ok: true, sessionId: sid, messageId: ref.messageId, note: null };
    if (rootOf(store, owner) === rootOf(store, sid))
      return {
        ok: true,
        sessionId: owner,
        messageId: ref.messageId,
        note: `around_message_id ${ref.messageId} lives in ${owner} (child of ${sid}); rebound transparently`,
      };
    return {
      ok: false,
      error: `around_message_id ${ref.messageId} not in session_id ${sid}`,
      candidates: [],
    };
  });
}
