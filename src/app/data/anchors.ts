/**
 * A pasted or typed anchor (session id, id prefix, scroll call) as result rows
 * the person can open.
 */
import type { ParsedAnchor } from '../../anchors/parse.js';
import { firstUserText, previewOf } from '../../store/browse.js';
import { rootOf, sessionMeta } from '../../store/lineage.js';
import { resolveRef, sessionsByPrefix } from '../../store/resolve.js';
import type { Store } from '../../store/store.js';
import type { ResultItem } from '../model.js';
import { clean } from './rows.js';

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
