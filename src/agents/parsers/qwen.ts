/**
 * Qwen Code chats (AGENTS.md §9.1): one append-only JSONL file per session, one
 * `ChatRecord` per line (`chatRecordingService.ts`): `{uuid, parentUuid, sessionId,
 * timestamp, type, cwd, version, gitBranch?, message?, model?, usageMetadata?,
 * toolCallResult?}` with `message` a Gemini API `Content` (`{role, parts[]}`).
 * Every record has its own uuid, the anchor; nothing is rewritten in place.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { basename } from 'node:path';
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
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

/** The text, thoughts, calls and responses of a Gemini `Content`'s parts. */
export function geminiParts(content: unknown): {
  text: string;
  thought: string;
  calls: ToolCall[];
  responses: { id: string | null; name: string | null; text: string }[];
} {
  const parts = Array.isArray(obj(content)?.parts) ? (obj(content)!.parts as unknown[]) : [];
  const text: string[] = [];
  const thought: string[] = [];
  const calls: ToolCall[] = [];
  const responses: { id: string | null; name: string | null; text: string }[] = [];
  for (const raw of parts) {
    const p = obj(raw);
    if (!p) continue;
    if (typeof p.text === 'string') (p.thought === true ? thought : text).push(p.text);
    else if (obj(p.functionCall)) {
      const f = obj(p.functionCall)!;
      calls.push({
        id: str(f.id) ?? '',
        type: 'function',
        function: { name: str(f.name) ?? '', arguments: JSON.stringify(f.args ?? {}) },
      });
    } else if (obj(p.functionResponse)) {
      const f = obj(p.functionResponse)!;
      const r = obj(f.response);
      const out = r ? (r.output ?? r.error ?? r.content ?? r) : f.response;
      responses.push({
        id: str(f.id),
        name: str(f.name),
        text: typeof out === 'string' ? out : JSON.stringify(out ?? ''),
      });
    } else if (obj(p.inlineData)) {
      const d = obj(p.inlineData)!;
      text.push(placeholder('file', d.mimeType, d.data));
    } else if (obj(p.fileData)) text.push(`[file ${str(obj(p.fileData)!.fileUri) ?? ''}]`.trim());
  }
  return { text: text.join('\n'), thought: thought.join('\n'), calls, responses };
}

export function qwenParser(ctx: ParseContext): LineParser {
  const carry = ctx.carry ?? {};
  const conv: ConvPatch = {
    native_id: str(carry.id) ?? basename(ctx.path).replace(/\.jsonl$/, ''),
  };
  const messages: Msg[] = [];
  let titled = carry.titled === true;

  const touch = (t: number | null) => {
    if (t === null) return;
    if (conv.started_at == null || t < conv.started_at) conv.started_at = t;
    if (conv.last_active_at == null || t > conv.last_active_at) conv.last_active_at = t;
  };

  return {
    record(rec, lineNo) {
      const id = str(rec.sessionId);
      if (id) conv.native_id = id;
      const t = epochMs(rec.timestamp);
      touch(t);
      if (str(rec.cwd)) conv.cwd = str(rec.cwd);
      if (str(rec.gitBranch)) conv.git_branch = str(rec.gitBranch);
      if (str(rec.version)) conv.extra = { ...conv.extra, version: rec.version };
      const anchor = anchorFor(str(rec.uuid), lineNo);
      const type = str(rec.type);
      const base = { anchor, created_at: t, flags: 0 };
      if (type === 'user' || type === 'assistant') {
        const p = geminiParts(rec.message);
        const c = capped(p.text, MESSAGE_CAP);
        const injected = type === 'user' && looksInjected(p.text);
        const m: Msg = {
          ...base,
          role: injected ? 'system' : type,
          kind: injected
            ? 'injected'
            : type === 'assistant' && !p.text && p.calls.length > 0
              ? 'tool_call'
              : type === 'assistant' && !p.text && p.thought
                ? 'reasoning'
                : 'text',
          text: c.text,
          reasoning: p.thought || null,
          tool_calls: p.calls.length > 0 ? p.calls : null,
          model: str(rec.model),
          tokens:
            typeof obj(rec.usageMetadata)?.output === 'number'
              ? (obj(rec.usageMetadata)!.output as number)
              : null,
          flags: c.truncated ? FLAG.truncated : 0,
          original_len: c.original_len,
        };
        if (m.model) conv.model = m.model;
        messages.push(m);
        if (type === 'user' && !injected && !titled && p.text.trim()) {
          offerTitle(conv, p.text, TITLE_RANK.firstPrompt);
          titled = true;
        }
      } else if (type === 'tool_result') {
        const p = geminiParts(rec.message);
        const result = obj(rec.toolCallResult);
        const text =
          p.responses.map((r) => r.text).join('\n') ||
          (typeof result?.resultDisplay === 'string' ? result.resultDisplay : '');
        const c = capped(text, TEXT_CAP);
        messages.push({
          ...base,
          role: 'tool',
          kind: result?.error ? 'error' : 'tool_result',
          text: c.text,
          tool_name: p.responses[0]?.name ?? null,
          call_id: p.responses[0]?.id ?? str(result?.callId),
          flags: c.truncated ? FLAG.truncated : 0,
          original_len: c.original_len,
        });
      } else if (type === 'system') {
        // Newer Qwen Code writes `system` records with a `subtype` (chat compression, slash
        // commands, telemetry): bookkeeping, kept out of default results (rule 7).
        const subtype = str(rec.subtype) ?? 'system';
        const payload = obj(rec.systemPayload);
        if (typeof payload?.title === 'string') offerTitle(conv, payload.title, TITLE_RANK.user);
        const info = obj(payload?.info);
        const summary =
          subtype === 'chat_compression' && typeof info?.originalTokenCount === 'number'
            ? `${String(info.originalTokenCount)} → ${String(info.newTokenCount)} tokens`
            : (str(payload?.summary) ?? str(payload?.rawCommand) ?? '');
        const c = capped(summary ? `${subtype}: ${summary}` : subtype, TEXT_CAP);
        messages.push({
          ...base,
          role: 'system',
          kind: subtype === 'chat_compression' ? 'summary' : 'meta',
          text: c.text,
          flags:
            (subtype === 'chat_compression' ? FLAG.compactBoundary : 0) |
            (c.truncated ? FLAG.truncated : 0),
          original_len: c.original_len,
        });
      }
      // Unknown record types are skipped (rule 5).
    },
    finish(): ParseResult {
      return {
        // The recorder creates the file empty before the first message: no conversation yet.
        conv: ctx.carry === null && messages.length === 0 ? null : conv,
        messages,
        carry: { id: conv.native_id, titled },
        needsFull: false,
      };
    },
  };
}
