/**
 * Cline, Roo Code and Kilo Code (AGENTS.md §9.8): one VS Code extension family,
 * one task folder each, `<globalStorage>/<extension id>/tasks/<task id>/`.
 * `api_conversation_history.json` is the conversation as sent to the model: a JSON
 * array of Anthropic messages (`{role, content: string | blocks[], ts?}`), or Roo's
 * `{version: 2, messages}` of AI SDK messages (`tool-call`, `tool-result` parts, a
 * `tool` role), rewritten whole after every message, so every change is a full parse. Read beside it:
 * `history_item.json` (Roo, Kilo: `{id, ts, task, workspace, mode, parentTaskId}`)
 * and `task_metadata.json` (`model_usage[{model_id}]`). One reader, three slugs.
 */
import { basename, dirname, join } from 'node:path';
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import {
  FLAG,
  TITLE_RANK,
  capped,
  epochMs,
  obj,
  placeholder,
  str,
  type ConvPatch,
  type Msg,
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import { smallJson } from './sideJson.js';
import type { ParseContext, ParseResult } from './types.js';

/** The folder the extension names in its injected environment details (Cline "Working", Roo "Workspace"). */
const CWD = /# Current (?:Working|Workspace) Directory \((.+?)\) Files/;
/** The person's words, wrapped by the extension: the first prompt, feedback, an answer. */
const WRAPPED = /^<(task|feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>$/;
/** A tool's output given back as text (older prompts): `[read_file for 'x'] Result:`. */
const TOOL_TEXT = /^\[([\w-]+)(?: for [^\]]*)?\] Result:/;

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => {
      const o = obj(b);
      if (o?.type === 'text' && typeof o.text === 'string') return o.text;
      if (o?.type === 'image')
        return placeholder('image', obj(o.source)?.media_type, obj(o.source)?.data);
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

/** One API message as rows: the words, the injected details, tool output, tool calls. */
function rows(m: Record<string, unknown>, anchor: string, at: number | null): Msg[] {
  // A v2 `tool` message holds only tool results: they become tool rows below.
  const role =
    m.role === 'assistant' ? 'assistant' : m.role === 'user' || m.role === 'tool' ? 'user' : null;
  if (!role) return [];
  const blocks: Record<string, unknown>[] =
    typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : Array.isArray(m.content)
        ? m.content.flatMap((b) => (obj(b) ? [obj(b)!] : []))
        : [];
  const words: string[] = [];
  const injected: string[] = [];
  const tools: { text: string; name: string | null; call: string | null; error: boolean }[] = [];
  const calls: ToolCall[] = [];
  const thinking: string[] = [];
  let openTool: (typeof tools)[number] | null = null;
  for (const b of blocks) {
    if (b.type === 'text' && typeof b.text === 'string') {
      const t = b.text.trim();
      const wrapped = WRAPPED.exec(t);
      if (t.startsWith('<environment_details>')) injected.push(t);
      else if (role === 'user' && TOOL_TEXT.test(t)) {
        tools.push({ text: t, name: TOOL_TEXT.exec(t)![1]!, call: null, error: false });
        openTool = tools[tools.length - 1]!;
      } else if (openTool && !wrapped)
        openTool.text += `\n${t}`; // the output under its header
      else {
        openTool = null;
        words.push(wrapped?.[2] ?? t);
      }
    } else if (b.type === 'image')
      words.push(placeholder('image', obj(b.source)?.media_type, obj(b.source)?.data));
    else if (b.type === 'tool_use')
      calls.push({
        id: str(b.id) ?? '',
        type: 'function',
        function: { name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) },
      });
    else if (b.type === 'tool_result')
      tools.push({
        text: resultText(b.content),
        name: null,
        call: str(b.tool_use_id),
        error: b.is_error === true,
      });
    else if (b.type === 'tool-call')
      calls.push({
        id: str(b.toolCallId) ?? '',
        type: 'function',
        function: { name: str(b.toolName) ?? '', arguments: JSON.stringify(b.input ?? {}) },
      });
    else if (b.type === 'tool-result') {
      const out = obj(b.output);
      const v = out ? out.value : b.output;
      tools.push({
        text: typeof v === 'string' ? v : resultText(v) || JSON.stringify(v ?? ''),
        name: str(b.toolName),
        call: str(b.toolCallId),
        error: typeof out?.type === 'string' && out.type.startsWith('error'),
      });
    } else if (b.type === 'thinking' && typeof b.thinking === 'string') thinking.push(b.thinking);
    else if (b.type === 'reasoning' && typeof b.text === 'string') thinking.push(b.text);
  }
  const out: Msg[] = [];
  const text = words.join('\n');
  if (text.trim() || calls.length > 0 || thinking.length > 0) {
    const c = capped(text, MESSAGE_CAP);
    const summary = m.isSummary === true;
    out.push({
      anchor,
      role,
      kind: summary
        ? 'summary'
        : text.trim()
          ? 'text'
          : calls.length > 0
            ? 'tool_call'
            : 'reasoning',
      text: c.text,
      reasoning: thinking.length > 0 ? thinking.join('\n') : null,
      tool_calls: calls.length > 0 ? calls : null,
      created_at: at,
      flags: (summary ? FLAG.compactBoundary : 0) | (c.truncated ? FLAG.truncated : 0),
      original_len: c.original_len,
    });
  }
  tools.forEach((t, i) => {
    const c = capped(t.text, TEXT_CAP);
    out.push({
      anchor: `${anchor}.tool${i}`,
      role: 'tool',
      kind: t.error ? 'error' : 'tool_result',
      text: c.text,
      tool_name: t.name,
      call_id: t.call,
      created_at: at,
      flags: c.truncated ? FLAG.truncated : 0,
      original_len: c.original_len,
    });
  });
  if (injected.length > 0) {
    const c = capped(injected.join('\n'), TEXT_CAP);
    out.push({
      anchor: `${anchor}.env`,
      role: 'system',
      kind: 'injected',
      text: c.text,
      created_at: at,
      flags: c.truncated ? FLAG.truncated : 0,
      original_len: c.original_len,
    });
  }
  return out;
}

/** A task's `api_conversation_history.json`, with the task folder's other files. */
export function clineParse(ctx: ParseContext, file: unknown): ParseResult {
  // Roo Code's versioned envelope (rooMessage.ts ROO_MESSAGE_VERSION 2): AI SDK messages.
  const envelope = obj(file);
  const doc = envelope && Array.isArray(envelope.messages) ? envelope.messages : file;
  if (!Array.isArray(doc)) {
    ctx.problems.add('api_conversation_history.json is not a list');
    return { conv: null, messages: [], carry: {}, needsFull: false };
  }
  const dir = dirname(ctx.path);
  const conv: ConvPatch = { native_id: basename(dir) };
  const item = smallJson(join(dir, 'history_item.json'));
  const meta = smallJson(join(dir, 'task_metadata.json'));
  const messages: Msg[] = [];
  const seen = new Set<string>();
  doc.forEach((raw, i) => {
    const m = obj(raw);
    if (!m) return;
    const ts = typeof m.ts === 'number' ? m.ts : null;
    // The message's time is its anchor (stable when the extension drops later turns); else its position.
    const anchor = ts !== null && !seen.has(String(ts)) ? String(ts) : `i${i}`;
    seen.add(anchor);
    messages.push(...rows(m, anchor, epochMs(ts)));
  });
  for (const m of messages) {
    if (!conv.cwd && m.kind === 'injected') conv.cwd = CWD.exec(m.text)?.[1] ?? null;
    if (m.role === 'user' && m.kind === 'text' && !conv.title)
      offerTitle(conv, m.text, TITLE_RANK.firstPrompt);
  }
  const times = messages.map((m) => m.created_at).filter((t): t is number => t !== null);
  conv.started_at = times.length > 0 ? Math.min(...times) : null;
  conv.last_active_at = times.length > 0 ? Math.max(...times) : null;
  if (item) {
    const ws = str(item.workspace);
    if (ws) conv.cwd = ws;
    if (str(item.parentTaskId)) {
      conv.parent_native_id = str(item.parentTaskId);
      conv.parent_kind = 'subagent';
    }
    conv.started_at = conv.started_at ?? epochMs(item.ts);
    if (str(item.mode)) conv.extra = { mode: item.mode };
  }
  const usage = Array.isArray(meta?.model_usage) ? (meta.model_usage as unknown[]) : [];
  const last = obj(usage[usage.length - 1]);
  if (last && str(last.model_id)) conv.model = str(last.model_id);
  return { conv: messages.length > 0 ? conv : null, messages, carry: {}, needsFull: false };
}
