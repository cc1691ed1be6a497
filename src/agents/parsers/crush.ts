/**
 * Crush (AGENTS.md §9.5): one SQLite database per project, `<project>/.crush/crush.db`
 * (internal/db/migrations): `sessions(id, parent_session_id, title, message_count,
 * …, updated_at, created_at, summary_message_id, todos)` and `messages(id,
 * session_id, role, parts JSON, model, created_at, updated_at, finished_at,
 * provider, is_summary_message)`. A reply's row is updated in place while it
 * streams, so a session is re-derived when its mark moves: the session's own
 * `updated_at`, and its messages' count, sums of `updated_at` and `finished_at`,
 * and newest rowid. A sum, not a maximum: the update trigger writes seconds where
 * inserts wrote milliseconds, so an updated row's `updated_at` goes down.
 * Read through one short read-only connection (readOnlyDb.ts).
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import type Database from 'better-sqlite3';
import { crushProjectDir } from '../discoverMore.js';
import {
  FLAG,
  TITLE_RANK,
  capped,
  epochMs,
  looksInjected,
  obj,
  placeholder,
  str,
  type ConvPatch,
  type Msg,
  type Problems,
  type ToolCall,
} from '../model.js';
import { columns, openWithoutTrace } from '../readOnlyDb.js';
import { offerTitle } from './claude.js';
import type { DbRead } from './dbRead.js';

interface Part {
  type: string;
  data: Record<string, unknown>;
}

function partsOf(raw: unknown, problems: Problems): Part[] | null {
  try {
    const v: unknown = typeof raw === 'string' ? JSON.parse(raw) : null;
    if (!Array.isArray(v)) throw new Error('not a list');
    return v.flatMap((p) => {
      const o = obj(p);
      return o && typeof o.type === 'string' ? [{ type: o.type, data: obj(o.data) ?? {} }] : [];
    });
  } catch {
    problems.add('message whose parts are not JSON');
    return null;
  }
}

/** One stored message as one row: its text, reasoning, tool calls, or tool results. */
function toMsg(r: Record<string, unknown>, problems: Problems): Msg | null {
  const parts = partsOf(r.parts, problems);
  if (!parts) return null;
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  const results: Record<string, unknown>[] = [];
  let shell: string | null = null;
  let error = false;
  for (const { type, data } of parts) {
    if (type === 'text' && typeof data.text === 'string') text.push(data.text);
    else if (type === 'reasoning' && typeof data.thinking === 'string')
      reasoning.push(data.thinking);
    else if (type === 'tool_call')
      calls.push({
        id: str(data.id) ?? '',
        type: 'function',
        function: {
          name: str(data.name) ?? '',
          arguments: typeof data.input === 'string' ? data.input : '',
        },
      });
    else if (type === 'tool_result') {
      results.push(data);
      if (data.is_error === true) error = true;
    } else if (type === 'binary') text.push(placeholder('file', data.MIMEType, data.Data));
    else if (type === 'image_url') text.push(`[image ${str(data.url)?.slice(0, 200) ?? ''}]`);
    else if (type === 'shell_command')
      shell = `$ ${String(data.command ?? '')}\n${String(data.output ?? '')}`.trimEnd();
    else if (type === 'finish' && (data.reason === 'error' || data.reason === 'permission_denied'))
      text.push(String(data.message ?? data.details ?? data.reason));
  }
  const role = str(r.role);
  const anchor = str(r.id);
  if (!anchor) return null;
  const created_at = epochMs(r.created_at);
  const summary = Number(r.is_summary_message) === 1;
  if (role === 'tool' || shell !== null) {
    const body = shell ?? results.map((x) => String(x.content ?? '')).join('\n');
    const c = capped(body, TEXT_CAP);
    return {
      anchor,
      role: 'tool',
      kind: error ? 'error' : 'tool_result',
      text: c.text,
      call_id: str(results[0]?.tool_call_id),
      tool_name: shell !== null ? 'shell' : str(results[0]?.name),
      created_at,
      flags: c.truncated ? FLAG.truncated : 0,
      original_len: c.original_len,
    };
  }
  const body = text.join('\n');
  const c = capped(body, MESSAGE_CAP);
  const injected = role === 'user' && looksInjected(body);
  return {
    anchor,
    role: role === 'assistant' ? 'assistant' : role === 'user' && !injected ? 'user' : 'system',
    kind: summary
      ? 'summary'
      : injected
        ? 'injected'
        : role === 'system'
          ? 'meta'
          : !body && calls.length > 0
            ? 'tool_call'
            : !body && reasoning.length > 0
              ? 'reasoning'
              : 'text',
    text: c.text,
    reasoning: reasoning.length > 0 ? reasoning.join('\n') : null,
    tool_calls: calls.length > 0 ? calls : null,
    model: str(r.model),
    created_at,
    flags: (summary ? FLAG.compactBoundary : 0) | (c.truncated ? FLAG.truncated : 0),
    original_len: c.original_len,
  };
}

export function readCrush(path: string, known: Record<string, string>, problems: Problems): DbRead {
  const { db, cleanup } = openWithoutTrace(path);
  try {
    db.pragma('query_only = ON');
    const s = columns(db, 'sessions');
    const m = columns(db, 'messages');
    if (!s.has('id') || !m.has('session_id') || !m.has('parts')) {
      problems.add('not a Crush database (no sessions and messages tables)');
      return { sessions: [], marks: known };
    }
    return db.transaction(() => read(db, path, known, problems, m))();
  } finally {
    db.close();
    cleanup();
  }
}

function read(
  db: Database.Database,
  path: string,
  known: Record<string, string>,
  problems: Problems,
  m: Set<string>,
): DbRead {
  const finished = m.has('finished_at') ? 'finished_at' : 'NULL';
  const rows = db
    .prepare(
      `SELECT s.id, s.parent_session_id, s.title, s.created_at, s.updated_at,
         (SELECT count(*) || ':' || ifnull(sum(updated_at), '') || ':' || ifnull(sum(${finished}), '')
            || ':' || ifnull(max(rowid), '')
          FROM messages WHERE session_id = s.id) AS mm
       FROM sessions s`,
    )
    .all() as Record<string, unknown>[];
  const marks: Record<string, string> = {};
  const msgs = db.prepare(
    `SELECT id, role, parts, ${m.has('model') ? 'model' : 'NULL AS model'}, created_at,
       ${m.has('is_summary_message') ? 'is_summary_message' : '0 AS is_summary_message'}
     FROM messages WHERE session_id = ? ORDER BY created_at, rowid`,
  );
  const cwd = crushProjectDir(path);
  const sessions: DbRead['sessions'] = [];
  for (const r of rows) {
    const id = str(r.id);
    if (!id) continue;
    // "title-<id>" sessions are the prompt that names their parent (session.go, CreateTitleSession).
    if (id.startsWith('title-') && str(r.parent_session_id)) continue;
    marks[id] = `${String(r.updated_at)}|${String(r.mm)}`;
    if (known[id] === marks[id]) continue;
    const conv: ConvPatch = {
      native_id: id,
      cwd,
      started_at: epochMs(r.created_at),
      last_active_at: epochMs(r.updated_at),
    };
    if (str(r.parent_session_id)) {
      conv.parent_native_id = str(r.parent_session_id);
      conv.parent_kind = 'subagent';
    }
    if (typeof r.title === 'string') offerTitle(conv, r.title, TITLE_RANK.generated);
    const messages: Msg[] = [];
    for (const row of msgs.all(id) as Record<string, unknown>[]) {
      const msg = toMsg(row, problems);
      if (!msg) continue;
      messages.push(msg);
      if (msg.model && msg.role === 'assistant') conv.model = msg.model;
      const t = msg.created_at;
      if (t !== null && (conv.last_active_at == null || t > conv.last_active_at))
        conv.last_active_at = t;
      if (!conv.title && msg.role === 'user' && msg.kind === 'text')
        offerTitle(conv, msg.text, TITLE_RANK.firstPrompt);
    }
    sessions.push({ conv, messages });
  }
  return { sessions, marks };
}
