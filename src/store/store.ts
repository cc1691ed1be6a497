import { rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Statement } from './sqlite.js';
import { StoreError, explainSqliteError, isTransient } from './errors.js';
import { detectLayout, type Layout } from './layout.js';
import { connectPlan, openReadOnly, sleepSync, type OpenDeps, type OpenPlan } from './open.js';
import { settled, stampFiles, type FilesStamp } from './watch.js';
import { IDLE_CLOSE_MS, READ_RETRIES } from '../budgets.js';

/**
 * A store path that vanished is looked for again after these pauses before it
 * counts as deleted: a non-atomic replace (delete, then copy) leaves a gap.
 */
const GONE_RETRY_MS = [20, 60, 150];
/** Pauses before re-reading a new connection's layout when a writer's lock was in the way. */
const PROBE_RETRY_MS = [30, 120, 400];

/** Which file a path names: a replaced store (restore, repair, `mv`) is a different inode. */
interface FileId {
  dev: number;
  ino: number;
}

/** The file at `path`, null when there is none, undefined when it cannot be told (e.g. EACCES). */
function fileId(path: string): FileId | null | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? { dev: st.dev, ino: st.ino } : null;
  } catch {
    return undefined;
  }
}

function sameFile(a: FileId | null, b: FileId | null): boolean {
  return a === null || b === null || (a.dev === b.dev && a.ino === b.ino);
}

export interface OpenOptions extends OpenDeps {
  /** Name used in `@session:<profile>/<id>` links. */
  profile?: string;
  /**
   * How to connect, as decided by another Store on the same file (the app's
   * query worker reuses the main thread's), so this one never looks at the files.
   */
  plan?: OpenPlan;
  /** Close the connection after this many ms without a read (default IDLE_CLOSE_MS; 0 = never). */
  idleCloseMs?: number;
}

/**
 * A read-only handle on one agent store: the connection, the layout detected at
 * open, and a cache of prepared statements (each query shape is prepared once).
 *
 * The connection is not held while idle: it closes IDLE_CLOSE_MS after the last
 * read (an unref'd timer, which never keeps the process alive) and reconnects
 * on the next read, checking that the file is still the same one. Between
 * reads, `dataVersion()` tells whether the agent wrote from stat() alone.
 */
export class Store {
  /**
   * What happened to the store since open, newest last (open notes, layout
   * warnings, "replaced on disk; reopened"). The same array for the life of
   * the Store, so a view holding it sees later additions.
   */
  readonly warnings: string[];
  readonly profile: string;
  /** Counts reopenings after the file was replaced on disk (0 = the file opened first). */
  generation = 0;
  /** Counts reconnections after an idle close. */
  reconnects = 0;
  private readonly statements = new Map<string, Statement>();
  private conn: Database | null;
  private shape: Layout;
  private id: FileId | null;
  private appId: number;
  /** The files as stat() saw them at the last change check, and when. */
  private stamp: FilesStamp;
  private stampAt: number;
  /** The connection's `PRAGMA data_version` at the last change check (per connection). */
  private pragmaVersion: number;
  /** What dataVersion() returns: moves forward on every change seen, across connections. */
  private version = 0;
  private lastUse = Date.now();
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private ownerClosed = false;
  private readonly idleMs: number;

  private constructor(
    db: Database,
    readonly path: string,
    private plan: OpenPlan,
    private readonly ownsPlan: boolean,
    id: FileId | null,
    private readonly opts: OpenOptions,
  ) {
    this.profile = opts.profile ?? 'default';
    this.idleMs = opts.idleCloseMs ?? IDLE_CLOSE_MS;
    this.conn = db;
    this.id = id;
    const probe = Store.probe(db, path);
    this.shape = probe.layout;
    this.appId = probe.appId;
    this.pragmaVersion = probe.dataVersion;
    // Taken after connecting: a first read-only connection in WAL mode creates an empty -wal.
    this.stamp = stampFiles(path);
    this.stampAt = Date.now();
    this.warnings = [...(plan.note ? [plan.note] : []), ...this.shape.warnings];
    this.armIdle();
  }

  /**
   * What a new connection needs to know, read in ONE read transaction: in
   * rollback-journal mode each separate statement would take (and wait for)
   * its own SHARED lock between the agent's commits. A writer's lock is waited
   * out a few times; the connection is closed if it still cannot be read.
   */
  private static probe(
    db: Database,
    path: string,
  ): { layout: Layout; appId: number; dataVersion: number } {
    for (let attempt = 0; ; attempt++) {
      try {
        db.exec('BEGIN');
        try {
          return {
            layout: detectLayout(db, path),
            appId: Store.applicationId(db),
            dataVersion: Store.pragmaVersionOf(db),
          };
        } finally {
          if (db.inTransaction) db.exec('COMMIT');
        }
      } catch (err) {
        const delay = PROBE_RETRY_MS[attempt];
        const busy = err instanceof StoreError ? err.code === 'busy' : isTransient(err);
        if (busy && delay !== undefined) {
          sleepSync(delay);
          continue;
        }
        db.close();
        throw err instanceof StoreError ? err : explainSqliteError(err, path);
      }
    }
  }

  private static applicationId(db: Database): number {
    return db.pragma('application_id', { simple: true }) as number;
  }

  private static pragmaVersionOf(db: Database): number {
    return db.pragma('data_version', { simple: true }) as number;
  }

  static open(path: string, opts: OpenOptions = {}): Store {
    // The file's identity is taken before opening: if it is replaced in between,
    // the first read sees a different file and reopens, which is harmless.
    const id = statId(path);
    if (opts.plan) return new Store(connectPlan(opts.plan, path), path, opts.plan, false, id, opts);
    const { db, plan } = openReadOnly(path, opts);
    return new Store(db, path, plan, true, id, opts);
  }

  /** How this store is connected to (the query worker reuses it). */
  get openPlan(): OpenPlan {
    return this.plan;
  }

  /** Whether a connection is open now (false while idle). */
  get connected(): boolean {
    return this.conn !== null;
  }

  /** The connection, reconnected if it was closed while idle. */
  get db(): Database {
    return this.connection();
  }

  /** What this store has (detected at open, and again at each reconnection). */
  get layout(): Layout {
    this.connection();
    return this.shape;
  }

  private connection(): Database {
    if (this.ownerClosed) throw new StoreError(`${this.path}: the store was closed`, 'io');
    this.lastUse = Date.now();
    if (this.conn === null) this.reconnect();
    this.armIdle();
    return this.conn!;
  }

  private armIdle(): void {
    if (this.idleMs <= 0 || this.idleTimer !== null || this.ownerClosed) return;
    const due = Math.max(10, this.lastUse + this.idleMs - Date.now());
    this.idleTimer = setTimeout(() => this.onIdle(), due);
    this.idleTimer.unref?.();
  }

  /**
   * Closes the connection once nothing has read for idleMs, unless the files
   * changed too recently for stat() to be trusted later (then it waits): after
   * the close, a change is told from stat() alone.
   */
  private onIdle(): void {
    this.idleTimer = null;
    const conn = this.conn;
    if (conn === null || this.ownerClosed) return;
    const now = Date.now();
    if (conn.inTransaction || now - this.lastUse < this.idleMs) return this.armIdle();
    try {
      // Fold in what changed since the last poll, so the stamp kept is current.
      this.checkChange();
    } catch {
      // A failing check (store deleted, busy) is reported by the next poll.
    }
    if (!settled(this.stamp, this.stampAt)) {
      this.lastUse = now;
      return this.armIdle();
    }
    this.disconnect();
  }

  private disconnect(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.statements.clear();
    const conn = this.conn;
    this.conn = null;
    if (conn?.open) conn.close();
  }

  /**
   * Connects again after an idle close or a replacement: same plan when the
   * path still names the same file, a fresh one when it was replaced; the
   * layout is detected again (the agent may have migrated the schema).
   */
  private reconnect(): void {
    const now = this.currentId();
    let replaced = !sameFile(this.id, now);
    let db: Database;
    let note: string | undefined;
    if (replaced) {
      const opened = openReadOnly(this.path, this.opts);
      db = opened.db;
      note = opened.note;
      this.plan = opened.plan;
    } else {
      db = connectPlan(this.plan, this.path);
    }
    const { layout, appId, dataVersion } = Store.probe(db, this.path);
    if (appId !== this.appId) replaced = true;
    this.statements.clear();
    this.conn = db;
    this.shape = layout;
    this.id = now ?? this.id;
    this.appId = appId;
    this.pragmaVersion = dataVersion;
    this.reconnects++;
    if (replaced) {
      this.generation++;
      this.version++;
      this.warnings.push(
        `${this.path} was replaced on disk (restored or repaired?); reopened it`,
        ...(note ? [note] : []),
      );
    }
    this.warnings.push(...layout.warnings.filter((w) => !this.warnings.includes(w)));
  }

  /** The file at the path now; throws when it was deleted (after a grace for non-atomic replaces). */
  private currentId(): FileId | null {
    let now = fileId(this.path);
    for (let i = 0; now === null && i < GONE_RETRY_MS.length; i++) {
      sleepSync(GONE_RETRY_MS[i]!);
      now = fileId(this.path);
    }
    if (now === null)
      throw new StoreError(`${this.path} was deleted while lookback had it open`, 'not-found');
    return now ?? null;
  }

  /**
   * Makes sure an open connection reads the file that is at `path` now. A store
   * deleted while open would otherwise be read from its unlinked inode forever,
   * and a replaced one (restored from a backup, repaired, renamed over) would
   * show the old content: a deleted store is a one-line error, a replaced one
   * is reopened with a warning. One stat() per read.
   */
  private ensureCurrent(): void {
    if (this.id === null || this.conn === null) return;
    if (sameFile(this.id, this.currentId())) return;
    this.disconnect();
    this.connection();
  }

  stmt(sql: string): Statement {
    const db = this.connection();
    let s = this.statements.get(sql);
    if (!s) {
      s = db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Runs a group of queries in one read transaction (one consistent snapshot),
   * retrying briefly on a writer's lock; never leaves the snapshot open. Every
   * statement finishes inside `fn`: in rollback-journal mode the snapshot is a
   * SHARED lock that blocks the agent's commits, so it must not outlive the call.
   */
  read<T>(fn: () => T): T {
    for (let attempt = 0; ; attempt++) {
      try {
        if (this.connection().inTransaction) return fn();
        this.ensureCurrent();
        const db = this.connection();
        db.exec('BEGIN');
        try {
          return fn();
        } finally {
          if (db.inTransaction) db.exec('COMMIT');
        }
      } catch (err) {
        if (err instanceof StoreError) throw err;
        if (!isTransient(err) || attempt >= READ_RETRIES) throw explainSqliteError(err, this.path);
      }
    }
  }

  /**
   * Moves forward whenever the agent committed, or the file was replaced and
   * reopened: the app's "did the agent write?" poll. While idle (no connection)
   * it costs two stat() calls and holds nothing; only when those changed does
   * it connect (and check the file is still the same one). Does not count as a
   * read, so polling never keeps the connection open. Throws a StoreError when
   * the store was deleted.
   */
  dataVersion(): number {
    try {
      this.checkChange();
      return this.version;
    } catch (err) {
      throw err instanceof StoreError ? err : explainSqliteError(err, this.path);
    }
  }

  private checkChange(): void {
    if (this.ownerClosed) throw new StoreError(`${this.path}: the store was closed`, 'io');
    const stamp = stampFiles(this.path);
    const stampAt = Date.now();
    const changed = stamp.key !== this.stamp.key;
    if (this.conn === null) {
      // Closed only with a settled stamp, so an unchanged stamp means no write.
      if (changed) {
        this.version++;
        // Connect now: it checks the file is the same one, and the app reads next.
        this.connection();
        // Stamped again once connected (connecting can create an empty -wal); a
        // later commit moves the new connection's data_version.
        this.stamp = stampFiles(this.path);
        this.stampAt = Date.now();
        return;
      }
    } else {
      const before = this.generation;
      this.ensureCurrent();
      const db = this.conn ?? this.connection();
      const pv = Store.pragmaVersionOf(db);
      if (this.generation === before && (changed || pv !== this.pragmaVersion)) {
        this.version++;
        // Overwritten in place (same inode, another database): reopen as replaced.
        if (changed && Store.applicationId(db) !== this.appId) {
          this.disconnect();
          this.connection();
        }
      }
      this.pragmaVersion = this.conn ? Store.pragmaVersionOf(this.conn) : pv;
    }
    this.stamp = stamp;
    this.stampAt = stampAt;
  }

  close(): void {
    this.disconnect();
    this.ownerClosed = true;
    // The private copy is ours alone: remove it with the store.
    if (this.ownsPlan && this.plan.kind === 'copy')
      rmSync(dirname(this.plan.filename), { recursive: true, force: true });
  }
}

/** The identity of the file at `path`; null when it cannot be stat'ed (then it is never checked). */
function statId(path: string): FileId | null {
  return fileId(path) ?? null;
}

/** Wraps a store function so it runs in one snapshot with its errors explained (Store.read). */
export function inRead<A extends unknown[], R>(
  fn: (store: Store, ...args: A) => R,
): (store: Store, ...args: A) => R {
  return (store, ...args) => store.read(() => fn(store, ...args));
}
