/**
 * PraisonAI sessions (AGENTS.md §5): one JSON document per session, rewritten
 * whole (temp file + rename) on every message, so every change is a full parse.
 * Anchors are ordinals over `archived_messages ++ messages`, skipping the synthetic
 * compaction summary, so a compaction moving turns to the archive keeps them.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import {
  FLAG,
  TITLE_RANK,
  anchorFor,
  capped,
  epochMs,
  obj,
  str,
  type ConvPatch,
  type Msg,
  type Role,
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import type { ParseContext, ParseResult } from './types.js';

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

export function praisonaiParse(ctx: ParseContext, doc: Record<string, unknown>): ParseResult {
  const id = str(doc.session_id);
  if (!id) {
    ctx.problems.add('session file without session_id');
    return { conv: null, messages: [], carry: {}, needsFull: false };
  }
  const meta = obj(doc.metadata) ?? {};
  const conv: ConvPatch = {
    native_id: id,
    started_at: epochMs(doc.created_at),
    last_active_at: epochMs(doc.updated_at),
    model: str(meta.model) ?? str(doc.model) ?? str(doc.llm),
    source: str(meta.source) ?? str(doc.source),
    extra: {
      agent_name: doc.agent_name,
      user_id: doc.user_id,
      gateway_session_id: doc.gateway_session_id,
    },
  };
  if (typeof meta.title === 'string') offerTitle(conv, meta.title, TITLE_RANK.user);
  const archived = Array.isArray(doc.archived_messages) ? doc.archived_messages : [];
  const active = Array.isArray(doc.messages) ? doc.messages : [];
  const compaction = obj(doc.last_compaction);
  const summaryIndex =
    typeof compaction?.message_index === 'number' ? compaction.message_index : -1;
  const messages: Msg[] = [];
  let ordinal = 0;
  const add = (raw: unknown) => {
    const o = obj(raw);
    if (!o) return;
    const role = typeof o.role === 'string' && ROLES.has(o.role) ? (o.role as Role) : 'system';
    const text =
      typeof o.content === 'string'
        ? o.content
        : o.content == null
          ? ''
          : JSON.stringify(o.content);
    const c = capped(text, role === 'tool' ? TEXT_CAP : MESSAGE_CAP);
    const m: Msg = {
      anchor: anchorFor(null, ordinal++),
      role,
      kind: role === 'tool' ? 'tool_result' : role === 'system' ? 'meta' : 'text',
      text: c.text,
      created_at: epochMs(o.timestamp),
      flags: c.truncated ? FLAG.truncated : 0,
      original_len: c.original_len,
    };
    if (Array.isArray(o.tool_calls)) {
      m.tool_calls = o.tool_calls.map((tc): ToolCall => {
        const t = obj(tc) ?? {};
        const fn = obj(t.function) ?? {};
        return {
          id: String(t.id ?? ''),
          type: 'function',
          function: { name: String(fn.name ?? ''), arguments: String(fn.arguments ?? '') },
        };
      });
      if (!text) m.kind = 'tool_call';
    }
    if (typeof o.tool_call_id === 'string') m.call_id = o.tool_call_id;
    messages.push(m);
    if (role === 'user' && !conv.title && text.trim())
      offerTitle(conv, text, TITLE_RANK.firstPrompt);
  };
  for (const m of archived) add(m);
  active.forEach((m, i) => {
    // The synthetic summary standing in for archived turns is not a turn of its own.
    if (i === summaryIndex && obj(m)?.role === compaction?.role) return;
    add(m);
  });
  return { conv, messages, carry: {}, needsFull: false };
}
