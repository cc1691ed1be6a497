/**
 * What the interactive app reads from the agents' index: Recent rows, search hits
 * (only what a results row shows: no anchored views), message pages by ordinal,
 * hit lists inside one conversation. SQL only; src/app/data/agentSource.ts turns
 * these rows into the app's view models. Every statement is prepared once.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { likePattern, quoteAllTerms, routeQuery, type Route } from '../store/query.js';
import { threadPageCache } from '../store/open.js';
import { termsFromQuery } from '../text/highlight.js';
import { INDEX_LAYOUT } from './indexDb.js';
import { rankFunction } from './rankExt.js';
import { FLAG, OUT_OF_TRANSCRIPT, type Agent, type MessageRow } from './model.js';
import type { Filters } from '../store/types.js';
import {
  agentClause,
  conversationFilterSql,
  inList,
  likeClause,
  rankedPool,
  recentSql,
} from './queries.js';

/** Quiet rows (injected context, bookkeeping), copies and what was taken back (rewound turns, abandoned branches) stay out of the app as out of default answers. */
const VISIBLE = `flags & ${OUT_OF_TRANSCRIPT} = 0 AND kind NOT IN ('injected', 'meta')`;
/** With hidden shown (H): what was taken back too, marked; never a copy, never a quiet row. */
const WITH_TAKEN_BACK = `flags & ${FLAG.copied} = 0 AND kind NOT IN ('injected', 'meta')`;

export interface AppConv {
  id: number;
  agent: Agent;
  native_id: string;
  parent_native_id: string | null;
  parent_kind: string | null;
  title: string | null;
  cwd: string | null;
  model: string | null;
  source: string | null;
  started_at: number | null;
  last_active_at: number | null;
  gone: number;
  message_count: number;
  preview: string | null;
}

export interface AppMsg extends Omit<MessageRow, 'model' | 'tokens' | 'flags' | 'original_len'> {
  /** FLAG bits (model.ts): what was taken back is marked when shown. */
  flags?: number;
}

export interface AppHit {
  conv: AppConv;
  msg: AppMsg;
  /** From the hit's own row; FTS snippets carry the markers given. */
  snippet: string;
}

/**
 * A read-only connection to the index for the app. The index is written by the
 * background worker; until it exists (first start) every read answers empty.
 */
export class IndexReader {
  private db: Database.Database | null = null;
  /** H (show hidden): messages that were taken back are read too (the app marks them). */
  showTakenBack = false;
  private stmts = new Map<string, Database.Statement>();

  constructor(
    readonly file: string,
    readonly agents: readonly Agent[],
  ) {}

  /** The open connection, opened on first use once the worker has created the index. */
  private conn(): Database.Database | null {
    if (this.db) return this.db;
    if (!existsSync(this.file)) return null;
    try {
      const db = new Database(this.file, { readonly: true, fileMustExist: true, timeout: 2000 });
      // The app's threads read with their small page cache (src/store/open.ts smallPageCache).
      threadPageCache(db);
      if ((db.pragma('user_version', { simple: true }) as number) !== INDEX_LAYOUT) {
        db.close();
        return null;
      }
      this.db = db;
      return db;
    } catch {
      return null;
    }
  }

  private st(sql: string): Database.Statement | null {
    const db = this.conn();
    if (!db) return null;
    let s = this.stmts.get(sql);
    if (!s) {
      s = db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  private visible(): string {
    return this.showTakenBack ? WITH_TAKEN_BACK : VISIBLE;
  }

  /** Changes whenever the worker commits (PRAGMA data_version of this connection). */
  version(): number {
    const db = this.conn();
    return db ? (db.pragma('data_version', { simple: true }) as number) : 0;
  }

  /** Newest activity first; `filters` (the search line's chips) applied on the conversation row, as the CLI does. */
  recent(
    limit: number,
    all: boolean,
    filters?: Filters,
    agents: readonly Agent[] = this.agents,
  ): AppConv[] {
    const f = conversationFilterSql(filters);
    return (this.st(recentSql(agents, all, f?.sql ?? null))?.all(...(f?.params ?? []), limit) ??
      []) as AppConv[];
  }

  /** The search line's completions (`source:`, `model:`, `cwd:`): distinct values, newest first, bounded. */
  values(limit: number): { sources: string[]; models: string[]; folders: string[] } {
    const col = (expr: string): string[] =>
      (
        (this.st(
          `SELECT ${expr} AS v FROM conversations
           WHERE agent IN (SELECT value FROM json_each(?)) AND ${expr} IS NOT NULL AND ${expr} <> ''
           GROUP BY ${expr} ORDER BY max(last_active_at) DESC LIMIT ?`,
        )?.all(JSON.stringify(this.agents), limit) ?? []) as { v: unknown }[]
      ).map((r) => String(r.v));
    return { sources: col('ifnull(source, agent)'), models: col('model'), folders: col('cwd') };
  }

  conversation(agent: string, nativeId: string): AppConv | null {
    return (this.st(`SELECT * FROM conversations WHERE agent = ? AND native_id = ?`)?.get(
      agent,
      nativeId,
    ) ?? null) as AppConv | null;
  }

  conversationById(id: number): AppConv | null {
    return (this.st(`SELECT * FROM conversations WHERE id = ?`)?.get(id) ?? null) as AppConv | null;
  }

  /** Session ids starting with a prefix (a pasted id), newest first. */
  byPrefix(prefix: string, limit: number): AppConv[] {
    return (this.st(
      `SELECT * FROM conversations WHERE agent IN ${inList(this.agents)} AND native_id >= ? AND native_id < ? || char(1114111)
       ORDER BY last_active_at DESC LIMIT ?`,
    )?.all(prefix, prefix, limit) ?? []) as AppConv[];
  }

  message(convId: number, ordinal: number): AppMsg | null {
    return (this.st(
      `SELECT * FROM messages WHERE conv_id = ? AND ordinal = ? AND ${this.visible()}`,
    )?.get(convId, ordinal) ?? null) as AppMsg | null;
  }

  messageByAnchor(convId: number, anchor: string): AppMsg | null {
    return (this.st(`SELECT * FROM messages WHERE conv_id = ? AND anchor = ?`)?.get(
      convId,
      anchor,
    ) ?? null) as AppMsg | null;
  }

  after(convId: number, ordinal: number, n: number): AppMsg[] {
    return (this.st(
      `SELECT * FROM messages WHERE conv_id = ? AND ordinal > ? AND ${this.visible()} ORDER BY ordinal LIMIT ?`,
    )?.all(convId, ordinal, n) ?? []) as AppMsg[];
  }

  before(convId: number, ordinal: number, n: number): AppMsg[] {
    const rows = (this.st(
      `SELECT * FROM messages WHERE conv_id = ? AND ordinal < ? AND ${this.visible()} ORDER BY ordinal DESC LIMIT ?`,
    )?.all(convId, ordinal, n) ?? []) as AppMsg[];
    return rows.reverse();
  }

  countVisible(convId: number): number {
    const r = this.st(
      `SELECT count(*) AS n FROM messages WHERE conv_id = ? AND ${this.visible()}`,
    )?.get(convId) as { n: number } | undefined;
    return r?.n ?? 0;
  }

  countBefore(convId: number, ordinal: number): number {
    const r = this.st(
      `SELECT count(*) AS n FROM messages WHERE conv_id = ? AND ordinal < ? AND ${this.visible()}`,
    )?.get(convId, ordinal) as { n: number } | undefined;
    return r?.n ?? 0;
  }

  /** Which of these ordinals are still shown (the live recovery check). */
  visibleOrdinals(convId: number, ordinals: readonly number[]): number[] {
    if (ordinals.length === 0) return [];
    return (
      (this.st(
        `SELECT ordinal FROM messages WHERE conv_id = ? AND ${this.visible()} AND ordinal IN (SELECT value FROM json_each(?))`,
      )?.all(convId, JSON.stringify(ordinals)) ?? []) as { ordinal: number }[]
    ).map((r) => r.ordinal);
  }

  /**
   * Ordinals of the shown messages of one conversation whose text, reasoning, tool
   * name or tool calls contain `text` (find within the conversation, as for the
   * Hermes store: a bounded substring scan, ASCII case folded by LIKE).
   */
  findOrdinals(convId: number, text: string, max: number): number[] {
    const t = text.trim();
    if (t === '') return [];
    const p = likePattern(t);
    const like = (col: string): string => `${col} LIKE ? ESCAPE '\\'`;
    return (
      (this.st(
        `SELECT ordinal FROM messages WHERE conv_id = ? AND ${this.visible()}
           AND (${like('text')} OR ${like('reasoning')} OR ${like('tool_name')} OR ${like('tool_calls')})
         ORDER BY ordinal LIMIT ?`,
      )?.all(convId, p, p, p, p, max) ?? []) as { ordinal: number }[]
    ).map((r) => r.ordinal);
  }

  /** Ordinals of every hit of `query` in one conversation, in order (n/N). */
  hitOrdinals(convId: number, query: string, roles: readonly string[]): number[] {
    const route = routeQuery(query, { fts: true, trigram: true });
    if (route.kind === 'empty') return [];
    const rolesJson = JSON.stringify(roles.length > 0 ? roles : ['user', 'assistant']);
    const where = `m.conv_id = ? AND m.role IN (SELECT value FROM json_each(?)) AND m.${this.visible().replace(/ AND /g, ' AND m.')}`;
    const run = (match: string): number[] => {
      if (route.kind === 'like') {
        const { sql, params } = likeClause(route);
        return (
          this.st(
            `SELECT m.ordinal FROM messages m WHERE (${sql}) AND ${where} ORDER BY m.ordinal`,
          )?.all(...params, convId, rolesJson) ?? []
        ).map((r) => (r as { ordinal: number }).ordinal);
      }
      const table = route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
      return (
        this.st(
          `SELECT m.ordinal FROM ${table} f JOIN messages m ON m.id = f.rowid
           WHERE ${table} MATCH ? AND ${where} ORDER BY m.ordinal`,
        )?.all(match, convId, rolesJson) ?? []
      ).map((r) => (r as { ordinal: number }).ordinal);
    };
    return withFallback(route, run);
  }

  /** Which messages may be hits: roles, what is shown, the agents and the chips' filters. */
  private hitWhere(opts: {
    roles: readonly string[];
    agents?: readonly Agent[];
    filters?: Filters | undefined;
  }): { where: string; params: unknown[] } {
    const agents = opts.agents ?? this.agents;
    const rolesJson = JSON.stringify(opts.roles.length > 0 ? opts.roles : ['user', 'assistant']);
    const f = conversationFilterSql(opts.filters);
    // The chips filter the conversation row, as the CLI's answer does (agents/queries.ts).
    const convFilter = f
      ? `AND +m.conv_id IN (SELECT id FROM conversations WHERE agent IN ${inList(agents)} AND ${f.sql})`
      : agentClause(agents);
    const where = `m.role IN (SELECT value FROM json_each(?)) AND m.${this.visible().replace(/ AND /g, ' AND m.')} ${convFilter}`;
    return { where, params: [rolesJson, ...(f?.params ?? [])] };
  }

  /**
   * How many conversations hold a hit (the "50 of 441" count), reading at most
   * `cap` matching messages: past that the count is a floor (`capped`).
   */
  countConversations(
    query: string,
    opts: { roles: readonly string[]; agents?: readonly Agent[]; filters?: Filters | undefined },
    cap: number,
  ): { count: number; capped: boolean } {
    const route = routeQuery(query, { fts: true, trigram: true });
    if (route.kind === 'empty' || !this.conn()) return { count: 0, capped: false };
    const { where, params } = this.hitWhere(opts);
    let ids: number[];
    if (route.kind === 'like') {
      const like = likeClause(route);
      ids = this.st(`SELECT m.conv_id FROM messages m WHERE (${like.sql}) AND ${where} LIMIT ?`)!
        .pluck()
        .all(...like.params, ...params, cap) as number[];
    } else {
      const table = route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
      const run = (m: string): number[] =>
        this.st(
          `SELECT m.conv_id FROM ${table} f JOIN messages m ON m.id = f.rowid
           WHERE ${table} MATCH ? AND ${where} LIMIT ?`,
        )!
          .pluck()
          .all(m, ...params, cap) as number[];
      try {
        ids = run(route.match);
      } catch (err) {
        if (route.kind !== 'fts' || !/fts5|syntax/i.test(String((err as Error).message))) throw err;
        const quoted = quoteAllTerms(route.match);
        ids = quoted ? run(quoted) : [];
      }
    }
    return { count: new Set(ids).size, capped: ids.length >= cap };
  }

  /**
   * One hit per conversation, best first (or newest/oldest), hydrated only for the
   * `limit` conversations returned: a pool of hit ids first, deduped in JS, then
   * one row read per shown result (src/store/search.ts does the same).
   */
  search(
    query: string,
    opts: {
      limit: number;
      roles: readonly string[];
      sort: 'relevance' | 'newest' | 'oldest';
      markers: [string, string];
      agents?: readonly Agent[];
      filters?: Filters;
    },
  ): AppHit[] {
    const route = routeQuery(query, { fts: true, trigram: true });
    if (route.kind === 'empty' || opts.limit <= 0 || !this.conn()) return [];
    const { where, params: whereParams } = this.hitWhere(opts);
    type Row = { id: number; conv_id: number };
    const pick = (rows: Row[], seen: Map<number, number>): void => {
      for (const r of rows) if (!seen.has(r.conv_id)) seen.set(r.conv_id, r.id);
    };
    let chosen: Map<number, number>;
    let match = route.kind === 'like' ? '' : route.match;
    if (route.kind === 'like') {
      // No index for 1–2 CJK characters: a keyset scan newest-first, page by page,
      // that stops once it has `limit` conversations.
      const { sql, params } = likeClause(route);
      const desc = opts.sort !== 'oldest';
      const page = this.st(
        `SELECT m.id, m.conv_id FROM messages m WHERE m.id ${desc ? '<' : '>'} ? AND (${sql}) AND ${where}
         ORDER BY m.id ${desc ? 'DESC' : 'ASC'} LIMIT ?`,
      )!;
      chosen = new Map();
      let cursor = desc ? Number.MAX_SAFE_INTEGER : 0;
      for (let n = 64; chosen.size < opts.limit; n = Math.min(n * 4, 4096)) {
        const rows = page.all(cursor, ...params, ...whereParams, n) as Row[];
        pick(rows, chosen);
        if (rows.length < n) break;
        cursor = rows[rows.length - 1]!.id;
      }
    } else {
      const table = route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
      const fill = (m: string): Map<number, number> => {
        if (opts.sort === 'newest' || opts.sort === 'oldest') {
          // Time order needs no scores: FTS5 walks its rowids (insertion order) and stops.
          const dir = opts.sort === 'newest' ? 'DESC' : 'ASC';
          const page = this.st(
            `SELECT m.id, m.conv_id FROM ${table} f JOIN messages m ON m.id = f.rowid
             WHERE ${table} MATCH ? AND ${where} ORDER BY f.rowid ${dir} LIMIT ?`,
          )!;
          for (let n = Math.max(64, opts.limit * 5); ; n *= 8) {
            const rows = page.all(m, ...whereParams, n) as Row[];
            const seen = new Map<number, number>();
            pick(rows, seen);
            if (seen.size >= opts.limit || rows.length < n) return seen;
          }
        }
        const db = this.conn();
        const rank = db ? rankFunction(db, table, m) : 'bm25';
        return rankedPool((sql) => this.st(sql), table, m, where, whereParams, opts.limit, rank);
      };
      try {
        chosen = fill(match);
      } catch (err) {
        if (route.kind !== 'fts' || !/fts5|syntax/i.test(String((err as Error).message))) throw err;
        match = quoteAllTerms(route.match);
        if (!match) return [];
        chosen = fill(match);
      }
    }
    const out: AppHit[] = [];
    const msgStmt = this.st(`SELECT * FROM messages WHERE id = ?`)!;
    for (const [convId, id] of [...chosen].slice(0, opts.limit)) {
      const conv = this.conversationById(convId);
      const msg = msgStmt.get(id) as AppMsg | undefined;
      if (!conv || !msg) continue;
      out.push({ conv, msg, snippet: this.snippet(query, msg) });
    }
    return out;
  }

  /**
   * The snippet, cut in JS from the hit's own text around the first query term:
   * FTS5's snippet() re-runs the MATCH per row, which costs about 1 ms a row for a
   * prefix query (`deploy*`); the app highlights the terms itself (rows.ts).
   */
  private snippet(query: string, m: AppMsg): string {
    const terms = termsFromQuery(query).map((t) => t.replace(/\*$/, '').toLowerCase());
    for (const body of [m.text, m.reasoning ?? '']) {
      const lower = body.toLowerCase();
      let at = -1;
      for (const t of terms) {
        const i = t ? lower.indexOf(t) : -1;
        if (i >= 0 && (at < 0 || i < at)) at = i;
      }
      if (at < 0) continue;
      const from = Math.max(0, at - 60);
      const to = Math.min(body.length, at + 160);
      return `${from > 0 ? '...' : ''}${body.slice(from, to)}${to < body.length ? '...' : ''}`;
    }
    return m.text.slice(0, 200);
  }

  close(): void {
    this.stmts.clear();
    this.db?.close();
    this.db = null;
  }
}

function withFallback<T>(
  route: Exclude<Route, { kind: 'empty' }>,
  run: (match: string) => T[],
): T[] {
  const match = route.kind === 'like' ? '' : route.match;
  try {
    return run(match);
  } catch (err) {
    if (route.kind !== 'fts' || !/fts5|syntax/i.test(String((err as Error).message))) throw err;
    const q = quoteAllTerms(route.match);
    return q ? run(q) : [];
  }
}
