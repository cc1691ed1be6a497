/**
 * Goose ≥ 1.10 (AGENTS.md §9.6): SQLite `<data>/sessions/sessions.db`
 * (`session_manager.rs`, schema version 9): `sessions(id, name, description,
 * user_set_name, session_type, working_dir, created_at, updated_at, …,
 * provider_name, model_config_json)` and `messages(id INTEGER, message_id,
 * session_id, role, content_json, created_timestamp, timestamp, tokens,
 * metadata_json)`. `content_json` is a list of `MessageContent` tagged by `type`
 * (`conversation/message.rs`). A compaction or an edit replaces a session's
 * messages wholesale, so a session is re-derived when its `updated_at`, message
 * count or newest message row moves. Older schemas lack some columns: checked.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import type Database from 'better-sqlite3';
import {
  FLAG,
  TITLE_RANK,
  anchorFor,
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

/** SQLite's CURRENT_TIMESTAMP is UTC without a zone; chrono writes RFC 3339. */
export function sqlTime(v: unknown): number | null {
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(v))
    return epochMs(`${v.replace(' ', 'T')}Z`);
  return epochMs(v);
}

function json(v: unknown): unknown {
  if (typeof v !== 'string') return null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

/** The text of an MCP CallToolResult (`{content:[…], isError}`) or of an older bare content list. */
function toolResultText(result: Record<string, unknown> | null): { text: string; error: boolean } {
  if (!result) return { text: '', error: false };
  if (result.status === 'error') return { text: String(result.error ?? 'error'), error: true };
  const value = result.value;
  const list = Array.isArray(value)
    ? value
    : Array.isArray(obj(value)?.content)
      ? (obj(value)!.content as unknown[])
      : [];
  const out: string[] = [];
  for (const raw of list) {
    const c = obj(raw);
    if (!c) continue;
    if (typeof c.text === 'string') out.push(c.text);
    else if (c.type === 'image') out.push(placeholder('image', c.mimeType, c.data));
    else if (obj(c.resource) && typeof obj(c.resource)!.text === 'string')
      out.push(String(obj(c.resource)!.text));
  }
  return { text: out.join('\n'), error: obj(value)?.isError === true };
}

function toMsg(r: Record<string, unknown>, problems: Problems): Msg | null {
  const content = json(r.content_json);
  if (!Array.isArray(content)) {
    problems.add('message whose content_json is not a JSON list');
    return null;
  }
  const meta = obj(json(r.metadata_json));
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  const results: { id: string | null; text: string; error: boolean }[] = [];
  const notes: string[] = [];
  for (const raw of content) {
    const c = obj(raw);
    if (!c) continue;
    switch (c.type) {
      case 'text':
        if (typeof c.text === 'string') text.push(c.text);
        break;
      case 'image':
        text.push(placeholder('image', c.mimeType, c.data));
        break;
      case 'thinking':
        if (typeof c.thinking === 'string') reasoning.push(c.thinking);
        break;
      case 'toolRequest':
      case 'frontendToolRequest': {
        const call = obj(c.toolCall);
        const v = obj(call?.value);
        calls.push({
          id: str(c.id) ?? '',
          type: 'function',
          function: {
            name: str(v?.name) ?? (call?.status === 'error' ? 'invalid tool call' : ''),
            arguments: JSON.stringify(v?.arguments ?? {}),
          },
        });
        break;
      }
      case 'toolResponse':
        results.push({ id: str(c.id), ...toolResultText(obj(c.toolResult)) });
        break;
      case 'systemNotification':
        if (typeof c.msg === 'string') notes.push(c.msg);
        break;
      default:
      // Confirmations, elicitations, redacted thinking: not transcript (rule 5).
    }
  }
  const id = typeof r.id === 'number' || typeof r.id === 'bigint' ? Number(r.id) : 0;
  const anchor = anchorFor(str(r.message_id), id);
  const created_at = epochMs(r.created_timestamp) ?? sqlTime(r.timestamp);
  const tokens = typeof r.tokens === 'number' ? r.tokens : null;
  // Tool responses ride in user-role messages: a message of only responses is the tool's row.
  if (results.length > 0 && text.length === 0 && calls.length === 0) {
    const c = capped(results.map((x) => x.text).join('\n'), TEXT_CAP);
    return {
      anchor,
      role: 'tool',
      kind: results.some((x) => x.error) ? 'error' : 'tool_result',
      text: c.text,
      call_id: results[0]!.id,
      created_at,
      tokens,
      flags: c.truncated ? FLAG.truncated : 0,
      original_len: c.original_len,
    };
  }
  const body = text.join('\n') || notes.join('\n');
  const c = capped(body, MESSAGE_CAP);
  const role = str(r.role) === 'assistant' ? 'assistant' : 'user';
  // After a compaction the summary is shown to the agent only (userVisible false).
  const hidden = meta?.userVisible === false;
  const injected = role === 'user' && looksInjected(body);
  return {
    anchor,
    role: hidden || injected || (text.length === 0 && notes.length > 0) ? 'system' : role,
    kind: hidden
      ? 'summary'
      : injected
        ? 'injected'
        : text.length === 0 && notes.length > 0
          ? 'meta'
          : !body && calls.length > 0
            ? 'tool_call'
            : !body && reasoning.length > 0
              ? 'reasoning'
              : 'text',
    text: c.text,
    reasoning: reasoning.length > 0 ? reasoning.join('\n') : null,
    tool_calls: calls.length > 0 ? calls : null,
    created_at,
    tokens,
    flags: c.truncated ? FLAG.truncated : 0,
    original_len: c.original_len,
  };
}

export function readGoose(path: string, known: Record<string, string>, problems: Problems): DbRead {
  const { db, cleanup } = openWithoutTrace(path);
  try {
    db.pragma('query_only = ON');
    const s = columns(db, 'sessions');
    const m = columns(db, 'messages');
    if (!s.has('id') || !m.has('session_id') || !m.has('content_json')) {
      problems.add('not a Goose sessions.db (no sessions and messages tables)');
      return { sessions: [], marks: known };
    }
    return db.transaction(() => read(db, known, problems, s, m))();
  } finally {
    db.close();
    cleanup();
  }
}

function read(
  db: Database.Database,
  known: Record<string, string>,
  problems: Problems,
  s: Set<string>,
  m: Set<string>,
): DbRead {
  const col = (name: string, has: Set<string>) => (has.has(name) ? name : `NULL AS ${name}`);
  const rows = db
    .prepare(
      `SELECT s.id, ${col('name', s)}, ${col('description', s)}, ${col('user_set_name', s)},
         ${col('session_type', s)}, ${col('working_dir', s)}, ${col('created_at', s)},
         ${col('updated_at', s)}, ${col('provider_name', s)}, ${col('model_config_json', s)},
         (SELECT count(*) || ':' || ifnull(max(id), '') FROM messages WHERE session_id = s.id) AS mm
       FROM sessions s`,
    )
    .all() as Record<string, unknown>[];
  const msgs = db.prepare(
    `SELECT id, ${col('message_id', m)}, role, content_json, created_timestamp,
       ${col('timestamp', m)}, ${col('tokens', m)}, ${col('metadata_json', m)}
     FROM messages WHERE session_id = ? ORDER BY id`,
  );
  const marks: Record<string, string> = {};
  const sessions: DbRead['sessions'] = [];
  for (const r of rows) {
    const id = str(r.id);
    if (!id) continue;
    marks[id] = `${String(r.updated_at)}|${String(r.mm)}`;
    if (known[id] === marks[id]) continue;
    const model = obj(json(r.model_config_json));
    const type = str(r.session_type);
    const conv: ConvPatch = {
      native_id: id,
      cwd: str(r.working_dir),
      started_at: sqlTime(r.created_at),
      last_active_at: sqlTime(r.updated_at),
      model: str(model?.model_name),
      source: type && type !== 'user' ? type : null,
      extra: str(r.provider_name) ? { provider: r.provider_name } : undefined,
    };
    const name = str(r.name) ?? str(r.description);
    if (name)
      offerTitle(
        conv,
        name,
        Number(r.user_set_name) === 1 ? TITLE_RANK.user : TITLE_RANK.generated,
      );
    const messages: Msg[] = [];
    for (const row of msgs.all(id) as Record<string, unknown>[]) {
      const msg = toMsg(row, problems);
      if (!msg) continue;
      messages.push(msg);
      if (!conv.title && msg.role === 'user' && msg.kind === 'text')
        offerTitle(conv, msg.text, TITLE_RANK.firstPrompt);
    }
    sessions.push({ conv, messages });
  }
  return { sessions, marks };
}
