/**
 * GitHub Copilot CLI sessions (AGENTS.md §9.3): `session-state/<id>/events.jsonl`,
 * one session event per line in the shape github/copilot-sdk generates
 * (`session-events.ts`): `{id, parentId, timestamp, type, data, agentId?}`. The
 * event `id` (a UUID) is the anchor. Ephemeral events (deltas, a rewind) are never
 * written; a rewind removes the events after its target from the file, which then
 * shrinks and is parsed again from the start.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { basename, dirname } from 'node:path';
import {
  FLAG,
  TITLE_RANK,
  anchorFor,
  capped,
  epochMs,
  looksInjected,
  obj,
  str,
  type ConvPatch,
  type Msg,
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

/** The session id from the path: `<id>/events.jsonl`, or an older `<id>.jsonl`. */
function fileSession(path: string): string {
  const name = basename(path);
  return name === 'events.jsonl' ? basename(dirname(path)) : name.replace(/\.jsonl$/, '');
}

export function copilotParser(ctx: ParseContext): LineParser {
  const carry = ctx.carry ?? {};
  const conv: ConvPatch = { native_id: str(carry.id) ?? fileSession(ctx.path) };
  const messages: Msg[] = [];
  let titled = carry.titled === true;
  const toolNames = new Map<string, string>();

  const touch = (t: number | null) => {
    if (t === null) return;
    if (conv.started_at == null || t < conv.started_at) conv.started_at = t;
    if (conv.last_active_at == null || t > conv.last_active_at) conv.last_active_at = t;
  };

  const context = (c: Record<string, unknown> | null) => {
    if (!c) return;
    if (str(c.cwd)) conv.cwd = str(c.cwd);
    if (str(c.branch)) conv.git_branch = str(c.branch);
    if (str(c.repository)) conv.extra = { ...conv.extra, repository: c.repository };
  };

  return {
    record(ev, lineNo) {
      if (ev.ephemeral === true) return;
      const type = str(ev.type);
      const data = obj(ev.data) ?? {};
      const t = epochMs(ev.timestamp);
      touch(t);
      const anchor = anchorFor(str(ev.id), lineNo);
      // A sub-agent's events carry its agentId (or, older, the parent tool call's id).
      const side = str(ev.agentId) || str(data.parentToolCallId) ? FLAG.sidechain : 0;
      const push = (
        m: Omit<Msg, 'anchor' | 'created_at' | 'original_len' | 'flags'>,
        cap: number,
      ) => {
        const c = capped(m.text, cap);
        messages.push({
          ...m,
          anchor,
          text: c.text,
          created_at: t,
          flags: side | (c.truncated ? FLAG.truncated : 0),
          original_len: c.original_len,
        });
      };
      switch (type) {
        case 'session.start':
        case 'session.resume': {
          if (type === 'session.start' && str(data.sessionId))
            conv.native_id = str(data.sessionId)!;
          context(obj(data.context));
          if (str(data.selectedModel)) conv.model = str(data.selectedModel);
          if (str(data.copilotVersion))
            conv.extra = { ...conv.extra, version: data.copilotVersion };
          const at = epochMs(data.startTime);
          if (at !== null) touch(at);
          if (str(data.detachedFromSpawningParentSessionId)) {
            conv.parent_native_id = str(data.detachedFromSpawningParentSessionId);
            conv.parent_kind = 'child';
          }
          break;
        }
        case 'session.context_changed':
          context(data);
          break;
        case 'session.title_changed':
          if (typeof data.title === 'string') offerTitle(conv, data.title, TITLE_RANK.generated);
          break;
        case 'session.model_change':
          if (str(data.newModel)) conv.model = str(data.newModel);
          break;
        case 'user.message': {
          const text = typeof data.content === 'string' ? data.content : '';
          // `source` marks injected turns (a skill's hidden prompt, another agent's message).
          const injected =
            Boolean(str(data.source)) ||
            data.isAutopilotContinuation === true ||
            looksInjected(text);
          push(
            { role: injected ? 'system' : 'user', kind: injected ? 'injected' : 'text', text },
            MESSAGE_CAP,
          );
          if (!injected && !side && !titled && text.trim()) {
            offerTitle(conv, text, TITLE_RANK.firstPrompt);
            titled = true;
          }
          break;
        }
        case 'assistant.message': {
          const text = typeof data.content === 'string' ? data.content : '';
          const calls: ToolCall[] = [];
          if (Array.isArray(data.toolRequests))
            for (const raw of data.toolRequests) {
              const r = obj(raw);
              if (!r) continue;
              const id = str(r.toolCallId) ?? '';
              const name = str(r.name) ?? '';
              if (id) toolNames.set(id, name);
              calls.push({
                id,
                type: 'function',
                function: {
                  name,
                  arguments:
                    typeof r.arguments === 'string'
                      ? r.arguments
                      : JSON.stringify(r.arguments ?? {}),
                },
              });
            }
          const model = str(data.model);
          if (model) conv.model = model;
          push(
            {
              role: 'assistant',
              kind: text ? 'text' : calls.length > 0 ? 'tool_call' : 'reasoning',
              text,
              reasoning: str(data.reasoningText),
              tool_calls: calls.length > 0 ? calls : null,
              model,
              tokens: typeof data.outputTokens === 'number' ? data.outputTokens : null,
            },
            MESSAGE_CAP,
          );
          break;
        }
        case 'assistant.reasoning':
          if (typeof data.content === 'string' && data.content)
            push(
              { role: 'assistant', kind: 'reasoning', text: '', reasoning: data.content },
              MESSAGE_CAP,
            );
          break;
        case 'tool.execution_start':
          if (str(data.toolCallId) && str(data.toolName))
            toolNames.set(str(data.toolCallId)!, str(data.toolName)!);
          break;
        case 'tool.execution_complete': {
          const id = str(data.toolCallId);
          const result = obj(data.result);
          const error = obj(data.error);
          const text =
            (typeof result?.content === 'string' ? result.content : '') ||
            str(error?.message) ||
            '';
          push(
            {
              role: 'tool',
              kind: data.success === false ? 'error' : 'tool_result',
              text,
              call_id: id,
              tool_name: id ? (toolNames.get(id) ?? null) : null,
            },
            TEXT_CAP,
          );
          break;
        }
        case 'session.error':
          push(
            {
              role: 'system',
              kind: 'error',
              text: str(data.message) ?? str(data.errorType) ?? 'error',
            },
            TEXT_CAP,
          );
          break;
        case 'session.compaction_complete':
          push(
            {
              role: 'system',
              kind: 'summary',
              text: `conversation compacted${typeof data.messagesRemoved === 'number' ? `: ${data.messagesRemoved} messages removed` : ''}`,
            },
            TEXT_CAP,
          );
          messages[messages.length - 1]!.flags |= FLAG.compactBoundary;
          break;
        default:
        // Deltas, usage, telemetry and unknown events are not transcript (rule 5).
      }
    },
    finish(): ParseResult {
      return {
        // A session that was started and left without a message is no conversation.
        conv: ctx.carry === null && messages.length === 0 ? null : conv,
        messages,
        carry: { id: conv.native_id, titled },
        needsFull: false,
      };
    },
  };
}
