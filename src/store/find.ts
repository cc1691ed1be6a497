/**
 * Find within one conversation (the app's `/` in the message pane, as in
 * less): every visible message of the given sessions whose text, tool name or
 * tool calls contain a string, case-insensitively for ASCII, in id order. A substring
 * scan bounded to the sessions' rows, so tool output and tool-call arguments
 * are found too, which the full-text index leaves out or tokenizes.
 */
import type { Store } from './store.js';
import { likePattern } from './query.js';
import { visibleMessage } from './sqlParts.js';
import { FIND_MAX } from '../budgets.js';
export { FIND_MAX } from '../budgets.js';

/** The content as text without the leading NUL of `\0json:` content (text functions stop at a NUL; blob ones do not). */
const TEXT_OF_CONTENT = `(CASE WHEN substr(CAST(m.content AS BLOB), 1, 1) = x'00'
  THEN CAST(substr(CAST(m.content AS BLOB), 2) AS TEXT) ELSE m.content END)`;

export function findInSessions(
  store: Store,
  sessionIds: readonly string[],
  text: string,
): number[] {
  const t = text.trim();
  if (t === '' || sessionIds.length === 0) return [];
  const p = likePattern(t);
  // LIKE folds ASCII case only (SQLite's default); other scripts match as typed.
  const sql = `SELECT m.id FROM messages m
    WHERE m.session_id IN (SELECT value FROM json_each(?)) AND ${visibleMessage(store.layout, 'm')}
      AND (${TEXT_OF_CONTENT} LIKE ? ESCAPE '\\' OR m.tool_name LIKE ? ESCAPE '\\' OR m.tool_calls LIKE ? ESCAPE '\\')
    ORDER BY m.id LIMIT ${FIND_MAX}`;
  return store.read(
    () => store.stmt(sql).pluck().all(JSON.stringify(sessionIds), p, p, p) as number[],
  );
}
