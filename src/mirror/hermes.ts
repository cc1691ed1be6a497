/**
 * lookback's own copy of a Hermes session store that does not live in a local
 * `state.db` (a PostgreSQL-backed profile; a store on another machine): a
 * SQLite file laid out as the agent's `state.db`, so every reader of a local
 * profile (browse, search, scroll, read, lineage, the app) reads it unchanged
 * and answers exactly as it would on the same rows in SQLite.
 *
 * The feed decides what changed and hands plain rows, in the agent's column
 * names and in their SQLite form (structured content as "\u0000json:" + JSON),
 * to `applySessions` / `applyMessages`. Each `transaction()` is one SQLite
 * transaction in WAL mode: a reader sees the mirror before or after a sync,
 * never half of one. The file lives in lookback's cache, never in an agent's
 * home, and it is the only thing here that is ever written.
 *
 * Full-text indexes are the August 2026 agent's (schema 26, STORE.md "What
 * lookback does on a PostgreSQL profile"): `messages_fts(content, tool_name,
 * tool_calls)` over every row, tool rows in full, and `messages_fts_trigram`
 * with the same columns over every non-tool row, kept by triggers, so BM25,
 * snippets and the CJK route are those of that store.
 *
 * Why one file of ~530 lines: one class that owns one file's schema (DDL,
 * column normalisation, affinities) and its writes; splitting the schema from
 * the writer would expose the column rules both must agree on.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { sqlite, type Database, type Statement } from '../store/sqlite.js';
import { MIRROR_WRITE_WAIT_MS } from '../budgets.js';

/** A SQLite type affinity for a mirrored column (the feed maps its source's types to one). */
export type Affinity = 'INTEGER' | 'REAL' | 'TEXT' | 'BLOB' | '';

export interface ColumnSpec {
  name: string;
  type?: Affinity;
}

/** Which columns the mirror's `sessions` and `messages` hold: the source's own, as it has them. */
export interface MirrorColumns {
  sessions: readonly ColumnSpec[];
  messages: readonly ColumnSpec[];
}

/** A row in the agent's column names; columns the mirror does not hold are ignored. */
export type Row = Record<string, unknown>;

export interface Watermarks {
  /** The highest message id mirrored (null: none yet). */
  maxMessageId: number | null;
  messages: number;
  sessions: number;
}

const REQUIRED: MirrorColumns = {
  sessions: [
    { name: 'id', type: 'TEXT' },
    { name: 'source', type: 'TEXT' },
    { name: 'parent_session_id', type: 'TEXT' },
    { name: 'started_at', type: 'REAL' },
  ],
  messages: [
    { name: 'id', type: 'INTEGER' },
    { name: 'session_id', type: 'TEXT' },
    { name: 'role', type: 'TEXT' },
    { name: 'content', type: 'TEXT' },
    { name: 'timestamp', type: 'REAL' },
  ],
};

/** A column name as the agent writes them: a bare identifier, quoted anyway. */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const q = (name: string) => `"${name}"`;

function normalise(cols: MirrorColumns): MirrorColumns {
  const fix = (own: readonly ColumnSpec[], need: readonly ColumnSpec[]) => {
    const out = new Map<string, ColumnSpec>();
    for (const c of need) out.set(c.name, c);
    for (const c of own) {
      if (!IDENT.test(c.name)) continue;
      if (!out.has(c.name)) out.set(c.name, { name: c.name, type: c.type ?? '' });
    }
    // The FTS triggers read these three; a store without tool columns gets them empty.
    return [...out.values()];
  };
  const messages = fix(cols.messages, REQUIRED.messages);
  for (const name of ['tool_name', 'tool_calls'])
    if (!messages.some((c) => c.name === name)) messages.push({ name, type: 'TEXT' });
  return { sessions: fix(cols.sessions, REQUIRED.sessions), messages };
}

function columnsKey(cols: MirrorColumns): string {
  const part = (cs: readonly ColumnSpec[]) => cs.map((c) => `${c.name}:${c.type ?? ''}`).join(',');
  return `s=${part(cols.sessions)};m=${part(cols.messages)}`;
}

/** The triggers that keep both full-text indexes as rows change. */
const FTS_TRIGGERS = `
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
  VALUES (new.id, new.content, new.tool_name, new.tool_calls);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
  VALUES ('delete', old.id, old.content, old.tool_name, old.tool_calls);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, tool_name, tool_calls ON messages
WHEN old.content IS NOT new.content OR old.tool_name IS NOT new.tool_name
  OR old.tool_calls IS NOT new.tool_calls
BEGIN
  INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls)
  VALUES ('delete', old.id, old.content, old.tool_name, old.tool_calls);
  INSERT INTO messages_fts(rowid, content, tool_name, tool_calls)
  VALUES (new.id, new.content, new.tool_name, new.tool_calls);
END;
CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages WHEN new.role <> 'tool' BEGIN
  INSERT INTO messages_fts_trigram(rowid, content, tool_name, tool_calls)
  VALUES (new.id, new.content, new.tool_name, new.tool_calls);
END;
CREATE TRIGGER messages_fts_trigram_delete AFTER DELETE ON messages WHEN old.role <> 'tool' BEGIN
  INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name, tool_calls)
  VALUES ('delete', old.id, old.content, old.tool_name, old.tool_calls);
END;
CREATE TRIGGER messages_fts_trigram_update_old AFTER UPDATE OF role, content, tool_name, tool_calls ON messages
WHEN old.role <> 'tool' BEGIN
  INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, content, tool_name, tool_calls)
  VALUES ('delete', old.id, old.content, old.tool_name, old.tool_calls);
END;
CREATE TRIGGER messages_fts_trigram_update_new AFTER UPDATE OF role, content, tool_name, tool_calls ON messages
WHEN new.role <> 'tool' BEGIN
  INSERT INTO messages_fts_trigram(rowid, content, tool_name, tool_calls)
  VALUES (new.id, new.content, new.tool_name, new.tool_calls);
END;
`;

const FTS_TRIGGER_NAMES = [...FTS_TRIGGERS.matchAll(/CREATE TRIGGER (\w+)/g)].map((m) => m[1]!);

function ddl(cols: MirrorColumns, schemaVersion: number | null): string {
  const colDefs = (cs: readonly ColumnSpec[], key: string, keyType: string) =>
    cs
      .map((c) =>
        c.name === key ? `${q(c.name)} ${keyType} PRIMARY KEY` : `${q(c.name)} ${c.type ?? ''}`,
      )
      .join(',\n  ');
  const trigramSrc = `SELECT id, role, content, tool_name, tool_calls FROM messages WHERE role <> 'tool'`;
  return `
PRAGMA journal_mode = WAL;
CREATE TABLE schema_version (version INTEGER NOT NULL);
${schemaVersion !== null ? `INSERT INTO schema_version VALUES (${Math.trunc(schemaVersion)});` : ''}
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE lookback_mirror (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE lookback_fp (kind TEXT NOT NULL, id TEXT NOT NULL, fp TEXT NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
CREATE TABLE sessions (
  ${colDefs(cols.sessions, 'id', 'TEXT')}
);
CREATE TABLE messages (
  ${colDefs(cols.messages, 'id', 'INTEGER')}
);
CREATE INDEX idx_sessions_source ON sessions(source);
CREATE INDEX idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX idx_sessions_started ON sessions(started_at DESC);
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE INDEX idx_messages_session_id ON messages(session_id, id);
CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls,
  content='messages', content_rowid='id');
CREATE VIEW messages_fts_trigram_src AS ${trigramSrc};
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls,
  content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
${FTS_TRIGGERS}`;
}

/** A value SQLite can bind: booleans as 0/1, objects (a driver's JSON or dates) as text. */
function bindable(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' || typeof v === 'string' || Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (v instanceof Date) return v.getTime() / 1000;
  return JSON.stringify(v);
}

export interface OpenMirrorOptions {
  /** The source's columns; a mirror built with other columns is rebuilt from scratch. */
  columns: MirrorColumns;
  /** The source's `schema_version` (null: none), written into the mirror's own table. */
  schemaVersion?: number | null;
  /** Build a new mirror whatever the file holds (the source was replaced or reset). */
  rebuild?: boolean;
  /**
   * A new mirror is filled beside the file and put in its place by `publish()`
   * after its first commit, so a reader never sees it half filled (the ssh feed,
   * whose first copy comes in one stream). Without it the empty mirror is in
   * place at once and the feed's own transactions keep readers whole.
   */
  aside?: boolean;
}

/**
 * A writable handle on one mirror file. Open it for a sync, apply rows inside
 * `transaction()`, close it: nothing is held between syncs.
 */
export class HermesMirror {
  readonly columns: MirrorColumns;
  /** True when this open created the file (or rebuilt it for new columns): a first sync. */
  readonly fresh: boolean;
  private readonly statements = new Map<string, Statement>();
  private readonly sessionCols: Set<string>;
  private readonly messageCols: Set<string>;

  private constructor(
    readonly path: string,
    private db: Database,
    columns: MirrorColumns,
    fresh: boolean,
    /** Where a mirror built aside is until `publish()`. */
    private aside: string | null = null,
  ) {
    this.columns = columns;
    this.fresh = fresh;
    this.sessionCols = new Set(columns.sessions.map((c) => c.name));
    this.messageCols = new Set(columns.messages.map((c) => c.name));
  }

  static open(path: string, opts: OpenMirrorOptions): HermesMirror {
    const columns = normalise(opts.columns);
    const key = columnsKey(columns);
    mkdirSync(dirname(path), { recursive: true });
    const Database = sqlite();
    let db: Database | null = null;
    if (!opts.rebuild)
      try {
        db = new Database(path, { timeout: MIRROR_WRITE_WAIT_MS });
        const has = db
          .prepare(`SELECT 1 FROM sqlite_master WHERE name = 'lookback_mirror'`)
          .pluck()
          .get();
        const stored = has
          ? (db.prepare(`SELECT value FROM lookback_mirror WHERE key = 'columns'`).pluck().get() as
              string | undefined)
          : undefined;
        if (stored === key) {
          db.pragma('synchronous = NORMAL');
          return new HermesMirror(path, db, columns, false);
        }
      } catch {
        // Not a mirror we can use (damaged, foreign): rebuilt below.
      }
    db?.close();
    // A new or changed layout is built beside the old file and renamed over it,
    // so a reader holding the old one keeps a whole store and reopens on the new inode.
    const tmp = `${path}.new-${process.pid}`;
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    const fresh = new Database(tmp);
    try {
      fresh.exec(ddl(columns, opts.schemaVersion ?? null));
      fresh.prepare(`INSERT INTO lookback_mirror VALUES ('columns', ?)`).run(key);
      fresh.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      fresh.close();
    }
    if (opts.aside) {
      db = new Database(tmp, { timeout: MIRROR_WRITE_WAIT_MS });
      db.pragma('synchronous = NORMAL');
      return new HermesMirror(path, db, columns, true, tmp);
    }
    for (const f of [`${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    renameSync(tmp, path);
    db = new Database(path, { timeout: MIRROR_WRITE_WAIT_MS });
    db.pragma('synchronous = NORMAL');
    return new HermesMirror(path, db, columns, true);
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` as one write transaction: readers see all of it or none of it. */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    return this.db.transaction(fn).immediate();
  }

  /**
   * Opens a write transaction held across an asynchronous feed's reads
   * (`applySessions` etc. join it); `commit()` makes all of it visible at once.
   */
  begin(): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN IMMEDIATE');
  }

  commit(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  private upsert(table: 'sessions' | 'messages', rows: readonly Row[]): number {
    if (rows.length === 0) return 0;
    const cols = table === 'sessions' ? this.columns.sessions : this.columns.messages;
    const names = cols.map((c) => c.name);
    const sql =
      `INSERT INTO ${table} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ` +
      `ON CONFLICT(id) DO UPDATE SET ${names
        .filter((n) => n !== 'id')
        .map((n) => `${q(n)} = excluded.${q(n)}`)
        .join(', ')}`;
    const st = this.stmt(sql);
    return this.transaction(() => {
      for (const r of rows) st.run(names.map((n) => bindable(r[n])));
      return rows.length;
    });
  }

  /** Inserts or replaces sessions by id. */
  applySessions(rows: readonly Row[]): number {
    return this.upsert('sessions', rows);
  }

  /** Inserts or replaces messages by id; the full-text indexes follow through triggers. */
  applyMessages(rows: readonly Row[]): number {
    return this.upsert('messages', rows);
  }

  /** Removes messages the source no longer has (pruned, deleted). */
  deleteMessages(ids: readonly number[]): number {
    if (ids.length === 0) return 0;
    const st = this.stmt(`DELETE FROM messages WHERE id = ?`);
    const fp = this.stmt(`DELETE FROM lookback_fp WHERE kind = 'm' AND id = ?`);
    return this.transaction(() => {
      let n = 0;
      for (const id of ids) {
        n += st.run(id).changes;
        fp.run(String(id));
      }
      return n;
    });
  }

  /** Removes sessions the source no longer has, with their messages. */
  deleteSessions(ids: readonly string[]): number {
    if (ids.length === 0) return 0;
    const msgs = this.stmt(`SELECT id FROM messages WHERE session_id = ?`).pluck();
    const st = this.stmt(`DELETE FROM sessions WHERE id = ?`);
    const fp = this.stmt(`DELETE FROM lookback_fp WHERE kind = 's' AND id = ?`);
    return this.transaction(() => {
      let n = 0;
      for (const id of ids) {
        this.deleteMessages(msgs.all(id) as number[]);
        n += st.run(id).changes;
        fp.run(id);
      }
      return n;
    });
  }

  watermarks(): Watermarks {
    const r = this.stmt(
      `SELECT (SELECT MAX(id) FROM messages) AS maxId, (SELECT COUNT(*) FROM messages) AS m, (SELECT COUNT(*) FROM sessions) AS s`,
    ).get() as { maxId: number | null; m: number; s: number };
    return { maxMessageId: r.maxId, messages: r.m, sessions: r.s };
  }

  /** Message ids the mirror holds at or above `fromId` (a feed's trailing re-scan compares them). */
  messageIdsFrom(fromId: number): Set<number> {
    return new Set(
      this.stmt(`SELECT id FROM messages WHERE id >= ?`).pluck().all(fromId) as number[],
    );
  }

  /** Message ids of some sessions, as the mirror holds them. */
  messageIdsOf(sessionId: string): number[] {
    return this.stmt(`SELECT id FROM messages WHERE session_id = ? ORDER BY id`)
      .pluck()
      .all(sessionId) as number[];
  }

  sessionIds(): Set<string> {
    return new Set(this.stmt(`SELECT id FROM sessions`).pluck().all() as string[]);
  }

  /** A feed's own bookkeeping (its last revision, a snapshot marker): kept beside the rows. */
  getMeta(key: string): string | null {
    const v = this.stmt(`SELECT value FROM lookback_mirror WHERE key = ?`).pluck().get(key);
    return typeof v === 'string' ? v : null;
  }

  setMeta(key: string, value: string | null): void {
    if (value === null) this.stmt(`DELETE FROM lookback_mirror WHERE key = ?`).run(key);
    else
      this.stmt(
        `INSERT INTO lookback_mirror VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ).run(key, value);
  }

  /**
   * Fingerprints a feed computed at its source for each row (kind 's' for
   * sessions, 'm' for messages), so the next sync re-reads only rows whose
   * fingerprint moved.
   */
  fingerprints(kind: 's' | 'm'): Map<string, string> {
    const rows = this.stmt(`SELECT id, fp FROM lookback_fp WHERE kind = ?`).all(kind) as {
      id: string;
      fp: string;
    }[];
    return new Map(rows.map((r) => [r.id, r.fp]));
  }

  fingerprintsOf(kind: 's' | 'm', ids: readonly string[]): Map<string, string> {
    const st = this.stmt(`SELECT fp FROM lookback_fp WHERE kind = ? AND id = ?`).pluck();
    const out = new Map<string, string>();
    for (const id of ids) {
      const fp = st.get(kind, id) as string | undefined;
      if (fp !== undefined) out.set(id, fp);
    }
    return out;
  }

  setFingerprints(kind: 's' | 'm', entries: Iterable<[string, string]>): void {
    const st = this.stmt(
      `INSERT INTO lookback_fp VALUES (?, ?, ?) ON CONFLICT(kind, id) DO UPDATE SET fp = excluded.fp`,
    );
    this.transaction(() => {
      for (const [id, fp] of entries) st.run(kind, id, fp);
    });
  }

  /** Whether the mirror holds these columns (a feed checks before applying rows). */
  hasColumn(table: 'sessions' | 'messages', name: string): boolean {
    return (table === 'sessions' ? this.sessionCols : this.messageCols).has(name);
  }

  /**
   * For a first copy: rows go in without the full-text triggers, and both
   * indexes are built once in `indexNow()` (in the same transaction), which is
   * faster than keeping them row by row.
   */
  deferIndexes(): void {
    for (const name of FTS_TRIGGER_NAMES) this.db.exec(`DROP TRIGGER IF EXISTS ${name}`);
    this.deferred = true;
  }

  /** Builds the indexes deferred by `deferIndexes()` and puts their triggers back. */
  indexNow(): void {
    if (!this.deferred) return;
    this.db.exec(FTS_TRIGGERS);
    this.db.exec(`INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')`);
    this.db.exec(`INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild')`);
    this.deferred = false;
  }

  private deferred = false;

  /** A mirror built aside takes the file's place (after its first commit). */
  publish(): void {
    if (!this.aside) return;
    const tmp = this.aside;
    this.aside = null;
    this.statements.clear();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
    for (const f of [`${this.path}-wal`, `${this.path}-shm`]) rmSync(f, { force: true });
    renameSync(tmp, this.path);
    this.db = new (sqlite())(this.path, { timeout: MIRROR_WRITE_WAIT_MS });
  }

  /** Sets the mirror's `schema_version` row (the source's own). */
  setSchemaVersion(version: number | null): void {
    this.stmt(`DELETE FROM schema_version`).run();
    if (version !== null && Number.isFinite(version))
      this.stmt(`INSERT INTO schema_version VALUES (?)`).run(Math.trunc(version));
  }

  /** The counts and the sessions a feed's pruning compares against. */
  counts(): { sessions: number; messages: number } {
    const w = this.watermarks();
    return { sessions: w.sessions, messages: w.messages };
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
    // A mirror built aside and never published (a failed first sync) leaves nothing behind.
    if (this.aside)
      for (const f of [this.aside, `${this.aside}-wal`, `${this.aside}-shm`])
        rmSync(f, { force: true });
  }

  /** The columns a mirror file holds (its own tables), null when it is not a mirror. */
  static columnsOf(path: string): MirrorColumns | null {
    let db: Database | null = null;
    try {
      db = new (sqlite())(path, { readonly: true, fileMustExist: true });
      if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'lookback_mirror'`).get())
        return null;
      return columnsFromDb(db);
    } catch {
      return null;
    } finally {
      db?.close();
    }
  }
}

/** The `sessions` and `messages` columns of a SQLite database, with their type affinities. */
export function columnsFromDb(db: Database): MirrorColumns {
  const of = (table: string): ColumnSpec[] =>
    (
      db.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table) as {
        name: string;
        type: string;
      }[]
    ).map((c) => ({ name: c.name, type: affinity(c.type) }));
  return { sessions: of('sessions'), messages: of('messages') };
}

/** SQLite's rules for a declared type's affinity (NUMERIC is kept as declared-less). */
export function affinity(declared: string): Affinity {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'TEXT';
  if (t.includes('BLOB') || t === '') return '';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'REAL';
  return '';
}

/** Opens (creating or rebuilding when the columns changed) the mirror at `path`. */
export function openMirror(path: string, opts: OpenMirrorOptions): HermesMirror {
  return HermesMirror.open(path, opts);
}
