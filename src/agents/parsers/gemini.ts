/**
 * Gemini CLI chats (AGENTS.md §3): a JSONL event log. Message records are upserts
 * by `id` (tool results and tokens arrive by re-writing the message), `$set` merges
 * into the header, `$rewindTo` flags a message and everything after it, `$patch`
 * edits messages by id (updates merged, removals flagged `rewound`, `orderIds`
 * reordering). Legacy `.json` chats are one whole document with the same messages.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
  type ToolCall,
} from '../model.js';
import { offerTitle } from './claude.js';
import type { LineParser, ParseContext, ParseResult } from './types.js';

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const p of content) {
    const o = obj(p);
    if (!o) continue;
    if (typeof o.text === 'string') out.push(o.text);
    else if (o.inlineData) {
      const d = obj(o.inlineData);
      out.push(placeholder('file', d?.mimeType, d?.data));
    }
  }
  return out.join('\n');
}

/** The project directory a chat belongs to, from `tmp/<id>/.project_root`. */
function projectRoot(path: string): string | null {
  // …/tmp/<id>/chats/session-….jsonl or …/tmp/<id>/chats/<parent>/<id>.jsonl
  let dir = dirname(path);
  if (basename(dir) !== 'chats') dir = dirname(dir);
  try {
    const root = readFileSync(join(dirname(dir), '.project_root'), 'utf8').trim();
    return root || null;
  } catch {
    return null;
  }
}

/** A subagent chat lives in `chats/<parentSessionId>/<sessionId>.jsonl`. */
function parentFromPath(path: string): string | null {
  const dir = dirname(path);
  return basename(dir) === 'chats' ? null : basename(dir);
}

/** A legacy `.json` chat with a same-named `.jsonl` beside it is the same session: read the `.jsonl`. */
export function geminiLegacyShadowed(path: string): boolean {
  return path.endsWith('.json') && existsSync(`${path}l`);
}

export function geminiParser(ctx: ParseContext): LineParser {
  const carry = ctx.carry ?? {};
  const incremental = ctx.carry !== null;
  const conv: ConvPatch = { native_id: str(carry.id) ?? '' };
  // Upserts within this pass: id → row (insertion order is first appearance).
  const rows = new Map<string, Msg[]>();
  // The last full record per id, so a `$patch` update can merge into it.
  const raw = new Map<string, Record<string, unknown>>();
  let needsFull = false;
  let titled = carry.titled === true;
  let contextCwd = str(carry.cwd);

  const header = (h: Record<string, unknown>) => {
    if (typeof h.sessionId === 'string') conv.native_id = h.sessionId;
    const start = epochMs(h.startTime);
    const last = epochMs(h.lastUpdated);
    if (start !== null) conv.started_at = start;
    if (last !== null) conv.last_active_at = last;
    if (typeof h.summary === 'string') offerTitle(conv, h.summary, TITLE_RANK.generated);
    if (h.kind === 'subagent' || parentFromPath(ctx.path)) {
      conv.parent_kind = 'subagent';
      conv.parent_native_id = parentFromPath(ctx.path);
    }
    if (typeof h.projectHash === 'string') conv.extra = { project_hash: h.projectHash };
  };

  const upsert = (r: Record<string, unknown>) => {
    const id = String(r.id);
    raw.set(id, r);
    const t = epochMs(r.timestamp);
    const out: Msg[] = [];
    const base = (
      anchor: string,
      role: Msg['role'],
      kind: Msg['kind'],
      text: string,
      cap: number,
    ): Msg => {
      const c = capped(text, cap);
      const m: Msg = {
        anchor,
        role,
        kind,
        text: c.text,
        created_at: t,
        flags: c.truncated ? FLAG.truncated : 0,
        original_len: c.original_len,
      };
      out.push(m);
      return m;
    };
    const text = partsText(r.content);
    switch (r.type) {
      case 'user': {
        // Gemini CLI 0.58 opens a chat with an injected `<session_context>` (date, OS,
        // directory tree): not the person's words (§8.3). It names the directory.
        if (looksInjected(text)) {
          base(id, 'system', 'injected', text, TEXT_CAP);
          const dir = /working in the directory:\s*(\S[^\n]*?)\s*$/m.exec(text)?.[1];
          if (dir && !contextCwd) contextCwd = dir.replace(/[.`'"]+$/, '');
          break;
        }
        base(id, 'user', 'text', text, MESSAGE_CAP);
        if (!titled && text.trim()) {
          titled = true;
          offerTitle(conv, text, TITLE_RANK.firstPrompt);
        }
        break;
      }
      case 'gemini': {
        const m = base(id, 'assistant', 'text', text, MESSAGE_CAP);
        m.model = str(r.model);
        if (m.model) conv.model = m.model;
        const tokens = obj(r.tokens);
        if (tokens && typeof tokens.total === 'number') m.tokens = tokens.total;
        const thoughts = Array.isArray(r.thoughts) ? r.thoughts : [];
        const reasoning = thoughts
          .map((th) => {
            const o = obj(th);
            return o
              ? [o.subject, o.description].filter((x) => typeof x === 'string').join(': ')
              : '';
          })
          .filter(Boolean)
          .join('\n');
        if (reasoning) m.reasoning = reasoning.slice(0, MESSAGE_CAP);
        const calls: ToolCall[] = [];
        for (const tc of Array.isArray(r.toolCalls) ? r.toolCalls : []) {
          const o = obj(tc);
          if (!o) continue;
          const callId = String(o.id ?? '');
          calls.push({
            id: callId,
            type: 'function',
            function: {
              name: String(o.name ?? ''),
              arguments: JSON.stringify(o.args ?? {}).slice(0, TEXT_CAP),
            },
          });
          if (o.result !== undefined && o.result !== null) {
            const res = toolResultText(o.result);
            const tr = base(
              `${id}/${callId}`,
              'tool',
              o.status === 'error' ? 'error' : 'tool_result',
              res,
              TEXT_CAP,
            );
            tr.call_id = callId;
            tr.tool_name = str(o.name);
          }
        }
        if (calls.length > 0) {
          m.tool_calls = calls;
          if (!text) m.kind = 'tool_call';
        }
        break;
      }
      case 'info':
      case 'warning':
        base(id, 'system', 'meta', text, TEXT_CAP);
        break;
      case 'error':
        base(id, 'system', 'error', text, TEXT_CAP);
        break;
      default:
        ctx.problems.add(`unknown message type "${String(r.type).slice(0, 40)}"`);
        return;
    }
    if (t !== null && (conv.last_active_at == null || t > conv.last_active_at))
      conv.last_active_at = t;
    rows.set(id, out); // last write wins; a Map keeps a re-set key in its first place
  };

  const rewind = (id: string) => {
    let hit = false;
    for (const [k, ms] of rows) {
      if (k === id) hit = true;
      if (hit) for (const m of ms) m.flags |= FLAG.rewound;
    }
  };

  /**
   * `{"$patch": {id?, content?, toolCalls?, updates?[], removeIds?[], orderIds?[]}}`
   * (AGENTS.md §3.2, as cass applies it): `id` with `content`/`toolCalls` and each
   * of `updates` merge into that message (last write wins), `removeIds` flag their
   * rows `rewound` (kept, as a rewind is), `orderIds` put those messages in that order.
   */
  const patch = (p: Record<string, unknown>) => {
    const merge = (u: Record<string, unknown>) => {
      if (u.id === undefined || u.id === null) return;
      const before = raw.get(String(u.id));
      const next = { ...before, ...u };
      if (next.type === undefined) {
        ctx.problems.add('gemini $patch update of an unknown message');
        return;
      }
      upsert(next);
    };
    if (p.id !== undefined && (p.content !== undefined || p.toolCalls !== undefined)) {
      const u: Record<string, unknown> = { id: p.id };
      if (p.content !== undefined) u.content = p.content;
      if (p.toolCalls !== undefined) u.toolCalls = p.toolCalls;
      merge(u);
    }
    for (const u of Array.isArray(p.updates) ? p.updates : []) {
      const o = obj(u);
      if (o) merge(o);
    }
    for (const id of Array.isArray(p.removeIds) ? p.removeIds : [])
      for (const m of rows.get(String(id)) ?? []) m.flags |= FLAG.rewound;
    if (Array.isArray(p.orderIds)) {
      const order = p.orderIds.map(String).filter((id) => rows.has(id));
      const listed = new Set(order);
      const rest = [...rows.entries()].filter(([id]) => !listed.has(id));
      const moved = order.map((id) => [id, rows.get(id)!] as const);
      rows.clear();
      for (const [id, ms] of [...moved, ...rest]) rows.set(id, ms);
    }
  };

  /**
   * A `$set.messages` batch is the whole list at that point (§8.3): its messages
   * are upserted in its order; a message it no longer holds was taken back, so it
   * is kept, flagged `rewound`, after the message it followed.
   */
  const checkpoint = (list: unknown[]) => {
    const before = [...rows.entries()];
    rows.clear();
    for (const m of list) if (obj(m) && obj(m)!.id !== undefined) upsert(obj(m)!);
    const listed = new Set(rows.keys());
    const after = new Map<string | null, [string, Msg[]][]>();
    let prev: string | null = null;
    for (const [id, ms] of before) {
      if (listed.has(id)) {
        prev = id;
        continue;
      }
      for (const m of ms) m.flags |= FLAG.rewound;
      const list2 = after.get(prev) ?? [];
      list2.push([id, ms]);
      after.set(prev, list2);
    }
    if (after.size === 0) return;
    const kept = [...rows.entries()];
    rows.clear();
    for (const [id, ms] of after.get(null) ?? []) rows.set(id, ms);
    for (const [id, ms] of kept) {
      rows.set(id, ms);
      for (const [oid, oms] of after.get(id) ?? []) rows.set(oid, oms);
    }
  };

  const apply = (rec: Record<string, unknown>) => {
    if ('$set' in rec) {
      const set = obj(rec.$set) ?? {};
      if (Array.isArray(set.messages)) {
        // A checkpoint replaces the whole history: only a parse from the start can apply it.
        if (incremental) {
          needsFull = true;
          return;
        }
        checkpoint(set.messages);
      }
      header({ ...set, sessionId: undefined });
      return;
    }
    if ('$rewindTo' in rec) {
      if (incremental) needsFull = true;
      else rewind(String(rec.$rewindTo));
      return;
    }
    if ('$patch' in rec) {
      // It edits earlier messages: only a parse from the start can apply it to stored rows.
      if (incremental) needsFull = true;
      else patch(obj(rec.$patch) ?? rec);
      return;
    }
    if (rec.id !== undefined && rec.type !== undefined) {
      upsert(rec);
      return;
    }
    if (typeof rec.sessionId === 'string') {
      header(rec);
      return;
    }
    ctx.problems.add('unknown record shape');
  };

  return {
    record(rec) {
      if (!needsFull) apply(rec);
    },
    finish(): ParseResult {
      const messages: Msg[] = [];
      for (const ms of rows.values()) messages.push(...ms);
      if (!conv.cwd) conv.cwd = projectRoot(ctx.path) ?? contextCwd;
      return {
        conv: conv.native_id ? conv : null,
        messages,
        carry: { id: conv.native_id, titled, cwd: contextCwd },
        needsFull,
      };
    },
  };
}

function toolResultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (Array.isArray(result)) {
    const out: string[] = [];
    for (const r of result) {
      const o = obj(r);
      const fr = obj(o?.functionResponse);
      const resp = obj(fr?.response);
      if (resp && typeof resp.output === 'string') out.push(resp.output);
      else if (typeof o?.text === 'string') out.push(o.text);
      else if (resp) out.push(JSON.stringify(resp));
    }
    return out.join('\n');
  }
  return JSON.stringify(result ?? '');
}

/** A legacy whole-file chat, fed through the same parser as one header plus its messages. */
export function geminiLegacy(ctx: ParseContext, doc: Record<string, unknown>): ParseResult {
  const p = geminiParser({ ...ctx, carry: null });
  p.record({ ...doc, messages: undefined }, 0);
  let i = 1;
  for (const m of Array.isArray(doc.messages) ? doc.messages : []) {
    const o = obj(m);
    if (o) p.record(o, i++);
  }
  return p.finish();
}
