/**
 * opencode ≥ 1.2 (AGENTS.md §4): SQLite `session`, `message`, `part`. Opened
 * read-only for one short read and closed again; never migrated, never held.
 * Each session has a signature (its own update time plus row counts and the newest
 * update over its messages and parts); a changed signature re-derives the session.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { columns, openWithoutTrace } from '../readOnlyDb.js';
import {
  FLAG,
  TITLE_RANK,
  capped,
  obj,
  str,
  type ConvPatch,
  type Msg,
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import { isOpencodeV2, readV2Sessions, v2Signatures } from './opencodeV2.js';
import type Database from 'better-sqlite3';
import type { Problems } from '../model.js';
import type { OpencodeSession } from './types.js';

// In types.ts so opencodeV2.ts can use it without a circle.
export type { OpencodeSession } from './types.js';

export interface OpencodeRead {
  sessions: OpencodeSession[];
  signatures: Record<string, string>;
}

function json(v: unknown): Record<string, unknown> | null {
  if (typeof v !== 'string') return null;
  try {
    return obj(JSON.parse(v));
  } catch {
    return null;
  }
}

/** Reads the sessions whose signature differs from `known`; returns all current signatures. */
export function readOpencode(
  path: string,
  known: Record<string, string>,
  problems: Problems,
): OpencodeRead {
  const { db, cleanup } = openWithoutTrace(path);
  try {
    db.pragma('query_only = ON');
    const sessionCols = columns(db, 'session');
    const v2 = isOpencodeV2(db);
    const v1 =
      sessionCols.has('id') && columns(db, 'message').size > 0 && columns(db, 'part').size > 0;
    if (!v1 && !v2) {
      problems.add('not an opencode database (no session/message/part or session_v2 tables)');
      return { sessions: [], signatures: known };
    }
    if (!v1) return readV2Only(db, known);
    const dir = sessionCols.has('directory') ? 's.directory' : 'NULL';
    const hasProject = columns(db, 'project').has('worktree');
    const worktree = hasProject
      ? '(SELECT worktree FROM project p WHERE p.id = s.project_id)'
      : 'NULL';
    // One read transaction: the signatures and the rows agree with each other.
    return db.transaction(() => {
      const sigRows = db
        .prepare(
          `SELECT s.id,
             s.time_updated || ':' || (SELECT count(*) || ':' || ifnull(max(time_updated), 0) FROM message m WHERE m.session_id = s.id)
               || ':' || (SELECT count(*) || ':' || ifnull(max(time_updated), 0) FROM part p WHERE p.session_id = s.id) AS sig
           FROM session s`,
        )
        .all() as { id: string; sig: string }[];
      const signatures: Record<string, string> = {};
      const changed: string[] = [];
      // 2.x: sessions migrated at the upgrade are in both generations with the same
      // ids; the 2.x rows are the live ones (§8.2). The 1.x rows of those stay unread.
      const v2sigs = v2 ? v2Signatures(db) : new Map<string, string>();
      const changedV2: string[] = [];
      for (const [id, sig] of v2sigs) {
        signatures[id] = sig;
        if (known[id] !== sig) changedV2.push(id);
      }
      for (const r of sigRows) {
        if (v2sigs.has(r.id)) continue;
        signatures[r.id] = r.sig;
        if (known[r.id] !== r.sig) changed.push(r.id);
      }
      const sessionStmt = db.prepare(
        `SELECT s.*, ${dir} AS dir, ${worktree} AS worktree FROM session s WHERE s.id = ?`,
      );
      const msgStmt = db.prepare(
        `SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id`,
      );
      const partStmt = db.prepare(
        `SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id`,
      );
      const sessions = changed.map((id) =>
        derive(
          sessionStmt.get(id) as Record<string, unknown>,
          msgStmt.all(id) as Row[],
          partStmt.all(id) as PartRow[],
        ),
      );
      sessions.push(...readV2Sessions(db, changedV2));
      if (
        !v2 &&
        sigRows.length > 0 &&
        (db.prepare('SELECT count(*) AS n FROM message').get() as { n: number }).n === 0
      ) {
        const sm =
          columns(db, 'session_message').size > 0
            ? (db.prepare('SELECT count(*) AS n FROM session_message').get() as { n: number }).n
            : 0;
        if (sm > 0)
          problems.add(
            'messages only in session_message (a newer layout lookback does not read yet)',
          );
      }
      return { sessions, signatures };
    })();
  } finally {
    db.close();
    cleanup();
  }
}

/** A store with only 2.x tables (created by opencode 2, never 1.x). */
function readV2Only(db: Database.Database, known: Record<string, string>): OpencodeRead {
  return db.transaction(() => {
    const signatures: Record<string, string> = {};
    const changed: string[] = [];
    for (const [id, sig] of v2Signatures(db)) {
      signatures[id] = sig;
      if (known[id] !== sig) changed.push(id);
    }
    return { sessions: readV2Sessions(db, changed), signatures };
  })();
}

export interface Row {
  id: string;
  time_created: number;
  data: string;
}
export interface PartRow {
  id: string;
  message_id: string;
  data: string;
}

export function derive(s: Record<string, unknown>, msgs: Row[], parts: PartRow[]): OpencodeSession {
  const conv: ConvPatch = {
    native_id: String(s.id),
    parent_native_id: str(s.parent_id),
    parent_kind: str(s.parent_id) ? 'child' : null,
    cwd: str(s.dir) ?? str(s.worktree),
    started_at: typeof s.time_created === 'number' ? s.time_created : null,
    last_active_at: typeof s.time_updated === 'number' ? s.time_updated : null,
    extra: { archived: s.time_archived != null, slug: s.slug ?? null },
  };
  if (typeof s.title === 'string') offerTitle(conv, s.title, TITLE_RANK.user);
  const model = json(s.model);
  if (model && typeof model.modelID === 'string') conv.model = model.modelID;
  const revert = json(s.revert);
  const revertFrom = str(revert?.messageID);
  const byMessage = new Map<string, PartRow[]>();
  for (const p of parts) {
    const list = byMessage.get(p.message_id);
    if (list) list.push(p);
    else byMessage.set(p.message_id, [p]);
  }
  const messages: Msg[] = [];
  let rewound = false;
  for (const m of msgs) {
    const data = json(m.data) ?? {};
    if (m.id === revertFrom) rewound = true;
    const flags = rewound ? FLAG.rewound : 0;
    const role = data.role === 'user' ? 'user' : 'assistant';
    const texts: string[] = [];
    const reasoning: string[] = [];
    const calls: ToolCall[] = [];
    const after: Msg[] = [];
    let boundary = false;
    for (const p of byMessage.get(m.id) ?? []) {
      const d = json(p.data) ?? {};
      switch (d.type) {
        case 'text':
          if (typeof d.text !== 'string' || !d.text) break;
          if (d.synthetic === true) {
            const c = capped(d.text, TEXT_CAP);
            after.push({
              anchor: p.id,
              role: 'system',
              kind: 'injected',
              text: c.text,
              created_at: m.time_created,
              flags,
              original_len: c.original_len,
            });
          } else texts.push(d.text);
          break;
        case 'reasoning':
          if (typeof d.text === 'string' && d.text) reasoning.push(d.text);
          break;
        case 'tool': {
          const state = obj(d.state) ?? {};
          const callId = String(d.callID ?? p.id);
          calls.push({
            id: callId,
            type: 'function',
            function: {
              name: String(d.tool ?? ''),
              arguments: JSON.stringify(state.input ?? {}).slice(0, TEXT_CAP),
            },
          });
          const output =
            typeof state.output === 'string'
              ? state.output
              : typeof state.error === 'string'
                ? state.error
                : null;
          if (output !== null) {
            const c = capped(output, TEXT_CAP);
            after.push({
              anchor: p.id,
              role: 'tool',
              kind: state.status === 'error' ? 'error' : 'tool_result',
              text: c.text,
              tool_name: str(d.tool),
              call_id: callId,
              created_at: m.time_created,
              flags: flags | (c.truncated ? FLAG.truncated : 0),
              original_len: c.original_len,
            });
          }
          break;
        }
        case 'file':
          texts.push(
            `[file ${String(d.mime ?? '')} ${String(d.filename ?? '')}]`.replace(/\s+\]/, ']'),
          );
          break;
        case 'compaction':
          boundary = true;
          break;
        default:
          break; // step-start/finish, snapshot, patch, retry, agent, subtask: bookkeeping
      }
    }
    const c = capped(texts.join('\n'), MESSAGE_CAP);
    const row: Msg = {
      anchor: m.id,
      role,
      kind: c.text
        ? 'text'
        : calls.length > 0
          ? 'tool_call'
          : reasoning.length > 0
            ? 'reasoning'
            : 'text',
      text: c.text,
      created_at: m.time_created,
      model: str(data.modelID),
      flags: flags | (c.truncated ? FLAG.truncated : 0) | (boundary ? FLAG.compactBoundary : 0),
      original_len: c.original_len,
    };
    if (reasoning.length > 0) row.reasoning = reasoning.join('\n').slice(0, MESSAGE_CAP);
    if (calls.length > 0) row.tool_calls = calls;
    const tokens = obj(data.tokens);
    if (tokens && typeof tokens.output === 'number')
      row.tokens = Number(tokens.input ?? 0) + tokens.output;
    if (row.model && !conv.model) conv.model = row.model;
    if (row.text || row.reasoning || row.tool_calls || boundary) messages.push(row);
    messages.push(...after);
  }
  return { conv, messages };
}
