/**
 * PraisonAI's `SqliteTranscriptStore` (AGENTS.md §5.1): only `<sessions>/sessions.db`,
 * table `sessions(session_id PK, data TEXT, agent_name, gateway_session_id, agent_id,
 * updated_at)`, `data` holding the same JSON document as a `<id>.json` file. Read
 * through one short read-only connection (readOnlyDb.ts); a session is re-derived
 * when its `updated_at` differs from the one seen last (a watermark per session,
 * which also tells which sessions were deleted).
 */
import { Problems, type ConvPatch, type Msg } from '../model.js';
import { columns, openWithoutTrace } from '../readOnlyDb.js';
import { praisonaiParse } from './praisonai.js';

export interface PraisonaiDbRead {
  sessions: { conv: ConvPatch; messages: Msg[] }[];
  /** session_id → its `updated_at` as read, for the next pass. */
  watermarks: Record<string, string>;
}

export function readPraisonaiDb(
  path: string,
  known: Record<string, string>,
  problems: Problems,
): PraisonaiDbRead {
  const { db, cleanup } = openWithoutTrace(path);
  try {
    db.pragma('query_only = ON');
    const cols = columns(db, 'sessions');
    if (!cols.has('session_id') || !cols.has('data')) {
      problems.add('not a PraisonAI sessions.db (no sessions table with session_id, data)');
      return { sessions: [], watermarks: known };
    }
    const updated = cols.has('updated_at') ? 'updated_at' : 'NULL';
    return db.transaction(() => {
      const marks = db
        .prepare(`SELECT session_id AS id, CAST(${updated} AS TEXT) AS mark FROM sessions`)
        .all() as { id: unknown; mark: string | null }[];
      const watermarks: Record<string, string> = {};
      const changed: string[] = [];
      for (const r of marks) {
        if (typeof r.id !== 'string' || !r.id) continue;
        watermarks[r.id] = r.mark ?? '';
        if (known[r.id] !== watermarks[r.id] || r.mark === null) changed.push(r.id);
      }
      const one = db.prepare(
        `SELECT data, ${updated} AS updated_at FROM sessions WHERE session_id = ?`,
      );
      const sessions: PraisonaiDbRead['sessions'] = [];
      for (const id of changed) {
        const row = one.get(id) as { data: unknown; updated_at: unknown } | undefined;
        let doc: unknown;
        try {
          doc = typeof row?.data === 'string' ? JSON.parse(row.data) : null;
        } catch {
          doc = null;
        }
        if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
          problems.add('sessions.db row whose data is not a JSON session');
          continue;
        }
        const d = doc as Record<string, unknown>;
        // The row's key names the session when the document does not.
        if (typeof d.session_id !== 'string' || !d.session_id) d.session_id = id;
        if (d.updated_at == null && row?.updated_at != null) d.updated_at = row.updated_at;
        const p = new Problems();
        const r = praisonaiParse({ path, carry: null, problems: p }, d);
        for (const [reason, n] of p.counts) problems.add(reason, n);
        if (r.conv) sessions.push({ conv: r.conv, messages: r.messages });
      }
      return { sessions, watermarks };
    })();
  } finally {
    db.close();
    cleanup();
  }
}
