/**
 * The other agents' conversations as the app's view models, from the index
 * (src/agents/appReads.ts). A conversation is one segment (a chain of one); its
 * messages take the Hermes message shape, with ids from src/ids/app.ts. It is one
 * of the app's conversation readers (reads.ts, src/recall/conversation.ts):
 * `Conversations.of` names it for every session id of the `codex:<id>` form.
 */
import type { AppConv, AppHit, AppMsg, IndexReader } from '../../agents/appReads.js';
import { TAKEN_BACK, type Agent } from '../../agents/model.js';
import type { ToolCall } from '../../store/content.js';
import type { ConversationContext } from '../../store/facts.js';
import type { Filters, Message, Sort } from '../../store/types.js';
import { termsFromQuery } from '../../text/highlight.js';
import { OPEN_AFTER, OPEN_BEFORE, type MsgWindow, type WinItem } from '../geometry/window.js';
import type { ResultItem, SessionRow } from '../model.js';
import { numberEach } from './pastIdBlock.js';
import {
  agentMessageId,
  agentSessionId,
  isAgentMessageId,
  splitAgentMessageId,
  splitAgentSession,
} from '../../ids/app.js';
import { FIND_MAX } from '../../store/find.js';
import type { Loaded, Opened } from './chainWindow.js';
import type { AgentRef, AppReads } from './reads.js';
import type { LiveUpdate } from './live.js';
import { clean, SNIPPET_MARKERS, snippetSegments } from './rows.js';

const secs = (ms: number | null): number => (ms === null ? 0 : ms / 1000);

/** Which machine's index: this one's (no host, slot 0) or a synced host's (its id range, src/ids). */
export interface IndexPlace {
  host?: string;
  slot: number;
}
const HERE: IndexPlace = { slot: 0 };
const sidOf = (c: AppConv, at: IndexPlace): string => agentSessionId(c.agent, c.native_id, at.host);

function toMessage(c: AppConv, m: AppMsg, at: IndexPlace): Message {
  let calls: ToolCall[] | string | null = null;
  if (m.tool_calls) {
    try {
      calls = JSON.parse(m.tool_calls) as ToolCall[];
    } catch {
      calls = m.tool_calls;
    }
  }
  return {
    id: agentMessageId(c.id, m.ordinal, at.slot),
    session_id: sidOf(c, at),
    role: m.role,
    content: m.text,
    timestamp: secs(m.created_at ?? c.started_at),
    tool_name: m.tool_name,
    tool_calls: calls,
    tool_call_id: m.call_id,
    reasoning: m.reasoning,
    ...(takenBack(m) ? { taken_back: true } : {}),
  };
}

/** Rewound, reverted or on an abandoned branch: read only with H, and marked. */
function takenBack(m: AppMsg): boolean {
  return ((m.flags ?? 0) & TAKEN_BACK) !== 0;
}

function titleOf(c: AppConv): { title: string; hasTitle: boolean; preview: string } {
  const title = clean(c.title);
  const preview = clean(c.preview);
  return { title: title || preview || '(untitled)', hasTitle: title !== '', preview };
}

function rowOf(c: AppConv, at: IndexPlace): SessionRow {
  const sid = sidOf(c, at);
  return {
    sessionId: sid,
    rootId: sid,
    ...titleOf(c),
    source: clean(c.source) || c.agent,
    cwd: clean(c.cwd),
    startedAt: secs(c.started_at),
    lastActive: secs(c.last_active_at ?? c.started_at),
    messageCount: c.message_count,
    chainLength: 1,
    // No end is recorded: "live" is a file still there and written within the live window.
    open: c.gone === 0,
    endedAt: null,
    endReason: null,
    pinned: false,
    lastReadAt: null,
    hiddenReason: c.parent_kind === 'subagent' ? 'subagent' : null,
    branches: 0,
    depth: 0,
    agent: c.agent,
  };
}

/** What the index knows of a conversation's context; its files record no end, cost or tokens. */
function contextOf(c: AppConv, messages: number): ConversationContext {
  const opt = (x: string | null): string | null => (x === null ? null : clean(x) || null);
  return {
    cwd: opt(c.cwd),
    gitBranch: null,
    model: opt(c.model),
    source: clean(c.source) || c.agent,
    messages,
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    costEstimated: false,
    startedAt: secs(c.started_at),
    lastActive: secs(c.last_active_at ?? c.started_at),
    endedAt: null,
    endReason: null,
    lastReadAt: null,
    pinned: false,
    endKnown: false,
  };
}

/** A hit as the results pane's row (also the search by meaning's, src/app/data/meaning.ts). */
export function hitItem(h: AppHit, terms: readonly string[], at: IndexPlace = HERE): ResultItem {
  const sid = sidOf(h.conv, at);
  const id = agentMessageId(h.conv.id, h.msg.ordinal, at.slot);
  return {
    key: `${sid}#${id}`,
    kind: 'hit',
    sessionId: sid,
    rootId: sid,
    title: titleOf(h.conv).title,
    source: clean(h.conv.source) || h.conv.agent,
    startedAt: secs(h.conv.started_at),
    when: secs(h.msg.created_at ?? h.conv.last_active_at),
    messageId: id,
    matchedRole: clean(h.msg.role),
    snippet: snippetSegments(h.snippet, terms),
    live: h.conv.gone === 0,
    agent: h.conv.agent,
    ...(takenBack(h.msg) ? { takenBack: true } : {}),
  };
}

/** The other agents' index as the app reads it: lists, and one conversation's reads (AppReads). */
export class AgentSource implements AppReads {
  constructor(
    readonly index: IndexReader,
    /** A synced host's index (its mirror's, `lookback sync --host`); absent: this machine's. */
    readonly at: IndexPlace = HERE,
  ) {}

  private mid(convId: number, ordinal: number): number {
    return agentMessageId(convId, ordinal, this.at.slot);
  }

  /** Whether an app message id is in this index's range. */
  holds(messageId: number): boolean {
    return isAgentMessageId(messageId) && splitAgentMessageId(messageId).slot === this.at.slot;
  }

  version(): number {
    return this.index.version();
  }

  /** H: windows, counts, finds and searches read what was taken back too (marked). */
  setShowTakenBack(on: boolean): void {
    this.index.showTakenBack = on;
  }

  /** Whether the index holds any conversation: without one, the lists stay the Hermes store's, untagged. */
  hasConversations(): boolean {
    return this.recent(1, true).length > 0;
  }

  /** Distinct sources, models and folders of its conversations, for the search line's completions. */
  values(limit: number): { sources: string[]; models: string[]; folders: string[] } {
    return this.index.values(limit);
  }

  /** The agents this index reads (the app's `--agent` choice). */
  get agents(): readonly Agent[] {
    return this.index.agents;
  }

  recent(limit: number, all: boolean, filters?: Filters, agents?: readonly Agent[]): SessionRow[] {
    return this.index.recent(limit, all, filters, agents).map((c) => rowOf(c, this.at));
  }

  /** Conversations with a hit, for the summed count ("50 of 441"). */
  count(
    query: string,
    roles: readonly string[],
    cap: number,
    agents?: readonly Agent[],
    filters?: Filters,
  ): { count: number; capped: boolean } {
    return this.index.countConversations(
      query,
      { roles, ...(agents ? { agents } : {}), ...(filters ? { filters } : {}) },
      cap,
    );
  }

  search(
    query: string,
    sort: Sort,
    roles: readonly string[],
    limit: number,
    agents?: readonly Agent[],
    filters?: Filters,
    /** Said once when hits past the app's id block were left out (pastIdBlock.ts). */
    skipped?: (line: string, hits: number) => void,
  ): ResultItem[] {
    const terms = termsFromQuery(query);
    const hits = this.index.search(query, {
      limit,
      roles,
      sort: sort === 'newest' || sort === 'oldest' ? sort : 'relevance',
      markers: SNIPPET_MARKERS,
      ...(agents ? { agents } : {}),
      ...(filters ? { filters } : {}),
    });
    return numberEach(hits, (h) => hitItem(h, terms, this.at), skipped);
  }

  private conv(sessionId: string): AppConv | null {
    const s = splitAgentSession(sessionId);
    return s && s.host === this.at.host ? this.index.conversation(s.agent, s.nativeId) : null;
  }

  private msg(c: AppConv, m: AppMsg): Message {
    return toMessage(c, m, this.at);
  }

  private items(c: AppConv, msgs: AppMsg[]): WinItem[] {
    return msgs.map((m) => ({ kind: 'message', msg: this.msg(c, m), seg: 0 }));
  }

  private build(
    c: AppConv,
    shape: {
      items: WinItem[];
      atStart: boolean;
      atEnd: boolean;
      anchorId: number | null;
      follow: boolean;
      focusIndex: number;
      placement: Opened['placement'];
    },
  ): Opened {
    const sid = sidOf(c, this.at);
    const first = shape.items[0];
    const before =
      shape.atStart || !first || first.kind !== 'message'
        ? 0
        : this.index.countBefore(c.id, splitAgentMessageId(first.msg.id).ordinal);
    const head = this.index.after(c.id, -1, 20).find(hasText) ?? null;
    const tail = [...this.index.before(c.id, Number.MAX_SAFE_INTEGER, 20)].reverse().find(hasText);
    return {
      window: {
        chain: [sid],
        items: shape.items,
        atStart: shape.atStart,
        atEnd: shape.atEnd,
        anchorId: shape.anchorId,
        before,
        total: this.index.countVisible(c.id),
        follow: shape.follow,
      },
      focusIndex: shape.focusIndex,
      placement: shape.placement,
      context: contextOf(c, this.index.countVisible(c.id)),
      title: titleOf(c).title,
      source: clean(c.source) || c.agent,
      live: c.gone === 0,
      bookStart: head ? this.msg(c, head) : null,
      bookEnd: tail ? this.msg(c, tail) : null,
      note: null,
    };
  }

  openAt(sessionId: string, messageId: number): Opened | null {
    const c = this.conv(sessionId);
    if (!c) return null;
    const { convId, ordinal } = splitAgentMessageId(messageId);
    const anchor =
      convId === c.id && this.holds(messageId) ? this.index.message(c.id, ordinal) : null;
    if (!anchor) {
      const tail = this.openTail(sessionId);
      return tail
        ? {
            ...tail,
            note: `that message is not shown in this conversation; opened at its latest messages`,
          }
        : null;
    }
    const before = this.index.before(c.id, ordinal, OPEN_BEFORE);
    const after = this.index.after(c.id, ordinal, OPEN_AFTER);
    return this.build(c, {
      items: this.items(c, [...before, anchor, ...after]),
      atStart: before.length < OPEN_BEFORE,
      atEnd: after.length < OPEN_AFTER,
      anchorId: messageId,
      follow: false,
      focusIndex: before.length,
      placement: 'anchor',
    });
  }

  /** The message a native anchor names (a pasted `lookback scroll --agent …`), as an app id. */
  messageIdOf(sessionId: string, anchor: string): number | null {
    const c = this.conv(sessionId);
    const m = c ? this.index.messageByAnchor(c.id, anchor) : null;
    return c && m ? this.mid(c.id, m.ordinal) : null;
  }

  /** The agent, native session id and native anchor behind app ids (for copy forms). */
  refOf(sessionId: string, messageId: number | null): AgentRef | null {
    const c = this.conv(sessionId);
    if (!c) return null;
    const on = this.at.host !== undefined ? { host: this.at.host } : {};
    if (messageId === null || !this.holds(messageId))
      return { agent: c.agent, sessionId: c.native_id, anchor: null, ...on };
    const { ordinal } = splitAgentMessageId(messageId);
    const m = this.index.message(c.id, ordinal);
    return { agent: c.agent, sessionId: c.native_id, anchor: m?.anchor ?? null, ...on };
  }

  openTail(sessionId: string): Opened | null {
    const c = this.conv(sessionId);
    if (!c) return null;
    const n = OPEN_BEFORE + OPEN_AFTER;
    const msgs = this.index.before(c.id, Number.MAX_SAFE_INTEGER, n);
    return this.build(c, {
      items: this.items(c, msgs),
      atStart: msgs.length < n,
      atEnd: true,
      anchorId: null,
      follow: true,
      focusIndex: Math.max(0, msgs.length - 1),
      placement: 'bottom',
    });
  }

  openHead(chain: readonly string[]): Opened | null {
    const c = this.conv(chain[0] ?? '');
    if (!c) return null;
    const n = OPEN_BEFORE + OPEN_AFTER;
    const msgs = this.index.after(c.id, -1, n);
    return this.build(c, {
      items: this.items(c, msgs),
      atStart: true,
      atEnd: msgs.length < n,
      anchorId: null,
      follow: false,
      focusIndex: 0,
      placement: 'top',
    });
  }

  extend(win: MsgWindow, side: 'before' | 'after', n: number): Loaded {
    const c = this.conv(win.chain[0] ?? '');
    const edge = side === 'after' ? win.items[win.items.length - 1] : win.items[0];
    if (!c || !edge || edge.kind !== 'message') return { items: [], reached: true };
    const { ordinal } = splitAgentMessageId(edge.msg.id);
    const msgs =
      side === 'after' ? this.index.after(c.id, ordinal, n) : this.index.before(c.id, ordinal, n);
    return { items: this.items(c, msgs), reached: msgs.length < n };
  }

  /** The conversation's working directory, where its agent resumes it. */
  cwdOf(sessionId: string): string | null {
    return this.conv(sessionId)?.cwd ?? null;
  }

  /** Messages of the conversation that contain `text` (find within it), in order. */
  find(chain: readonly string[], text: string): number[] {
    const c = this.conv(chain[0] ?? '');
    if (!c) return [];
    return this.index.findOrdinals(c.id, text, FIND_MAX).map((o) => this.mid(c.id, o));
  }

  hits(query: string, chain: readonly string[], roles: readonly string[]): number[] {
    const c = this.conv(chain[0] ?? '');
    if (!c || query.trim() === '') return [];
    return this.index.hitOrdinals(c.id, query, roles).map((o) => this.mid(c.id, o));
  }

  ownerOf(messageId: number): string | null {
    if (!this.holds(messageId)) return null;
    const c = this.index.conversationById(splitAgentMessageId(messageId).convId);
    return c ? sidOf(c, this.at) : null;
  }

  /** New messages at the end (the index grew), or a reload when loaded ones vanished. */
  liveUpdate(win: MsgWindow): LiveUpdate | null {
    const sid = win.chain[0] ?? '';
    const c = this.conv(sid);
    if (!c) return { recover: { kind: 'deleted', removed: win.items.length }, ...noChange(win) };
    const loaded: number[] = [];
    for (const it of win.items) if (it.kind === 'message') loaded.push(it.msg.id);
    const ords = loaded.map((id) => splitAgentMessageId(id).ordinal);
    const alive = new Set(this.index.visibleOrdinals(c.id, ords));
    if (alive.size < ords.length) {
      const near = ords.find((o) => alive.has(o));
      const tail = this.index.before(c.id, Number.MAX_SAFE_INTEGER, 1)[0];
      const to =
        near !== undefined ? this.mid(c.id, near) : tail ? this.mid(c.id, tail.ordinal) : null;
      if (to === null)
        return { recover: { kind: 'deleted', removed: ords.length }, ...noChange(win) };
      return {
        recover: {
          kind: 'reanchor',
          sessionId: sid,
          messageId: to,
          removed: ords.length - alive.size,
          focusGone: near === undefined,
          from: loaded[0]!,
        },
        ...noChange(win),
      };
    }
    const total = this.index.countVisible(c.id);
    const tail = [...this.index.before(c.id, Number.MAX_SAFE_INTEGER, 20)].reverse().find(hasText);
    const bookEnd = tail ? this.msg(c, tail) : null;
    const live = c.gone === 0;
    if (!win.atEnd) return { chain: null, total, items: [], live, bookEnd };
    const loadedMore = this.extend(win, 'after', OPEN_AFTER);
    return { chain: null, total, items: loadedMore.items, live, bookEnd };
  }

  /** A conversation of the index is one segment: its chain is itself. */
  chainOf(sessionId: string): string[] {
    return [sessionId];
  }

  /** The index records no branches the app lists under a row. */
  branches(): SessionRow[] {
    return [];
  }

  /** Exports read the Hermes store's shapes; the index offers none yet. */
  exportConversation(): null {
    return null;
  }

  exportMarks(): [] {
    return [];
  }

  hermesRef(): null {
    return null;
  }

  agentRef(sessionId: string, messageId: number | null): AgentRef | null {
    return this.refOf(sessionId, messageId);
  }

  /** Jump rows for a pasted agent anchor or session id. */
  jumpRow(sessionId: string, messageId: number | null, note: string): ResultItem | null {
    const c = this.conv(sessionId);
    if (!c) return null;
    return {
      key: `jump:${sessionId}#${messageId ?? ''}`,
      kind: 'jump',
      sessionId,
      rootId: sessionId,
      title: titleOf(c).title,
      source: clean(c.source) || c.agent,
      startedAt: secs(c.started_at),
      when: secs(c.last_active_at ?? c.started_at),
      messageId,
      matchedRole: null,
      snippet: [{ text: `${clean(c.native_id)} · ${clean(note)}`, hit: false }],
      live: c.gone === 0,
      note: clean(note),
      agent: c.agent,
    };
  }

  /** Conversations whose native id starts with `prefix` (a pasted or typed id). */
  byPrefix(prefix: string, limit: number): ResultItem[] {
    return this.index
      .byPrefix(prefix, limit)
      .map((c) => this.jumpRow(sidOf(c, this.at), null, 'open at its latest messages'))
      .filter((r): r is ResultItem => r !== null);
  }

  close(): void {
    this.index.close();
  }
}

function hasText(m: AppMsg): boolean {
  return (m.role === 'user' || m.role === 'assistant') && m.text.trim() !== '';
}

function noChange(win: MsgWindow): Omit<LiveUpdate, 'recover'> {
  return { chain: null, total: win.total, items: [], live: false, bookEnd: null };
}
