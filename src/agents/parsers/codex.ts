/**
 * Codex CLI rollouts (AGENTS.md §2): `{timestamp, type, payload}` per line. Items
 * have no persisted id, so a message is anchored on its line number (or the
 * `ordinal` paginated threads write), which an append-only file never changes.
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
  type Role,
} from '../model.js';
import { offerTitle } from './claude.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
/**
 * A fork starts with a copy of its parent's lines, written when the fork is made.
 * Lines after a foreign `session_meta` and within this long of the fork's own start
 * are that copy (a heuristic: the copy carries no marker of its end).
 */
const FORK_COPY_MS = 2000;

const QUIET_ITEMS = new Set([
  'web_search_call',
  'tool_search_call',
  'tool_search_output',
  'image_generation_call',
  'agent_message',
  'compaction',
  'context_compaction',
]);

export function codexFileId(path: string): string | null {
  return UUID.exec(basename(path))?.[1]?.toLowerCase() ?? null;
}

const UUIDS = new RegExp(UUID.source, 'gi');

/**
 * The rollout id of one physical file (AGENTS.md §8.1): a paginated thread's
 * later segment is `rollout-<time>-<thread>_<rollout>.jsonl`; the first segment's
 * rollout id is the thread id itself.
 */
export function codexRolloutId(path: string): string | null {
  const ids = basename(path).match(UUIDS) ?? [];
  return ids[1]?.toLowerCase() ?? ids[0]?.toLowerCase() ?? null;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const c of content) {
    const o = obj(c);
    if (!o) continue;
    if (typeof o.text === 'string') out.push(o.text);
    else if (o.type === 'input_image') out.push(placeholder('image', null, o.image_url));
  }
  return out.join('\n');
}

export function codexParser(ctx: ParseContext): LineParser {
  const fileId = codexFileId(ctx.path);
  const carry = ctx.carry ?? {};
  const incremental = ctx.carry !== null;
  const conv: ConvPatch = { native_id: str(carry.id) ?? fileId ?? basename(ctx.path) };
  const messages: Msg[] = [];
  let own = carry.own === true;
  let ownStart = typeof carry.ownStart === 'number' ? carry.ownStart : null;
  let forked = carry.forked === true;
  let copying = carry.copying === true;
  let titled = carry.titled === true;
  let lastUser = str(carry.lastUser);
  let lastUserFrom = str(carry.lastUserFrom);
  let lastAssistant = str(carry.lastAssistant);
  let needsFull = false;
  // The physical file being read (a thread can span several: §8.1) and the last
  // ordinal seen in it (Codex can write one twice after a crash).
  let rollout = str(carry.rollout) ?? codexRolloutId(ctx.path);
  let segment = rollout !== null && fileId !== null && rollout !== fileId;
  let lastOrd = typeof carry.lastOrd === 'number' ? carry.lastOrd : -1;
  // Where each emitted row came from, for a later segment's revert (history_base).
  const origin: { rollout: string | null; ord: number }[] = [];

  const touch = (t: number | null) => {
    if (t === null) return;
    if (conv.started_at == null || t < conv.started_at) conv.started_at = t;
    if (conv.last_active_at == null || t > conv.last_active_at) conv.last_active_at = t;
  };
  const emit = (
    lineNo: number,
    rec: Record<string, unknown>,
    role: Role,
    kind: Msg['kind'],
    text: string,
    cap = MESSAGE_CAP,
  ): Msg => {
    const c = capped(text, cap);
    const ord = typeof rec.ordinal === 'number' ? rec.ordinal : lineNo;
    // A later segment's ordinals continue (or, after a revert, reuse) the thread's:
    // its anchors name the rollout; a duplicate ordinal gets its line as tie-breaker.
    let anchor = anchorFor(null, ord);
    if (segment) anchor = `${anchor}@${rollout}`;
    if (rec.__dup === true) anchor = `${anchor}~${lineNo}`;
    origin.push({ rollout, ord });
    const m: Msg = {
      anchor,
      role,
      kind,
      text: c.text,
      created_at: epochMs(rec.timestamp),
      flags: (c.truncated ? FLAG.truncated : 0) | (copying ? FLAG.copied : 0),
      original_len: c.original_len,
    };
    messages.push(m);
    return m;
  };
  const userText = (lineNo: number, rec: Record<string, unknown>, text: string, from: string) => {
    // Rollouts of early 2026 hold each prompt twice (event_msg and response_item): keep one.
    if (lastUser === text && lastUserFrom !== from) {
      lastUserFrom = null;
      return;
    }
    lastUser = text;
    lastUserFrom = from;
    emit(lineNo, rec, 'user', 'text', text);
    if (!titled && !copying) {
      titled = true;
      offerTitle(conv, text, TITLE_RANK.firstPrompt);
    }
  };

  return {
    beginFile(path) {
      rollout = codexRolloutId(path);
      segment = rollout !== null && fileId !== null && rollout !== fileId;
      lastOrd = -1;
    },
    record(rec, lineNo) {
      if (typeof rec.ordinal === 'number') {
        if (rec.ordinal <= lastOrd) rec.__dup = true;
        else lastOrd = rec.ordinal;
      }
      const type = rec.type;
      const p = obj(rec.payload) ?? {};
      const t = epochMs(rec.timestamp);
      if (type === 'session_meta') {
        const id = str(p.id);
        if (!own && (id === fileId || fileId === null)) {
          own = true;
          if (id) conv.native_id = id;
          ownStart = t;
          const parent = str(p.forked_from_id) ?? str(p.parent_thread_id);
          if (parent) {
            forked = true;
            conv.parent_native_id = parent;
            conv.parent_kind = str(p.parent_thread_id) ? 'subagent' : 'fork';
          }
          conv.cwd = str(p.cwd);
          conv.source = typeof p.source === 'string' ? p.source : p.source ? 'subagent' : null;
          const git = obj(p.git);
          if (git) conv.git_branch = str(git.branch);
          conv.extra = {
            cli_version: p.cli_version,
            originator: p.originator,
            model_provider: p.model_provider,
            repository_url: git?.repository_url,
            commit: git?.commit_hash,
          };
          touch(t);
        } else if (own && id === conv.native_id) {
          // The next segment of this thread (§8.1). A revert's base ends before the
          // predecessor's end: its records at or past that ordinal were taken back.
          const base = obj(p.history_base);
          const from = str(base?.thread_id)?.toLowerCase() ?? null;
          const end = base?.end_ordinal_exclusive;
          if (from !== null && typeof end === 'number')
            for (let i = 0; i < messages.length; i++) {
              const o = origin[i]!;
              if (o.rollout === from && o.ord >= end) messages[i]!.flags |= FLAG.rewound;
            }
          if (str(p.cwd)) conv.cwd = str(p.cwd);
          touch(t);
        } else if (forked && id !== conv.native_id) copying = true;
        return;
      }
      if (copying && (ownStart === null || t === null || t > ownStart + FORK_COPY_MS))
        copying = false;
      if (!copying) touch(t);
      switch (type) {
        case 'turn_context':
          if (!copying && typeof p.model === 'string') conv.model = p.model;
          return;
        case 'response_item':
          return item(lineNo, rec, p);
        case 'event_msg':
          return event(lineNo, rec, p);
        case 'compacted': {
          const m = emit(lineNo, rec, 'system', 'summary', String(p.message ?? ''));
          m.flags |= FLAG.compactBoundary;
          return;
        }
        case 'inter_agent_communication':
        case 'world_state': {
          const text =
            typeof p.message === 'string' ? p.message : JSON.stringify(p).slice(0, TEXT_CAP);
          emit(lineNo, rec, 'system', 'injected', text, TEXT_CAP);
          return;
        }
        default:
          ctx.problems.add(`unknown record type "${String(type).slice(0, 40)}"`);
      }
    },
    finish(): ParseResult {
      return {
        conv: own || !incremental ? conv : conv,
        messages,
        carry: {
          id: conv.native_id,
          own,
          ownStart,
          forked,
          copying,
          titled,
          lastUser,
          lastUserFrom,
          lastAssistant,
          rollout,
          lastOrd,
        },
        needsFull,
      };
    },
  };

  function item(lineNo: number, rec: Record<string, unknown>, p: Record<string, unknown>): void {
    switch (p.type) {
      case 'message': {
        const text = contentText(p.content);
        if (!text.trim()) return;
        if (p.role === 'user') {
          if (looksInjected(text)) emit(lineNo, rec, 'system', 'injected', text);
          else userText(lineNo, rec, text, 'item');
        } else if (p.role === 'assistant') {
          if (lastAssistant === text) return;
          lastAssistant = text;
          emit(lineNo, rec, 'assistant', 'text', text);
        } else emit(lineNo, rec, 'system', 'injected', text);
        return;
      }
      case 'reasoning': {
        const parts = Array.isArray(p.summary) ? p.summary : [];
        const text = parts
          .map((s) => String(obj(s)?.text ?? ''))
          .filter(Boolean)
          .join('\n');
        if (!text) return;
        const m = emit(lineNo, rec, 'assistant', 'reasoning', '');
        m.reasoning = text.slice(0, MESSAGE_CAP);
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const name = str(p.name) ?? (p.type === 'local_shell_call' ? 'local_shell' : 'tool');
        const args =
          typeof p.arguments === 'string'
            ? p.arguments
            : typeof p.input === 'string'
              ? p.input
              : JSON.stringify(p.action ?? p.input ?? {});
        const m = emit(lineNo, rec, 'assistant', 'tool_call', '');
        m.tool_calls = [
          {
            id: String(p.call_id ?? ''),
            type: 'function',
            function: { name, arguments: args.slice(0, TEXT_CAP) },
          },
        ];
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const out = typeof p.output === 'string' ? p.output : contentText(p.output);
        const m = emit(lineNo, rec, 'tool', 'tool_result', out, TEXT_CAP);
        m.call_id = str(p.call_id);
        return;
      }
      default:
        if (typeof p.type === 'string' && QUIET_ITEMS.has(p.type)) {
          if (p.type === 'compaction' || p.type === 'context_compaction') {
            const m = emit(lineNo, rec, 'system', 'meta', 'Context compacted');
            m.flags |= FLAG.compactBoundary;
          }
          return;
        }
        ctx.problems.add(`unknown response item "${String(p.type).slice(0, 40)}"`);
    }
  }

  function event(lineNo: number, rec: Record<string, unknown>, p: Record<string, unknown>): void {
    switch (p.type) {
      case 'user_message': {
        const text = typeof p.message === 'string' ? p.message : '';
        if (text.trim()) userText(lineNo, rec, text, 'event');
        return;
      }
      case 'agent_message': {
        const text = typeof p.message === 'string' ? p.message : '';
        if (!text.trim() || lastAssistant === text) return;
        lastAssistant = text;
        emit(lineNo, rec, 'assistant', 'text', text);
        return;
      }
      case 'thread_rolled_back': {
        // Earlier rows leave the model's context: flag them, which a resumed pass cannot do.
        if (incremental) {
          needsFull = true;
          return;
        }
        let turns = Number(p.num_turns ?? 0);
        for (let i = messages.length - 1; i >= 0 && turns > 0; i--) {
          const m = messages[i]!;
          m.flags |= FLAG.rewound;
          if (m.role === 'user' && m.kind === 'text') turns--;
        }
        return;
      }
      case 'context_compacted': {
        const m = emit(lineNo, rec, 'system', 'meta', 'Context compacted');
        m.flags |= FLAG.compactBoundary;
        return;
      }
      default:
        // token_count, turn and task markers, tool ends, review mode: bookkeeping; the set is open.
        return;
    }
  }
}
