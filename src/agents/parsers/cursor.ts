/**
 * Cursor's IDE chats (AGENTS.md §9.7): the global `User/globalStorage/state.vscdb`,
 * a VS Code key-value SQLite database (`cursorDiskKV(key TEXT UNIQUE ON CONFLICT
 * REPLACE, value BLOB)`). A chat ("composer") is `composerData:<composerId>`, a JSON
 * document whose `fullConversationHeadersOnly[{bubbleId, type}]` orders its
 * messages; each message is `bubbleId:<composerId>:<bubbleId>` (type 1 the person,
 * 2 the assistant: `text`, `thinking.text`, `toolFormerData{name, rawArgs, result}`).
 * Older composers hold their bubbles inline in `conversation[]`. The workspace a
 * chat belongs to is named by `workspaceStorage/<hash>/workspace.json` and that
 * workspace's `composer.composerData` list. Cursor is closed source: this follows
 * public readers of the file (AGENTS.md §9.7 names them), not Cursor's code.
 *
 * Cursor rewrites these rows in place all the time, so a chat is re-derived when
 * its mark moves: the lengths of its composer row and of its bubble rows (SQLite
 * reads a blob's length without reading the blob). Read through one short
 * read-only connection that leaves no file beside the database (readOnlyDb.ts).
 */
import type Database from 'better-sqlite3';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGE_CAP, TEXT_CAP } from '../../budgets.js';
import {
  FLAG,
  TITLE_RANK,
  capped,
  epochMs,
  looksInjected,
  obj,
  str,
  type ConvPatch,
  type Msg,
  type Problems,
} from '../model.js';
import { columns, openWithoutTrace } from '../readOnlyDb.js';
import { offerTitle } from './claude.js';
import type { DbRead } from './dbRead.js';

type Obj = Record<string, unknown>;

function json(raw: unknown, problems: Problems, what: string): Obj | null {
  try {
    const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : '';
    const v = obj(JSON.parse(text));
    if (!v) throw new Error('not an object');
    return v;
  } catch {
    problems.add(`${what} that is not JSON`);
    return null;
  }
}

/** A `file://` URI as a path (workspace folders, `workspaceUris`); null for remote ones. */
function uriPath(v: unknown): string | null {
  const u = str(v);
  if (!u) return null;
  if (!u.startsWith('file://')) return u.startsWith('/') ? u : null;
  try {
    return fileURLToPath(u);
  } catch {
    return null;
  }
}

/** One bubble as its rows: the words, and a tool call with its result when it ran one. */
function bubbleRows(b: Obj, anchor: string, flags: number): Msg[] {
  const type = Number(b.type);
  const text = typeof b.text === 'string' ? b.text : '';
  const created_at = epochMs(b.createdAt) ?? epochMs(obj(b.timingInfo)?.clientEndTime);
  const thinking = str(obj(b.thinking)?.text);
  const tool = obj(b.toolFormerData);
  const model = str(obj(b.modelInfo)?.modelName);
  if (type === 1) {
    const c = capped(text, MESSAGE_CAP);
    const injected = looksInjected(text);
    if (!text.trim()) return [];
    return [
      {
        anchor,
        role: injected ? 'system' : 'user',
        kind: injected ? 'injected' : 'text',
        text: c.text,
        created_at,
        flags: flags | (c.truncated ? FLAG.truncated : 0),
        original_len: c.original_len,
      },
    ];
  }
  if (type !== 2) return [];
  const rows: Msg[] = [];
  const name = str(tool?.name);
  if (text.trim() || thinking || name) {
    const c = capped(text, MESSAGE_CAP);
    rows.push({
      anchor,
      role: 'assistant',
      kind: text.trim() ? 'text' : name ? 'tool_call' : 'reasoning',
      text: c.text,
      reasoning: thinking,
      tool_calls: name
        ? [
            {
              id: str(tool?.toolCallId) ?? anchor,
              type: 'function',
              function: { name, arguments: typeof tool?.rawArgs === 'string' ? tool.rawArgs : '' },
            },
          ]
        : null,
      model: model === 'default' ? null : model,
      created_at,
      flags: flags | (c.truncated ? FLAG.truncated : 0),
      original_len: c.original_len,
    });
  }
  if (name && typeof tool?.result === 'string' && tool.result) {
    const c = capped(tool.result, TEXT_CAP);
    rows.push({
      anchor: `${anchor}.result`,
      role: 'tool',
      kind: tool.status === 'error' ? 'error' : 'tool_result',
      text: c.text,
      tool_name: name,
      call_id: str(tool.toolCallId) ?? anchor,
      created_at,
      flags: flags | (c.truncated ? FLAG.truncated : 0),
      original_len: c.original_len,
    });
  }
  return rows;
}

/**
 * Which workspace folder each composer belongs to: every workspace's
 * `workspace.json` folder and its `composer.composerData.allComposers` ids. Read
 * only when a changed chat names no folder of its own.
 */
function workspaceFolders(userDir: string, problems: Problems): Map<string, string> {
  const out = new Map<string, string>();
  const root = join(userDir, 'workspaceStorage');
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return out;
  }
  for (const name of names) {
    const dir = join(root, name);
    let folder: string | null = null;
    try {
      if (statSync(join(dir, 'workspace.json')).size > 64 * 1024) continue;
      const w = obj(JSON.parse(readFileSync(join(dir, 'workspace.json'), 'utf8')));
      folder = uriPath(w?.folder);
    } catch {
      continue;
    }
    if (!folder) continue;
    try {
      statSync(join(dir, 'state.vscdb'));
    } catch {
      continue;
    }
    const { db, cleanup } = openWithoutTrace(join(dir, 'state.vscdb'));
    try {
      db.pragma('query_only = ON');
      if (!columns(db, 'ItemTable').has('value')) continue;
      const row = db
        .prepare(`SELECT value FROM ItemTable WHERE key = 'composer.composerData'`)
        .get() as { value: unknown } | undefined;
      const list = row ? json(row.value, problems, 'workspace composer list') : null;
      const all = Array.isArray(list?.allComposers) ? (list.allComposers as unknown[]) : [];
      for (const c of all) {
        const id = str(obj(c)?.composerId);
        if (id && !out.has(id)) out.set(id, folder);
      }
    } catch {
      problems.add('workspace state.vscdb unreadable');
    } finally {
      db.close();
      cleanup();
    }
  }
  return out;
}

export function readCursor(
  path: string,
  known: Record<string, string>,
  problems: Problems,
): DbRead {
  const { db, cleanup } = openWithoutTrace(path);
  try {
    db.pragma('query_only = ON');
    if (!columns(db, 'cursorDiskKV').has('value')) {
      problems.add('no cursorDiskKV table (no Cursor chats in this state.vscdb)');
      return { sessions: [], marks: known };
    }
    return db.transaction(() => read(db, path, known, problems))();
  } finally {
    db.close();
    cleanup();
  }
}

/** `bubbleId:<id>:` up to (not including) `bubbleId:<id>;`: the composer's bubbles, through the key index. */
const bubbleRange = (id: string): [string, string] => [`bubbleId:${id}:`, `bubbleId:${id};`];

function read(
  db: Database.Database,
  path: string,
  known: Record<string, string>,
  problems: Problems,
): DbRead {
  const heads = db
    .prepare(
      `SELECT substr(key, 14) AS id, length(value) AS len FROM cursorDiskKV
       WHERE key >= 'composerData:' AND key < 'composerData;'`,
    )
    .all() as { id: string; len: number | null }[];
  const bubbleMark = db.prepare(
    `SELECT count(*) AS n, ifnull(sum(length(value)), 0) AS len FROM cursorDiskKV
     WHERE key >= ? AND key < ?`,
  );
  const composer = db.prepare(`SELECT value FROM cursorDiskKV WHERE key = ?`);
  const bubbles = db.prepare(`SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?`);
  const marks: Record<string, string> = {};
  const sessions: DbRead['sessions'] = [];
  const parents = new Map<string, string>();
  for (const h of heads) {
    if (!h.id || h.len === null) continue;
    const b = bubbleMark.get(...bubbleRange(h.id)) as { n: number; len: number };
    const mark = `${h.len}|${b.n}|${b.len}`;
    if (known[h.id] === mark) {
      marks[h.id] = mark;
      continue;
    }
    const row = composer.get(`composerData:${h.id}`) as { value: unknown } | undefined;
    const data = row ? json(row.value, problems, 'composer') : null;
    if (!data) continue;
    const stored = new Map<string, Obj>();
    for (const r of bubbles.all(...bubbleRange(h.id)) as { key: string; value: unknown }[]) {
      const bubble = json(r.value, problems, 'bubble');
      if (bubble) stored.set(r.key.slice(bubbleRange(h.id)[0].length), bubble);
    }
    const s = composerSession(h.id, data, stored);
    // A composer opened and closed without a word: no conversation (it may get one later).
    if (s.messages.length === 0) continue;
    marks[h.id] = mark;
    for (const sub of Array.isArray(data.subComposerIds) ? data.subComposerIds : [])
      if (typeof sub === 'string') parents.set(sub, h.id);
    sessions.push(s);
  }
  for (const s of sessions) {
    const parent = parents.get(s.conv.native_id);
    if (parent) {
      s.conv.parent_native_id = parent;
      s.conv.parent_kind = 'subagent';
    }
  }
  const homeless = sessions.filter((s) => !s.conv.cwd);
  if (homeless.length > 0) {
    const folders = workspaceFolders(join(path, '..', '..'), problems);
    for (const s of homeless) s.conv.cwd = folders.get(s.conv.native_id) ?? null;
  }
  return { sessions, marks };
}

/**
 * One composer's conversation. Its headers are what the IDE shows; a stored bubble
 * no header names is one the person took back (an earlier message edited and sent
 * again drops the turns after it from the headers): kept, flagged rewound, placed
 * by its time.
 */
function composerSession(
  id: string,
  data: Obj,
  stored: Map<string, Obj>,
): { conv: ConvPatch; messages: Msg[] } {
  const conv: ConvPatch = {
    native_id: id,
    started_at: epochMs(data.createdAt),
    last_active_at: epochMs(data.lastUpdatedAt) ?? epochMs(data.createdAt),
  };
  if (typeof data.name === 'string') offerTitle(conv, data.name, TITLE_RANK.generated);
  const configured = str(obj(data.modelConfig)?.modelName);
  if (configured && configured !== 'default') conv.model = configured;
  if (typeof data.isArchived === 'boolean') conv.extra = { archived: data.isArchived };
  const branch = str(data.createdOnBranch);
  if (branch) conv.git_branch = branch;

  const order: { bubbleId: string; bubble: Obj }[] = [];
  const headers = Array.isArray(data.fullConversationHeadersOnly)
    ? (data.fullConversationHeadersOnly as unknown[])
    : null;
  const shown = new Set<string>();
  if (headers) {
    for (const raw of headers) {
      const bid = str(obj(raw)?.bubbleId);
      const bubble = bid ? stored.get(bid) : undefined;
      if (bid && bubble) {
        order.push({ bubbleId: bid, bubble });
        shown.add(bid);
      }
    }
  } else if (Array.isArray(data.conversation)) {
    // Older composers: the bubbles inline.
    for (const raw of data.conversation as unknown[]) {
      const bubble = obj(raw);
      const bid = str(bubble?.bubbleId);
      if (bubble && bid) {
        order.push({ bubbleId: bid, bubble });
        shown.add(bid);
      }
    }
  }
  let messages: Msg[] = [];
  for (const { bubbleId, bubble } of order) messages.push(...bubbleRows(bubble, bubbleId, 0));
  if (headers)
    for (const [bid, bubble] of stored) {
      if (shown.has(bid)) continue;
      const rows = bubbleRows(bubble, bid, FLAG.rewound);
      if (rows.length === 0) continue;
      const t = rows[0]!.created_at;
      const at =
        t === null ? -1 : messages.findIndex((m) => m.created_at !== null && m.created_at > t);
      messages =
        at < 0
          ? [...messages, ...rows]
          : [...messages.slice(0, at), ...rows, ...messages.slice(at)];
    }

  for (const { bubble } of order) {
    const folders = Array.isArray(bubble.workspaceUris) ? (bubble.workspaceUris as unknown[]) : [];
    const folder = folders.map(uriPath).find((p) => p !== null);
    if (folder && !conv.cwd) conv.cwd = folder;
  }
  for (const m of messages) {
    if (m.flags & FLAG.rewound) continue;
    if (m.role === 'user' && m.kind === 'text' && !conv.title)
      offerTitle(conv, m.text, TITLE_RANK.firstPrompt);
    if (m.role === 'assistant' && m.model) conv.model = m.model;
    if (
      m.created_at !== null &&
      (conv.last_active_at == null || m.created_at > conv.last_active_at)
    )
      conv.last_active_at = m.created_at;
  }
  return { conv, messages };
}
