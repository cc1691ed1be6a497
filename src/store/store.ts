import type { Database, Statement } from './sqlite.js';
import { StoreError, explainSqliteError, isTransient } from './errors.js';
import { detectLayout, type Layout } from './layout.js';
import { openReadOnly, type OpenDeps } from './open.js';

/** How often a read that hit a writer's lock or a transient I/O error is tried again. */
const READ_RETRIES = 2;

export interface OpenOptions extends OpenDeps {
  /** Name used in `@session:<profile>/<id>` links. */
  profile?: string;
}

/**
 * A read-only handle on one agent store: the connection, the layout detected at
 * open, and a cache of prepared statements (each query shape is prepared once).
 */
export class Store {
  readonly layout: Layout;
  readonly warnings: string[];
  readonly profile: string;
  private readonly statements = new Map<string, Statement>();

  private constructor(
    readonly db: Database,
    readonly path: string,
    profile: string,
    note: string | undefined,
  ) {
    this.profile = profile;
    try {
      this.layout = detectLayout(db, path);
    } catch (err) {
      db.close();
      throw err instanceof StoreError ? err : explainSqliteError(err, path);
    }
    this.warnings = [...(note ? [note] : []), ...this.layout.warnings];
  }

  static open(path: string, opts: OpenOptions = {}): Store {
    const { db, note } = openReadOnly(path, opts);
    return new Store(db, path, opts.profile ?? 'default', note);
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

  /** Changes whenever another connection commits: a cheap "did the agent write?" check. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }
}

/** Wraps a store function so it runs in one snapshot with its errors explained (Store.read). */
export function inRead<A extends unknown[], R>(
  fn: (store: Store, ...args: A) => R,
): (store: Store, ...args: A) => R {
  return (store, ...args) => store.read(() => fn(store, ...args));
}
