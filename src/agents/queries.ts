/**
 * The SQL both readers of the agents' index ask (the app, appReads.ts, and the
 * command line, recall.ts): one place per question, so the two cannot drift.
 * Statements are prepared by the caller's cache (`st`), once per connection.
 */
import type Database from 'better-sqlite3';
import { likePattern, type Route } from '../store/query.js';
import { folderMatch } from '../store/filters.js';
import type { Filters } from '../store/types.js';
import { AGENTS, type Agent } from './model.js';
import { RANK_WINDOW } from '../budgets.js';

export type Prepare = (sql: string) => Database.Statement | null;

/** `('claude', 'codex')`: only known agent names reach the SQL text. */
export const inList = (agents: readonly Agent[]): string =>
  `(${
    agents
      .filter((a) => (AGENTS as readonly string[]).includes(a))
      .map((a) => `'${a}'`)
      .join(', ') || "''"
  })`;

/**
 * Recent conversations, newest first. `+agent` keeps SQLite off the (agent, native_id)
 * index: through it, it read every conversation of the agents and sorted them
 * (15 ms at 10,000 conversations); walking `conversations_active` stops at `limit`.
 */
export function recentSql(
  agents: readonly Agent[],
  all: boolean,
  filter: string | null = null,
): string {
  return `SELECT * FROM conversations WHERE +agent IN ${inList(agents)} AND message_count > 0
       ${all ? '' : `AND ifnull(parent_kind, '') <> 'subagent'`}${filter ? ` AND ${filter}` : ''}
       ORDER BY last_active_at DESC LIMIT ?`;
}

/** The conversation filters (src/store/types.ts Filters) as SQL over `conversations`; null when none. */
export function conversationFilterSql(
  f: Filters | undefined,
): { sql: string; params: unknown[] } | null {
  if (!f) return null;
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.sources && f.sources.length > 0) {
    parts.push(`ifnull(source, agent) IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(f.sources));
  }
  // The index keeps milliseconds; the filters are epoch seconds (started_at, as in Hermes).
  if (f.after !== undefined) {
    parts.push(`started_at >= ?`);
    params.push(f.after * 1000);
  }
  if (f.before !== undefined) {
    parts.push(`started_at < ?`);
    params.push(f.before * 1000);
  }
  if (f.cwd !== undefined && f.cwd !== '') {
    const m = folderMatch('cwd', f.cwd);
    parts.push(m.sql);
    params.push(...m.params);
  }
  if (f.model !== undefined && f.model !== '') {
    parts.push(`instr(lower(ifnull(model, '')), lower(?)) > 0`);
    params.push(f.model);
  }
  if (f.excludeSessionIds && f.excludeSessionIds.length > 0) {
    // An excluded id stands for its conversation and the subagents it started.
    const ids = JSON.stringify(f.excludeSessionIds);
    parts.push(
      `native_id NOT IN (SELECT value FROM json_each(?)) AND ifnull(parent_native_id, '') NOT IN (SELECT value FROM json_each(?))`,
    );
    params.push(ids, ids);
  }
  return parts.length > 0 ? { sql: parts.join(' AND '), params } : null;
}

/** Keeps hits to the agents asked for; nothing when every agent is asked for. */
export function agentClause(agents: readonly Agent[]): string {
  return agents.length >= AGENTS.length && AGENTS.every((a) => agents.includes(a))
    ? ''
    : // `+` keeps the planner on the rowid order (through messages_order it sorted every row first).
      `AND +m.conv_id IN (SELECT id FROM conversations WHERE agent IN ${inList(agents)})`;
}

/** The LIKE test for 1–2 CJK characters (no index holds them), on text and reasoning. */
export function likeClause(route: Extract<Route, { kind: 'like' }>): {
  sql: string;
  params: string[];
} {
  const one = `(m.text LIKE ? ESCAPE '\\' OR m.reasoning LIKE ? ESCAPE '\\')`;
  return {
    sql: route.terms.map(() => one).join(route.combine === 'or' ? ' OR ' : ' AND '),
    params: route.terms.flatMap((t) => [likePattern(t), likePattern(t)]),
  };
}

/**
 * Relevance over the newest RANK_WINDOW matches first, best message per
 * conversation: `conv_id → message id`, in rank order. FTS5's `ORDER BY rank`
 * scores every match before it can sort (130 ms for a common word in a million
 * messages). Here FTS5 walks only its newest `window` matches (rowid order stops
 * early) and bm25() scores those; they are sorted in JS and only the best are
 * read from `messages` and filtered, a chunk at a time, until `limit`
 * conversations are found (joining and sorting the whole window in SQL cost more
 * than scoring it). When the window holds fewer than `limit` conversations it
 * widens (x4) until it covers every match; so a very common word ranks its
 * newest matches, not an old better one. `rank` is bm25() or lookback's own
 * lookback_bm25() (src/agents/rankExt.ts), which gives the same order without
 * walking each word's doclist for its document count.
 */
export function rankedPool(
  st: Prepare,
  table: 'messages_fts' | 'messages_fts_trigram',
  match: string,
  where: string,
  params: readonly unknown[],
  limit: number,
  rank: 'bm25' | 'lookback_bm25' = 'bm25',
  note = 0,
): Map<number, number> {
  // note > 0: lookback_note() records each scored row's phrase instances under that
  // number, so the shown rows' snippets need no second walk (native/snippet.c).
  const scored = st(
    `SELECT rowid, ${rank}(${table})${note > 0 ? `, lookback_note(${table}, ?)` : ''} FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?`,
  )!.raw(true);
  const keep = st(
    `SELECT m.id, m.conv_id FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND ${where}`,
  )!;
  for (let window = RANK_WINDOW; ; window *= 4) {
    const rows = (note > 0 ? scored.all(note, match, window) : scored.all(match, window)) as [
      number,
      number,
    ][];
    // Best score first; among equal scores the newest, as ORDER BY score, id DESC did.
    rows.sort((a, b) => a[1] - b[1] || b[0] - a[0]);
    const seen = new Map<number, number>();
    for (let at = 0, chunk = Math.max(64, limit * 4); at < rows.length; at += chunk, chunk *= 4) {
      const ids = rows.slice(at, at + chunk).map((r) => r[0]);
      const conv = new Map<number, number>();
      for (const r of keep.all(JSON.stringify(ids), ...params) as { id: number; conv_id: number }[])
        conv.set(r.id, r.conv_id);
      for (const id of ids) {
        const c = conv.get(id);
        if (c === undefined || seen.has(c)) continue;
        seen.set(c, id);
        if (seen.size >= limit) return seen;
      }
    }
    if (rows.length < window) return seen;
  }
}
