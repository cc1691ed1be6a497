/**
 * Claude Code transcripts (AGENTS.md §1): append-only JSONL, one entry per line.
 * Streaming chunks of one reply (same `message.id`) merge into one message anchored
 * on the first chunk's `uuid`; tool results become `tool` rows; compaction leaves a
 * boundary row and a summary row; subagent files are their own conversations.
 *
 * Entries form a tree by `uuid`/`parentUuid` (§1.4): after a rewind or an edited
 * prompt the file keeps the abandoned branch. A parse from the start walks back
 * from the last entry to the root; rows off that path are flagged
 * `inactive_branch` (kept, searchable, out of the transcript). When the tree is
 * not one tree (several roots, a parent missing) every row stays live, as in
 * file order. A resumed file's lines copied from another session keep that
 * session's `sessionId`: their rows carry it as `home`, for the indexer to flag.
 */
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import { readFileSync, statSync } from 'node:fs';
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
import type { LineParser, ParseContext, ParseResult } from './types.js';

/** Types that are bookkeeping: known, deliberately not messages. */
const IGNORED = new Set([
  'agent-name',
  'agent-setting',
  'permission-mode',
  'mode',
  'last-prompt',
  'bridge-session',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
]);

/** Which conversation a transcript file holds, from its path alone. */
export function claudeFileIdentity(path: string): { native_id: string; subagent: boolean } {
  const stem = basename(path).replace(/\.jsonl$/, '');
  const m = /^agent-(.+)$/.exec(stem);
  if (m) return { native_id: `agent-${m[1]}`, subagent: true };
  return { native_id: stem, subagent: false };
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const b of content) {
    const o = obj(b);
    if (!o) continue;
    if (o.type === 'text' && typeof o.text === 'string') out.push(o.text);
    else if (o.type === 'image' || o.type === 'document') {
      const src = obj(o.source);
      out.push(placeholder(String(o.type), src?.media_type, src?.data));
    } else if (o.type === 'tool_reference') out.push(`[tool ${String(o.tool_name ?? '')}]`);
  }
  return out.join('\n');
}

interface Open {
  id: string;
  msg: Msg;
}

/** One entry of the uuid tree; `soft` when the link is a compaction's `logicalParentUuid`. */
interface Node {
  parent: string | null;
  soft: boolean;
}

/**
 * The uuids on the path from `leaf` back to the root, or null when the entries
 * are not one tree (AGENTS.md §1.4's fallback: then everything is live).
 */
function livePath(graph: Map<string, Node>, leaf: string | null): Set<string> | null {
  if (leaf === null) return null;
  let roots = 0;
  for (const n of graph.values()) {
    if (n.parent === null || (n.soft && !graph.has(n.parent))) roots++;
    else if (!graph.has(n.parent)) return null; // a parent missing: file order
  }
  if (roots !== 1) return null;
  const live = new Set<string>();
  for (let u: string | null = leaf; u !== null && !live.has(u);) {
    live.add(u);
    const n: Node | undefined = graph.get(u);
    u = n && n.parent !== null && graph.has(n.parent) ? n.parent : null;
  }
  return live;
}

export function claudeParser(ctx: ParseContext): LineParser {
  const ident = claudeFileIdentity(ctx.path);
  const carry = ctx.carry ?? {};
  const incremental = ctx.carry !== null;
  const conv: ConvPatch = { native_id: ident.native_id };
  if (ident.subagent) conv.parent_kind = 'subagent';
  const extra: Record<string, unknown> = {};
  const messages: Msg[] = [];
  let open: Open | null = null;
  let needsFull = false;
  // Only a file's very first line names the session it continues; a resumed pass is past it.
  let first = carry.first !== false;
  let lastUuid = str(carry.lastUuid);
  let titled = carry.titled === true;
  let openId = str(carry.openId);
  // The tree of this pass's entries, the last message entry (the leaf the live path ends at),
  // each row's entry uuids, and the sessions copied lines came from.
  const graph = new Map<string, Node>();
  let leaf: string | null = null;
  const entriesOf = new Map<Msg, string[]>();
  const homes = new Set<string>();
  let home: string | null = null;
  // Uuids since the last message entry: an appended entry must hang off one of them,
  // else it branches off older history and only a parse from the start can place it.
  let tail = new Set(Array.isArray(carry.tail) ? carry.tail.map(String) : []);

  const flush = () => {
    if (open) messages.push(open.msg);
    open = null;
  };
  const own = (m: Msg, uuid: string) => {
    const list = entriesOf.get(m);
    if (list) list.push(uuid);
    else entriesOf.set(m, [uuid]);
    if (home) m.home = home;
  };
  const push = (m: Msg, uuid: string) => {
    flush();
    messages.push(m);
    own(m, uuid);
  };
  /** Places one uuid-bearing entry in the tree; on an appended pass, checks it extends the tip. */
  const place = (rec: Record<string, unknown>, uuid: string) => {
    if (!ident.subagent && rec.isSidechain === true) return; // an inline subagent: its own tree
    if (!('parentUuid' in rec) && !('logicalParentUuid' in rec)) return; // not a chain entry
    const hard = str(rec.parentUuid);
    const parent = hard ?? str(rec.logicalParentUuid);
    graph.set(uuid, { parent, soft: hard === null && parent !== null });
    const isMessage = rec.type === 'user' || rec.type === 'assistant' || rec.type === 'system';
    if (incremental && (parent === null || !tail.has(parent))) needsFull = true;
    if (isMessage) {
      leaf = uuid;
      tail = new Set([uuid]);
    } else if (parent !== null && tail.has(parent)) tail.add(uuid);
  };
  const touch = (t: number | null) => {
    if (t === null) return;
    if (conv.started_at == null || t < conv.started_at) conv.started_at = t;
    if (conv.last_active_at == null || t > conv.last_active_at) conv.last_active_at = t;
  };

  return {
    record(rec) {
      if (needsFull) return;
      const type = rec.type;
      const t = epochMs(rec.timestamp);
      const uuid = str(rec.uuid);
      const sessionId = str(rec.sessionId);
      if (uuid) {
        place(rec, uuid);
        if (needsFull) return;
      }
      // A main file's line naming another session is a copy of that session's line (a resume).
      home = !ident.subagent && sessionId && sessionId !== ident.native_id ? sessionId : null;
      if (home) homes.add(home);
      if (sessionId && first) {
        first = false;
        // A subagent's parent is the session on its lines; a main file whose lines name
        // another session continues (resumes) it.
        if (ident.subagent) conv.parent_native_id = sessionId;
        else if (sessionId !== ident.native_id) {
          conv.parent_native_id = sessionId;
          conv.parent_kind = 'resume';
        }
      }
      if (typeof rec.cwd === 'string' && rec.cwd) conv.cwd = rec.cwd;
      if (typeof rec.gitBranch === 'string' && rec.gitBranch) conv.git_branch = rec.gitBranch;
      if (typeof rec.version === 'string') extra.version = rec.version;
      if (typeof rec.entrypoint === 'string') extra.entrypoint = rec.entrypoint;
      const side = rec.isSidechain === true || ident.subagent ? FLAG.sidechain : 0;

      switch (type) {
        case 'user': {
          if (!uuid) return;
          touch(t);
          lastUuid = uuid;
          const message = obj(rec.message);
          const content = message?.content;
          const text = blockText(content);
          if (rec.isCompactSummary === true) {
            const c = capped(text, MESSAGE_CAP);
            push(
              row(uuid, 'system', 'summary', c.text, t, side, c.original_len, c.truncated),
              uuid,
            );
            return;
          }
          if (text.trim()) {
            const meta = rec.isMeta === true;
            const injected = !meta && looksInjected(text);
            const c = capped(text, MESSAGE_CAP);
            push(
              row(
                uuid,
                meta || injected ? 'system' : 'user',
                meta ? 'meta' : injected ? 'injected' : 'text',
                c.text,
                t,
                side,
                c.original_len,
                c.truncated,
              ),
              uuid,
            );
            if (!meta && !injected && !titled) {
              titled = true;
              offerTitle(conv, text, TITLE_RANK.firstPrompt);
            }
          }
          if (Array.isArray(content)) {
            let i = 0;
            for (const b of content) {
              const o = obj(b);
              if (o?.type !== 'tool_result') continue;
              const out = capped(blockText(o.content), TEXT_CAP);
              const m = row(
                // The entry's uuid anchors its first tool result; more results in one entry get a suffix.
                i === 0 && !text.trim() ? uuid : `${uuid}:${i}`,
                'tool',
                o.is_error === true ? 'error' : 'tool_result',
                out.text,
                t,
                side,
                out.original_len,
                out.truncated,
              );
              m.call_id = str(o.tool_use_id);
              push(m, uuid);
              i++;
            }
          }
          return;
        }
        case 'assistant': {
          const message = obj(rec.message);
          if (!uuid || !message) return;
          touch(t);
          lastUuid = uuid;
          const mid = str(message.id) ?? uuid;
          if (incremental && open === null && messages.length === 0 && openId === mid) {
            // The reply began before the saved offset: its first chunk is already stored.
            needsFull = true;
            return;
          }
          if (typeof message.model === 'string' && message.model !== '<synthetic>')
            conv.model = message.model;
          if (!open || open.id !== mid) {
            flush();
            const m = row(uuid, 'assistant', 'text', '', t, side, 0, false);
            if (rec.isApiErrorMessage === true) m.kind = 'error';
            m.model = str(message.model);
            open = { id: mid, msg: m };
            if (home) m.home = home;
          }
          const m = open.msg;
          own(m, uuid);
          const usage = obj(message.usage);
          if (usage && typeof usage.output_tokens === 'number')
            m.tokens = Number(usage.input_tokens ?? 0) + usage.output_tokens; // last chunk's usage, never summed
          for (const b of Array.isArray(message.content) ? message.content : []) {
            const o = obj(b);
            if (!o) continue;
            if (o.type === 'text' && typeof o.text === 'string' && o.text) {
              // Some versions write cumulative snapshots: a chunk repeating what is there adds nothing.
              if (!m.text.endsWith(o.text)) m.text = m.text ? `${m.text}\n${o.text}` : o.text;
            } else if (o.type === 'thinking' && typeof o.thinking === 'string' && o.thinking) {
              if (!(m.reasoning ?? '').endsWith(o.thinking))
                m.reasoning = m.reasoning ? `${m.reasoning}\n${o.thinking}` : o.thinking;
            } else if (o.type === 'tool_use') {
              const call: ToolCall = {
                id: String(o.id ?? ''),
                type: 'function',
                function: { name: String(o.name ?? ''), arguments: JSON.stringify(o.input ?? {}) },
              };
              const calls = (m.tool_calls ??= []);
              if (!calls.some((c) => c.id === call.id)) calls.push(call);
              if (!m.text) m.kind = 'tool_call';
            }
          }
          if (m.text && m.kind === 'tool_call') m.kind = 'text';
          if (m.text.length > MESSAGE_CAP) {
            m.original_len = m.text.length;
            m.text = m.text.slice(0, MESSAGE_CAP);
            m.flags |= FLAG.truncated;
          } else m.original_len = m.text.length;
          return;
        }
        case 'system': {
          if (!uuid) return;
          touch(t);
          lastUuid = uuid;
          const subtype = str(rec.subtype);
          const text = typeof rec.content === 'string' ? rec.content : '';
          if (subtype === 'compact_boundary') {
            push(
              row(
                uuid,
                'system',
                'meta',
                text || 'Conversation compacted',
                t,
                side | FLAG.compactBoundary,
                text.length,
                false,
              ),
              uuid,
            );
          } else if (text) {
            const c = capped(text, TEXT_CAP);
            push(
              row(
                uuid,
                'system',
                subtype === 'api_error' ? 'error' : 'meta',
                c.text,
                t,
                side,
                c.original_len,
                c.truncated,
              ),
              uuid,
            );
          }
          return;
        }
        case 'summary':
          if (typeof rec.summary === 'string') offerTitle(conv, rec.summary, TITLE_RANK.summary);
          return;
        case 'custom-title':
          if (typeof rec.customTitle === 'string')
            offerTitle(conv, rec.customTitle, TITLE_RANK.user);
          return;
        case 'ai-title':
          if (typeof rec.aiTitle === 'string') offerTitle(conv, rec.aiTitle, TITLE_RANK.generated);
          return;
        case 'pr-link':
          extra.pr = { number: rec.prNumber, url: rec.prUrl, repository: rec.prRepository };
          return;
        default:
          if (typeof type === 'string' && IGNORED.has(type)) return;
          ctx.problems.add(`unknown record type "${String(type).slice(0, 40)}"`);
      }
    },
    finish(): ParseResult {
      const last = open as Open | null;
      openId = last ? last.id : messages.length > 0 ? null : openId;
      flush();
      // Branches are placed only from the start; an appended pass only ever extends the tip.
      const live = incremental ? null : livePath(graph, leaf);
      if (live)
        for (const m of messages) {
          const uuids = entriesOf.get(m) ?? [];
          if (uuids.length > 0 && uuids.every((u) => graph.has(u) && !live.has(u)))
            m.flags |= FLAG.inactiveBranch;
        }
      if (homes.size > 0) extra.copied_from = [...homes].sort();
      if (Object.keys(extra).length > 0) conv.extra = extra;
      if (ident.subagent) {
        const meta = subagentMeta(ctx.path);
        if (meta) {
          conv.extra = { ...conv.extra, agent_type: meta.agentType, spawn_depth: meta.spawnDepth };
          if (typeof meta.model === 'string') conv.model = meta.model;
        }
      }
      return {
        conv,
        messages,
        carry: { lastUuid, titled, openId, first, tail: [...tail] },
        needsFull,
      };
    },
  };
}

function row(
  uuid: string,
  role: Msg['role'],
  kind: Msg['kind'],
  text: string,
  t: number | null,
  flags: number,
  originalLen: number,
  truncated: boolean,
): Msg {
  return {
    anchor: anchorFor(uuid, -1),
    role,
    kind,
    text,
    created_at: t,
    flags: flags | (truncated ? FLAG.truncated : 0),
    original_len: originalLen,
  };
}

export function offerTitle(conv: ConvPatch, title: string, rank: number): void {
  const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
  if (!clean) return;
  if ((conv.title_rank ?? 0) <= rank) {
    conv.title = clean;
    conv.title_rank = rank;
  }
}

/** A subagent's `agent-<id>.meta.json` ({agentType, spawnDepth, model}), when present and small. */
function subagentMeta(path: string): Record<string, unknown> | null {
  const metaPath = path.replace(/\.jsonl$/, '.meta.json');
  try {
    if (statSync(metaPath).size > 1024 * 1024) return null;
    return obj(JSON.parse(readFileSync(metaPath, 'utf8')));
  } catch {
    return null;
  }
}
