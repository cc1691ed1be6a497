/**
 * recent, search, scroll and read over the agents' index, answering with the same
 * field names as the Hermes store (src/store/recall.ts) plus `agent`. Message ids
 * are the per-source anchors (strings): `lookback scroll --agent codex <session> <anchor>`.
 *
 * Why one file of ~560 lines: the four operations share one set of row shapes,
 * caps and snippet rules over one index, and src/recall/agents.ts is its only
 * caller; split it by operation when the recall core takes over its shaping.
 */
import type Database from 'better-sqlite3';
import { StoreError } from '../store/errors.js';
import { quoteAllTerms, routeQuery, type Route } from '../store/query.js';
import { RELAXED_ALL, RELAXED_REST, relaxedRoute } from '../store/relaxed.js';
import type { Json } from '../store/recall.js';
import { clampWindow } from '../store/recall.js';
import { isoTime } from '../store/time.js';
import type { AppConv, AppMsg } from './appReads.js';
import {
  agentClause,
  conversationFilterSql,
  inList,
  likeClause,
  rankedPool,
  recentSql,
} from './queries.js';
import type { Filters } from '../store/types.js';
import { FLAG, OUT_OF_TRANSCRIPT, TAKEN_BACK, type Agent } from './model.js';
import { rankFunction } from './rankExt.js';
import { indexSnippets, noteFor } from './snippets.js';
import { anchoredViews, QUIET_KINDS, visible } from './windows.js';
import { READ_HEAD, READ_SMALL, READ_TAIL } from '../budgets.js';
import { stmt } from './statements.js';

const NO_MATCH = 'No matching sessions found.';

/** A message row as the index holds it (the app reads the same rows). */
type MsgRow = AppMsg;

/** A conversation row; the answers also name its git branch, which the app's rows leave out. */
export type ConvRow = AppConv & { git_branch: string | null };

const secs = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
/** The same ISO-8601 (UTC, seconds) `when` as Hermes answers. */
const iso = (ms: number | null): string => isoTime(ms === null ? null : ms / 1000);

/** A message in the answers' shape (overview.ts shapes its rows the same way). */
export function shape(
  m: Pick<
    MsgRow,
    | 'anchor'
    | 'role'
    | 'text'
    | 'created_at'
    | 'tool_name'
    | 'tool_calls'
    | 'call_id'
    | 'reasoning'
    | 'flags'
  >,
  anchor?: string,
): Record<string, Json> {
  const out: Record<string, Json> = {
    id: m.anchor,
    role: m.role,
    content: m.text,
    timestamp: secs(m.created_at),
  };
  if (m.tool_name) out.tool_name = m.tool_name;
  if (m.tool_calls) out.tool_calls = JSON.parse(m.tool_calls) as Json;
  if (m.call_id && m.role === 'tool') out.tool_call_id = m.call_id;
  if (m.reasoning) out.reasoning = m.reasoning;
  // Shown only with --all: the person took it back (a rewind, a revert, an abandoned branch).
  if ((m.flags ?? 0) & TAKEN_BACK) out.taken_back = true;
  if (anchor !== undefined && m.anchor === anchor) out.anchor = true;
  return out;
}

function meta(c: ConvRow): Record<string, Json> {
  const out: Record<string, Json> = {
    when: iso(c.started_at),
    source: c.source ?? c.agent,
    model: c.model,
    title: c.title,
    agent: c.agent,
  };
  if (c.cwd) out.cwd = c.cwd;
  if (c.git_branch) out.git_branch = c.git_branch;
  if (c.parent_native_id) {
    out.parent_session_id = c.parent_native_id;
    out.parent_kind = c.parent_kind;
  }
  if (c.gone) out.gone = true;
  return out;
}

export function recentAgentsJson(
  db: Database.Database,
  agents: readonly Agent[],
  opts: { limit: number; all: boolean; filters?: Filters },
): Record<string, Json> {
  const f = conversationFilterSql(opts.filters);
  const rows = stmt(db, recentSql(agents, opts.all, f?.sql ?? null)).all(
    ...(f?.params ?? []),
    opts.limit,
  ) as ConvRow[];
  const results = rows.map((r) => {
    const out: Record<string, Json> = {
      session_id: r.native_id,
      title: r.title,
      source: r.source ?? r.agent,
      started_at: secs(r.started_at),
      last_active: secs(r.last_active_at),
      message_count: r.message_count,
      preview: r.preview ?? '',
      agent: r.agent,
    };
    if (r.gone) out.gone = true;
    return out;
  });
  return {
    success: true,
    mode: 'browse',
    results,
    count: results.length,
    message: `Showing ${results.length} most recent sessions. Pass a query= to search, or session_id+around_message_id to scroll.`,
  };
}

export interface AgentSearchOptions {
  limit: number;
  sort?: 'relevance' | 'newest' | 'oldest';
  roles?: string[];
  all: boolean;
  /** Applied to the conversation row in SQL (queries.ts conversationFilterSql). */
  filters?: Filters;
}

interface Hit {
  id: number;
  conv_id: number;
}

function hits(
  db: Database.Database,
  route: Exclude<Route, { kind: 'empty' }>,
  match: string,
  agents: readonly Agent[],
  opts: AgentSearchOptions,
  n: number,
  note = 0,
): Hit[] {
  // A literal list (only the four roles the index holds reach the SQL): a json_each
  // per candidate row cost more than the test itself.
  const roleList = (opts.roles ?? ['user', 'assistant']).filter((r) =>
    ['user', 'assistant', 'tool', 'system'].includes(r),
  );
  const f = conversationFilterSql(opts.filters);
  const fp = f?.params ?? [];
  const where =
    [
      `m.role IN (${roleList.map((r) => `'${r}'`).join(', ') || "''"})`,
      // A copy is never a hit; what was taken back is one only with --all, like quiet rows.
      opts.all ? `m.flags & ${FLAG.copied} = 0` : `m.flags & ${OUT_OF_TRANSCRIPT} = 0`,
      opts.all ? '1' : `m.kind NOT IN ${QUIET_KINDS}`,
    ].join(' AND ') +
    ` ${agentClause(agents)}` +
    (f ? ` AND +m.conv_id IN (SELECT id FROM conversations WHERE ${f.sql})` : '');
  const order =
    opts.sort === 'newest'
      ? 'm.created_at DESC, m.id DESC'
      : opts.sort === 'oldest'
        ? 'm.created_at ASC, m.id ASC'
        : null;
  if (route.kind === 'like') {
    const { sql: like, params } = likeClause(route);
    if (opts.sort !== 'oldest') {
      // Newest first by id, in keyset pages that stop once `limit` conversations are
      // found (a substring scan of the whole index took 0.5 s for a 2-character query).
      const page = stmt(
        db,
        `SELECT m.id, m.conv_id FROM messages m WHERE m.id < ? AND (${like}) AND ${where}
         ORDER BY m.id DESC LIMIT ?`,
      );
      const seen = new Map<number, Hit>();
      let cursor = Number.MAX_SAFE_INTEGER;
      for (let size = 64; seen.size < opts.limit; size = Math.min(size * 4, 4096)) {
        const rows = page.all(cursor, ...params, ...fp, size) as Hit[];
        for (const r of rows) if (!seen.has(r.conv_id)) seen.set(r.conv_id, r);
        if (rows.length < size) break;
        cursor = rows[rows.length - 1]!.id;
      }
      return [...seen.values()].slice(0, opts.limit);
    }
    return stmt(
      db,
      `SELECT m.id, m.conv_id FROM messages m WHERE (${like}) AND ${where} ORDER BY ${order ?? 'm.id DESC'} LIMIT ?`,
    ).all(...params, ...fp, n) as Hit[];
  }
  const table = route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
  if (order === null)
    // Relevance: score the newest matches first (appReads.ts rankedPool), best per conversation.
    return [
      ...rankedPool(
        (sql) => stmt(db, sql),
        table,
        match,
        where,
        [...fp],
        opts.limit,
        rankFunction(db, table, match),
        note,
      ),
    ].map(([conv_id, id]) => ({ id, conv_id }));
  return stmt(
    db,
    `SELECT m.id, m.conv_id FROM ${table} f JOIN messages m ON m.id = f.rowid
       WHERE ${table} MATCH ? AND ${where} ORDER BY ${order} LIMIT ?`,
  ).all(match, ...fp, n) as Hit[];
}

/** Best hit per conversation, widening the fetch until `limit` conversations or no more hits. */
function bestPerConversation(fetch: (n: number) => Hit[], limit: number): Hit[] {
  for (let n = 50; ; n *= 8) {
    const page = fetch(n);
    const seen = new Map<number, Hit>();
    for (const h of page) if (!seen.has(h.conv_id)) seen.set(h.conv_id, h);
    if (seen.size >= limit || page.length < n) return [...seen.values()].slice(0, limit);
  }
}

export function searchAgentsJson(
  db: Database.Database,
  query: string,
  agents: readonly Agent[],
  opts: AgentSearchOptions,
): Record<string, Json> {
  const q = query.trim();
  const route = routeQuery(q, { fts: true, trigram: true });
  const empty = (message: string): Record<string, Json> => ({
    success: true,
    mode: 'discover',
    query: q,
    results: [],
    count: 0,
    message,
  });
  if (route.kind === 'empty' || opts.limit === 0) return empty(NO_MATCH);
  let match = route.kind === 'like' ? '' : route.match;
  let found: Hit[];
  const ranked = route.kind !== 'like' && (opts.sort ?? 'relevance') === 'relevance';
  let note = noteFor(db, ranked);
  try {
    found = bestPerConversation((n) => hits(db, route, match, agents, opts, n, note), opts.limit);
  } catch (err) {
    if (route.kind !== 'fts' || !/fts5|syntax/i.test(String((err as Error).message))) throw err;
    // The same last resort as the Hermes store: every term a quoted phrase.
    match = quoteAllTerms(route.match);
    if (!match) return empty(`${NO_MATCH} (the query could not be parsed)`);
    note = noteFor(db, ranked);
    found = bestPerConversation((n) => hits(db, route, match, agents, opts, n, note), opts.limit);
  }
  // Before the relaxed leg, whose own ranking replaces this query's record.
  const snippets = indexSnippets(
    db,
    route,
    match,
    found.map((h) => h.id),
    note,
  );
  // The relaxed leg (src/store/relaxed.ts), as over the Hermes store: the rest of a
  // short page from BM25 over any of the words, closest first, after the exact hits.
  const loose = found.length < opts.limit ? relaxedAgentHits(db, route, agents, opts, found) : null;
  if (found.length === 0 && !loose)
    return empty(NO_MATCH + missHint(db, route, match, agents, opts));
  const looseSnippets = loose
    ? indexSnippets(
        db,
        loose.route,
        loose.route.match,
        loose.hits.map((h) => h.id),
        loose.note,
      )
    : new Map<number, string>();
  const all = [...found, ...(loose?.hits ?? [])];
  // The shown rows, their conversations and their windows in three statements.
  const convs = byId(
    stmt(db, `SELECT * FROM conversations WHERE id IN (SELECT value FROM json_each(?))`).all(
      JSON.stringify(all.map((h) => h.conv_id)),
    ) as ConvRow[],
  );
  const msgs = byId(
    stmt(db, `SELECT * FROM messages WHERE id IN (SELECT value FROM json_each(?))`).all(
      JSON.stringify(all.map((h) => h.id)),
    ) as MsgRow[],
  );
  const anchors = all.map((h) => msgs.get(h.id)!);
  const views = anchoredViews(db, anchors, opts.all);
  const results = all.map((h, i) => {
    const relaxed = i >= found.length;
    const c = convs.get(h.conv_id)!;
    const m = anchors[i]!;
    const view = views[i]!;
    const entry: Record<string, Json> = {
      session_id: c.native_id,
      when: iso(c.started_at),
      source: c.source ?? c.agent,
      model: c.model ?? 'unknown',
      title: c.title,
      matched_role: m.role,
      match_message_id: m.anchor,
      snippet: relaxed ? (looseSnippets.get(m.id) ?? '') : snippet(route, snippets, m),
      bookend_start: view.bookend_start.map((x) => shape(x)),
      messages: view.messages.map((x) => shape(x, m.anchor)),
      bookend_end: view.bookend_end.map((x) => shape(x)),
      messages_before: view.messages_before,
      messages_after: view.messages_after,
      agent: c.agent,
    };
    if (c.parent_native_id) entry.parent_session_id = c.parent_native_id;
    if (c.gone) entry.gone = true;
    if ((m.flags ?? 0) & TAKEN_BACK) entry.taken_back = true;
    if (relaxed) entry.match = 'relaxed';
    return entry;
  });
  return {
    success: true,
    mode: 'discover',
    query: q,
    results,
    count: results.length,
    sessions_searched: results.length,
    ...(loose
      ? {
          relaxed_count: loose.hits.length,
          // No exact hit: the reason one may be elsewhere (tool output, --all) still says so.
          message:
            found.length === 0
              ? RELAXED_ALL + missHint(db, route, match, agents, opts)
              : RELAXED_REST,
        }
      : {}),
  };
}

/**
 * Why a search found nothing when it would have found something wider: tool
 * output is out of a default search (as in the agents' own search), and what was
 * taken back is out without --all. One cheap probe each, only on a miss.
 */
function missHint(
  db: Database.Database,
  route: Exclude<Route, { kind: 'empty' }>,
  match: string,
  agents: readonly Agent[],
  opts: AgentSearchOptions,
): string {
  const roles = opts.roles ?? ['user', 'assistant'];
  const probe = (o: AgentSearchOptions) => {
    try {
      return hits(db, route, match, agents, { ...o, limit: 1 }, 1).length > 0;
    } catch {
      return false;
    }
  };
  if (!roles.includes('tool') && probe({ ...opts, roles: ['tool'] }))
    return ` Tool output matches: add --roles ${[...roles, 'tool'].join(',')} (t in the app).`;
  if (!opts.all && probe({ ...opts, all: true }))
    return ' Messages that were taken back (rewound, reverted) match: add --all (H in the app).';
  return '';
}

/** The relaxed hits of conversations the exact ones do not hold, closest first; null if none. */
function relaxedAgentHits(
  db: Database.Database,
  route: Exclude<Route, { kind: 'empty' }>,
  agents: readonly Agent[],
  opts: AgentSearchOptions,
  exact: readonly Hit[],
): { route: Extract<Route, { kind: 'fts' | 'trigram' }>; hits: Hit[]; note: number } | null {
  const loose = relaxedRoute(route);
  if (!loose || (loose.kind !== 'fts' && loose.kind !== 'trigram')) return null;
  const seen = new Set(exact.map((h) => h.conv_id));
  const wide: AgentSearchOptions = { ...opts, sort: 'relevance', limit: opts.limit + exact.length };
  let more: Hit[];
  const note = noteFor(db, true); // always by relevance (wide.sort)
  try {
    more = bestPerConversation(
      (n) => hits(db, loose, loose.match, agents, wide, n, note),
      wide.limit,
    );
  } catch (err) {
    // Our own query should always parse; if FTS5 disagrees, the exact answer stands alone.
    if (/fts5|syntax/i.test(String((err as Error).message))) return null;
    throw err;
  }
  const fresh = more.filter((h) => !seen.has(h.conv_id)).slice(0, opts.limit - exact.length);
  return fresh.length === 0 ? null : { route: loose, hits: fresh, note };
}

/** The snippet comes from the hit's own row, never from another message. */
function snippet(
  route: Exclude<Route, { kind: 'empty' }>,
  fromIndex: ReadonlyMap<number, string>,
  m: MsgRow,
): string {
  if (route.kind === 'like') {
    const term = route.terms[0] ?? '';
    const body = m.text.includes(term) ? m.text : (m.reasoning ?? '');
    const at = Math.max(0, body.indexOf(term) - 40);
    return body.slice(at, at + 120);
  }
  return fromIndex.get(m.id) ?? '';
}

interface Slice {
  messages: MsgRow[];
  messages_before: number;
  messages_after: number;
}

function slice(
  db: Database.Database,
  anchor: MsgRow,
  window: number,
  quiet: boolean,
  takenBack = quiet,
): Slice {
  const before = (
    stmt(
      db,
      `SELECT * FROM messages WHERE conv_id = ? AND ordinal < ? AND ${visible(quiet, takenBack)} ORDER BY ordinal DESC LIMIT ?`,
    ).all(anchor.conv_id, anchor.ordinal, window) as MsgRow[]
  ).reverse();
  const after = stmt(
    db,
    `SELECT * FROM messages WHERE conv_id = ? AND ordinal > ? AND ${visible(quiet, takenBack)} ORDER BY ordinal LIMIT ?`,
  ).all(anchor.conv_id, anchor.ordinal, window) as MsgRow[];
  return {
    messages: [...before, anchor, ...after],
    messages_before: before.length,
    messages_after: after.length,
  };
}

const byId = <T extends { id: number }>(rows: T[]): Map<number, T> =>
  new Map(rows.map((r) => [r.id, r]));

/** The conversation a session id names, in the agents asked for. */
export function findConversation(
  db: Database.Database,
  agents: readonly Agent[],
  sessionId: string,
): ConvRow | null {
  const sid = sessionId.trim();
  if (!sid) return null;
  const rows = stmt(
    db,
    `SELECT * FROM conversations WHERE agent IN ${inList(agents)} AND native_id = ? ORDER BY last_active_at DESC`,
  ).all(sid) as ConvRow[];
  return rows[0] ?? null;
}

export function scrollAgentsJson(
  db: Database.Database,
  agents: readonly Agent[],
  sessionId: string,
  anchorId: string,
  window?: number,
  all = false,
): Record<string, Json> {
  const c = findConversation(db, agents, sessionId);
  if (!c) throw new StoreError(`session_id not found: ${sessionId.trim()}`, 'no-session');
  const anchor = stmt(db, `SELECT * FROM messages WHERE conv_id = ? AND anchor = ?`).get(
    c.id,
    anchorId.trim(),
  ) as MsgRow | undefined;
  if (!anchor)
    throw new StoreError(
      `around_message_id ${anchorId} not in session_id ${c.native_id}`,
      'no-message',
    );
  const w = clampWindow(window);
  // Quiet rows are part of a scroll, as they were; what was taken back only with --all.
  const s = slice(db, anchor, w, true, all);
  return {
    success: true,
    mode: 'scroll',
    session_id: c.native_id,
    around_message_id: anchor.anchor,
    session_meta: meta(c),
    window: w,
    messages: s.messages.map((m) => shape(m, anchor.anchor)),
    messages_before: s.messages_before,
    messages_after: s.messages_after,
  };
}

export function readAgentsJson(
  db: Database.Database,
  agents: readonly Agent[],
  sessionId: string,
  all = false,
): Record<string, Json> {
  const c = findConversation(db, agents, sessionId);
  if (!c) throw new StoreError(`session_id not found: ${sessionId.trim()}`, 'no-session');
  const hide = all ? FLAG.copied : OUT_OF_TRANSCRIPT;
  const total = (
    stmt(db, `SELECT count(*) AS n FROM messages WHERE conv_id = ? AND flags & ${hide} = 0`).get(
      c.id,
    ) as { n: number }
  ).n;
  const edge = (dir: string, n: number) =>
    stmt(
      db,
      `SELECT * FROM messages WHERE conv_id = ? AND flags & ${hide} = 0 ORDER BY ordinal ${dir} LIMIT ?`,
    ).all(c.id, n) as MsgRow[];
  const truncated = total > READ_SMALL;
  const messages = truncated
    ? [...edge('ASC', READ_HEAD), ...edge('DESC', READ_TAIL).reverse()]
    : edge('ASC', READ_SMALL);
  const out: Record<string, Json> = {
    success: true,
    mode: 'read',
    session_id: c.native_id,
    session_meta: meta(c),
    message_count: total,
    truncated,
    messages: messages.map((m) => shape(m)),
  };
  if (truncated)
    out.message = `Session has ${total} messages; showing first 20 + last 10. Pass around_message_id (any id above) to scroll the middle.`;
  return out;
}
