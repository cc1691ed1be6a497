// Creating stores and writing rows into any of the three layouts. Rows are
// partial objects: only columns that exist in the open store are written, so
// one row shape serves every schema version and SQL defaults fill the rest.

import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { schemaSql, type Layout } from './schema.js';

type Db = Database.Database;
type Statement = Database.Statement;

export type SqlValue = string | number | bigint | Buffer | null;
export type Journal = 'wal' | 'delete';

/** Fixed default "now" (2026-11-18) so generated stores are reproducible. */
export const DEFAULT_NOW = 1795000000;

/** Every sessions column of the newest layout (a superset of the older ones). */
export const SESSION_COLUMNS = [
  'id',
  'source',
  'created_source',
  'user_id',
  'session_key',
  'chat_id',
  'chat_type',
  'thread_id',
  'display_name',
  'origin_json',
  'expiry_finalized',
  'model',
  'model_config',
  'system_prompt',
  'system_prompt_hash',
  'parent_session_id',
  'started_at',
  'ended_at',
  'end_reason',
  'message_count',
  'tool_call_count',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'cwd',
  'git_branch',
  'git_repo_root',
  'git_metadata_generation',
  'billing_provider',
  'billing_base_url',
  'billing_mode',
  'estimated_cost_usd',
  'actual_cost_usd',
  'cost_status',
  'cost_source',
  'pricing_version',
  'title',
  'title_source',
  'last_activity_at',
  'last_activity_description',
  'last_activity_provenance',
  'api_call_count',
  'handoff_state',
  'handoff_platform',
  'handoff_error',
  'compression_failure_cooldown_until',
  'compression_failure_error',
  'compression_fallback_streak',
  'compression_ineffective_count',
  'compression_recovery_deadline',
  'compression_overload_streak',
  'profile_name',
  'transport_profile',
  'rewind_count',
  'archived',
  'pinned',
  'hidden',
  'last_read_at',
  'tool_names',
] as const;

/** Every messages column of the newest layout (a superset of the older ones). */
export const MESSAGE_COLUMNS = [
  'id',
  'session_id',
  'role',
  'content',
  'tool_call_id',
  'tool_calls',
  'tool_name',
  'effect_disposition',
  'timestamp',
  'token_count',
  'finish_reason',
  'reasoning',
  'reasoning_content',
  'reasoning_details',
  'codex_reasoning_items',
  'codex_message_items',
  'platform_message_id',
  'observed',
  '_compressed_summary',
  'active',
  'compacted',
  'api_content',
  'display_kind',
  'display_metadata',
  'display_identity',
  'display_order',
] as const;

export type SessionColumn = (typeof SESSION_COLUMNS)[number];
export type MessageColumn = (typeof MESSAGE_COLUMNS)[number];
export type SessionInput = Partial<Record<SessionColumn, SqlValue>>;
export type MessageInput = { session_id: string } & Partial<Record<MessageColumn, SqlValue>>;

export interface CreateStoreOptions {
  withFts?: boolean;
  journal?: Journal;
}

export function defaultJournal(layout: Layout): Journal {
  return layout === 6 ? 'delete' : 'wal';
}

const SIDECARS = ['', '-wal', '-shm', '-journal'];

/**
 * Creates the file exclusively so two writers can never share it, and refuses
 * stale sidecars too: SQLite would replay a leftover -wal into the new store.
 */
export function claimNewFile(path: string): void {
  for (const suffix of SIDECARS) {
    if (existsSync(path + suffix)) {
      throw new Error(`refusing to overwrite existing file: ${path + suffix}`);
    }
  }
  try {
    closeSync(openSync(path, 'wx'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new Error(`refusing to overwrite existing file: ${path}`, { cause: err });
    }
    throw err;
  }
}

/** Removes a store we created and failed to finish, with any sidecars. */
export function discardFile(path: string): void {
  for (const suffix of SIDECARS) rmSync(path + suffix, { force: true });
}

/** Schema, version row and the metadata the agent writes at creation. */
export function writeSchema(db: Db, layout: Layout, withFts: boolean): void {
  db.exec(schemaSql(layout, withFts));
  db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(layout);
  if (layout === 30 && withFts) {
    db.prepare("INSERT INTO state_meta (key, value) VALUES ('fts_storage_version', '3')").run();
  }
}

/** Puts the requested journal mode on disk and leaves the main file complete. */
export function finishJournal(db: Db, journal: Journal): void {
  if (journal === 'wal') {
    db.pragma('main.journal_mode = WAL');
    db.pragma('main.wal_checkpoint(TRUNCATE)');
  } else {
    db.pragma('main.journal_mode = DELETE');
  }
}

/** Creates a store holding only the schema of `layout`. */
export function createEmptyStore(
  path: string,
  layout: Layout,
  opts: CreateStoreOptions = {},
): void {
  claimNewFile(path);
  let db: Db | undefined;
  try {
    db = new Database(path);
    writeSchema(db, layout, opts.withFts ?? true);
    finishJournal(db, opts.journal ?? defaultJournal(layout));
    db.close();
  } catch (err) {
    db?.close();
    discardFile(path);
    throw err;
  }
}

/**
 * Cached column sets and INSERT statements for one connection. Statements are
 * keyed by the written column list, so a caller writing uniform rows (the
 * generator) prepares each statement exactly once.
 */
export class StoreWriter {
  private readonly columns = new Map<string, Set<string>>();
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  insert(
    table: 'sessions' | 'messages' | 'system_prompts',
    row: Readonly<Record<string, SqlValue | undefined>>,
  ): Database.RunResult {
    const cols = this.columnsOf(table);
    const names: string[] = [];
    const values: SqlValue[] = [];
    for (const key in row) {
      const value = row[key];
      if (value === undefined || !cols.has(key)) continue;
      names.push(key);
      values.push(value);
    }
    const key = `${table}\u0000${names.join(',')}`;
    let stmt = this.statements.get(key);
    if (!stmt) {
      const verb = table === 'system_prompts' ? 'INSERT OR IGNORE' : 'INSERT';
      const sql = `${verb} INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
      stmt = this.db.prepare(sql);
      this.statements.set(key, stmt);
    }
    return stmt.run(values);
  }

  private columnsOf(table: string): Set<string> {
    let cols = this.columns.get(table);
    if (!cols) {
      const info = this.db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as {
        name: string;
      }[];
      cols = new Set(info.map((c) => c.name));
      this.columns.set(table, cols);
    }
    return cols;
  }
}

/**
 * Bulk message writer. Rows are staged in a TEMP table and moved with one
 * `INSERT INTO messages ... SELECT` per batch, so the store's own triggers
 * still index every row. One statement per row would be several times slower:
 * each trigger-firing statement opens a savepoint, and FTS5 flushes its
 * pending index data to a new segment at every savepoint.
 */
export class MessageBatch {
  private readonly columns: string[];
  private readonly stage: Statement;
  private readonly move: Statement;
  private readonly clear: Statement;
  private pending = 0;

  constructor(private readonly db: Db) {
    const info = db.prepare(`SELECT name, dflt_value FROM pragma_table_info('messages')`).all() as {
      name: string;
      dflt_value: string | null;
    }[];
    const cols = info.filter((c) => c.name !== 'id');
    this.columns = cols.map((c) => c.name);
    const list = this.columns.join(', ');
    db.exec(`CREATE TEMP TABLE demo_message_staging AS SELECT ${list} FROM main.messages WHERE 0`);
    this.stage = db.prepare(
      `INSERT INTO temp.demo_message_staging (${list}) VALUES (${this.columns.map(() => '?').join(', ')})`,
    );
    // Staging drops constraints, so restore column defaults for values left out.
    const select = cols
      .map((c) => (c.dflt_value === null ? c.name : `COALESCE(${c.name}, ${c.dflt_value})`))
      .join(', ');
    this.move = db.prepare(
      `INSERT INTO main.messages (${list}) SELECT ${select} FROM temp.demo_message_staging ORDER BY rowid`,
    );
    this.clear = db.prepare('DELETE FROM temp.demo_message_staging');
  }

  get size(): number {
    return this.pending;
  }

  add(row: Readonly<Record<string, SqlValue | undefined>>): void {
    this.stage.run(this.columns.map((c) => row[c] ?? null));
    this.pending++;
  }

  flush(): void {
    if (this.pending === 0) return;
    this.move.run();
    this.clear.run();
    this.pending = 0;
  }

  /** Flushes and drops the staging table (a journal-mode switch needs it gone). */
  close(): void {
    this.flush();
    this.db.exec('DROP TABLE temp.demo_message_staging');
  }
}

const writers = new WeakMap<Db, StoreWriter>();

function writerFor(db: Db): StoreWriter {
  let w = writers.get(db);
  if (!w) {
    w = new StoreWriter(db);
    writers.set(db, w);
  }
  return w;
}

/** Agent-style id `YYYYMMDD_HHMMSS_<6 hex>` (UTC) for a start time. */
export function sessionIdFor(startedAt: number, hex6: string): string {
  const iso = new Date(Math.floor(startedAt) * 1000).toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  return `${stamp}_${hex6}`;
}

/**
 * Inserts one session row, writing only the columns this store has. Defaults:
 * source `cli`, started_at DEFAULT_NOW, an agent-style id derived from the
 * start time and the current row count (deterministic for a given store).
 * Returns the id.
 */
export function insertSession(db: Db, row: SessionInput = {}): string {
  const startedAt = typeof row.started_at === 'number' ? row.started_at : DEFAULT_NOW;
  let id = row.id;
  if (typeof id !== 'string') {
    const n = (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
    const hex = createHash('sha1').update(`${startedAt}:${n}`).digest('hex').slice(0, 6);
    id = sessionIdFor(startedAt, hex);
  }
  writerFor(db).insert('sessions', {
    ...row,
    id,
    source: row.source ?? 'cli',
    started_at: startedAt,
  });
  return id;
}

export interface InsertMessageOptions {
  /** Bump the session's message_count (and tool_call_count for tool rows) like the agent does. Default true. */
  updateCounts?: boolean;
}

/**
 * Inserts one message with a plain INSERT so the store's own triggers index it.
 * Defaults: role `user`, content '', timestamp one second after the session's
 * newest message (or its start). Returns the new message id.
 */
export function insertMessage(db: Db, row: MessageInput, opts: InsertMessageOptions = {}): number {
  let timestamp = row.timestamp;
  if (typeof timestamp !== 'number') {
    const last = db
      .prepare(
        `SELECT COALESCE((SELECT max(timestamp) FROM messages WHERE session_id = ?),
                         (SELECT started_at FROM sessions WHERE id = ?)) AS t`,
      )
      .get(row.session_id, row.session_id) as { t: number | null };
    timestamp = (last.t ?? DEFAULT_NOW) + 1;
  }
  const role = row.role ?? 'user';
  const content = row.content === undefined ? '' : row.content;
  const result = writerFor(db).insert('messages', { ...row, role, content, timestamp });
  if (opts.updateCounts ?? true) {
    db.prepare(
      `UPDATE sessions SET message_count = COALESCE(message_count, 0) + 1,
         tool_call_count = COALESCE(tool_call_count, 0) + ? WHERE id = ?`,
    ).run(role === 'tool' ? 1 : 0, row.session_id);
  }
  return Number(result.lastInsertRowid);
}
