import { statSync } from 'node:fs';
import type { Database, Statement } from './sqlite.js';
import { StoreError, explainSqliteError, isTransient } from './errors.js';
import { detectLayout, type Layout } from './layout.js';
import { openReadOnly, sleepSync, type OpenDeps } from './open.js';

/** How often a read that hit a writer's lock or a transient I/O error is tried again. */
const READ_RETRIES = 2;
/**
 * A store path that vanished is looked for again after these pauses before it
 * counts as deleted: a non-atomic replace (delete, then copy) leaves a gap.
 */
const GONE_RETRY_MS = [20, 60, 150];

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

export interface OpenOptions extends OpenDeps {
  /** Name used in `@session:<profile>/<id>` links. */
  profile?: string;
}

/**
 * A read-only handle on one agent store: the connection, the layout detected at
 * open, and a cache of prepared statements (each query shape is prepared once).
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
  private readonly statements = new Map<string, Statement>();
  private conn: Database;
  private shape: Layout;
  private id: FileId | null;
  private versionOffset = 0;
  private lastVersion = 0;

  private constructor(
    db: Database,
    readonly path: string,
    profile: string,
    note: string | undefined,
    id: FileId | null,
    private readonly deps: OpenDeps,
  ) {
    this.profile = profile;
    this.conn = db;
    this.id = id;
    this.shape = Store.layoutOf(db, path);
    this.warnings = [...(note ? [note] : []), ...this.shape.warnings];
  }

  private static layoutOf(db: Database, path: string): Layout {
    try {
      return detectLayout(db, path);
    } catch (err) {
      db.close();
      throw err instanceof StoreError ? err : explainSqliteError(err, path);
    }
  }

  static open(path: string, opts: OpenOptions = {}): Store {
    // The file's identity is taken before opening: if it is replaced in between,
    // the first read sees a different file and reopens, which is harmless.
    const id = statId(path);
    const { db, note } = openReadOnly(path, opts);
    const deps: OpenDeps = opts.dirWritable ? { dirWritable: opts.dirWritable } : {};
    return new Store(db, path, opts.profile ?? 'default', note, id, deps);
  }

  /** The connection; a new one after the file was replaced on disk. */
  get db(): Database {
    return this.conn;
  }

  /** What this store has (detected at open, and again after a reopen). */
  get layout(): Layout {
    return this.shape;
  }

  /**
   * Makes sure the connection reads the file that is at `path` now. A store
   * deleted while open would otherwise be read from its unlinked inode forever,
   * and a replaced one (restored from a backup, repaired, renamed over) would
   * show the old content: a deleted store is a one-line error, a replaced one
   * is reopened with a warning. One stat() per read.
   */
  private ensureCurrent(): void {
    if (this.id === null) return;
    let now = fileId(this.path);
    if (now === undefined) return;
    for (let i = 0; now === null && i < GONE_RETRY_MS.length; i++) {
      sleepSync(GONE_RETRY_MS[i]!);
      now = fileId(this.path);
    }
    if (now === undefined) return;
    if (now === null)
      throw new StoreError(`${this.path} was deleted while lookback had it open`, 'not-found');
    if (now.dev === this.id.dev && now.ino === this.id.ino) return;
    this.reopen();
  }

  private reopen(): void {
    const id = statId(this.path);
    const { db, note } = openReadOnly(this.path, this.deps);
    const layout = Store.layoutOf(db, this.path);
    this.statements.clear();
    if (this.conn.open) this.conn.close();
    this.conn = db;
    this.shape = layout;
    this.id = id;
    this.generation++;
    // data_version restarts on a new connection: keep dataVersion() moving forward.
    this.versionOffset = this.lastVersion + 1;
    this.warnings.push(
      `${this.path} was replaced on disk (restored or repaired?); reopened it`,
      ...(note ? [note] : []),
      ...layout.warnings.filter((w) => !this.warnings.includes(w)),
    );
  }

  stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * Runs a group of queries in one read transaction (one consistent snapshot),
   * retrying briefly on a writer's lock; never leaves the snapshot open.
   */
  read<T>(fn: () => T): T {
    for (let attempt = 0; ; attempt++) {
      try {
        if (this.db.inTransaction) return fn();
        this.ensureCurrent();
        this.db.exec('BEGIN');
        try {
          return fn();
        } finally {
          if (this.db.inTransaction) this.db.exec('COMMIT');
        }
      } catch (err) {
        if (err instanceof StoreError) throw err;
        if (!isTransient(err) || attempt >= READ_RETRIES) throw explainSqliteError(err, this.path);
      }
    }
  }

  /**
   * Changes whenever another connection commits, or the file was replaced and
   * reopened: a cheap "did the agent write?" check. Throws a StoreError when
   * the store was deleted.
   */
  dataVersion(): number {
    try {
      this.ensureCurrent();
      const v = (this.db.pragma('data_version', { simple: true }) as number) + this.versionOffset;
      this.lastVersion = v;
      return v;
    } catch (err) {
      throw err instanceof StoreError ? err : explainSqliteError(err, this.path);
    }
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
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
