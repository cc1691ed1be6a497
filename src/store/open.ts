import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type Database, sqlite } from './sqlite.js';
import { StoreError, explainSqliteError, isTransient } from './errors.js';
import { BUSY_TIMEOUT_MS, STORE_CACHE_KIB } from '../budgets.js';

/** Backoff steps for transient open errors (a writer checkpointing, -shm being recreated). */
const OPEN_RETRY_MS = [30, 120, 400];

/**
 * How a store is connected to, decided once at open and reused by every later
 * reconnection (after an idle close), so reconnecting never needs to look at
 * the files with anything but stat().
 * - `in-place`: an ordinary read-only connection to the agent's file;
 * - `immutable`: the file read as immutable (no locks, no -shm), for a stopped
 *   writer's WAL store in a directory lookback cannot write;
 * - `copy`: a private copy (store + -wal) in a temporary directory, when that
 *   stopped writer's -wal still holds commits the main file lacks.
 */
export interface OpenPlan {
  kind: 'in-place' | 'immutable' | 'copy';
  /** What SQLite is given: a path, or a `file:` URI. */
  filename: string;
  /** Says why the store is not read in place, in one line. */
  note?: string;
}

export interface Opened {
  db: Database;
  plan: OpenPlan;
  /** Set when we could not read the file in place; says why, in one line. */
  note?: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Whether the file is in WAL format (header bytes 18/19 are 2). A plain read:
 * see openReadOnly for the only situation it is allowed in.
 */
function walFormat(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(20);
    const n = readSync(fd, buf, 0, 20, 0);
    return n >= 20 && buf.toString('latin1', 0, 16) === SQLITE_MAGIC && buf[18] === 2;
  } finally {
    closeSync(fd);
  }
}

export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A `file:` URI for `path`, every byte outside the unreserved set and `/`
 * percent-encoded. A raw `file:` path holding `?` or `#` would name a
 * different (empty) database, and a `%` would be decoded.
 */
export function fileUri(path: string, params: Record<string, string> = {}): string {
  const encoded = Array.from(Buffer.from(path, 'utf8'))
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9\-._~/]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  const query = Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  return `file:${encoded}${query ? `?${query}` : ''}`;
}

/**
 * Checks the path before SQLite sees it, so each problem gets its own one-line
 * message. Only stat() here: opening and closing the file with fs would drop
 * every POSIX lock this process holds on it, SQLite's own included.
 */
export function checkPath(path: string): void {
  if (!existsSync(path)) throw new StoreError(`no store at ${path}`, 'not-found');
  const st = statSync(path);
  if (st.isDirectory())
    throw new StoreError(`${path} is a directory, not a store file`, 'not-a-file');
  if (st.size === 0)
    throw new StoreError(`${path} is empty (0 bytes), not a session store`, 'not-sqlite');
}

/**
 * The page cache of the read connections this thread opens from now on, in KiB;
 * null keeps better-sqlite3's 16,000. The app's threads (main, query worker, embed
 * worker) call `smallPageCache()` at their start: in a process that lives all day
 * what a reader fills stays in its RSS after SQLite frees it (budgets.ts). A
 * one-shot command keeps the big cache, which a warm search is ~1.5x faster with.
 */
let pageCacheKiB: number | null = null;

/** This thread's store connections get STORE_CACHE_KIB of page cache (the app's threads). */
export function smallPageCache(): void {
  pageCacheKiB = STORE_CACHE_KIB;
}

/**
 * This thread's page cache on `db` (any read connection: a store, the agents'
 * index): STORE_CACHE_KIB once the thread asked (smallPageCache), else left as is.
 */
export function threadPageCache(db: { pragma(source: string): unknown }): void {
  if (pageCacheKiB !== null) db.pragma(`cache_size = -${pageCacheKiB}`);
}

function connect(filename: string, display: string): Database {
  const Ctor = sqlite();
  const db = new Ctor(filename, {
    readonly: true,
    fileMustExist: !filename.startsWith('file:'),
    timeout: BUSY_TIMEOUT_MS,
  });
  try {
    db.pragma('query_only = 1');
    threadPageCache(db);
    // Touch the schema now so a corrupt or locked file fails here, not mid-render.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (err) {
    db.close();
    throw explainSqliteError(err, display);
  }
}

function connectWithRetry(filename: string, display: string): Database {
  for (let attempt = 0; ; attempt++) {
    try {
      return connect(filename, display);
    } catch (err) {
      const raw = err instanceof StoreError ? err : explainSqliteError(err, display);
      const retryable = raw.code === 'busy' || raw.code === 'io' || isTransient(err);
      const delay = OPEN_RETRY_MS[attempt];
      if (!retryable || delay === undefined) throw raw;
      sleepSync(delay);
    }
  }
}

/** Connects by a plan decided earlier (a reconnection after an idle close): stat() only. */
export function connectPlan(plan: OpenPlan, display: string): Database {
  if (plan.kind === 'in-place') checkPath(display);
  return connectWithRetry(plan.filename, display);
}

export interface OpenDeps {
  /** Whether lookback may create files (-shm) beside the store; injectable for tests (root can write anywhere). */
  dirWritable?: (dir: string) => boolean;
}

/**
 * Opens the agent's store read-only. A WAL store needs a -shm file beside it;
 * when there is none and the directory cannot be written (a stopped writer on a
 * read-only mount), it cannot be opened in place: then it is read as immutable,
 * or from a private copy when its -wal holds data the main file lacks.
 *
 * The store's files are stat()ed here, and opened with plain file calls only
 * when there is no -shm and the directory is unwritable: then no WAL
 * connection can exist, and the only reader that could is the app's query
 * worker, which reuses the main thread's plan (`OpenOptions.plan`) instead of
 * coming here. Closing a plain descriptor would drop every POSIX lock the
 * process holds on the file, SQLite's included (STORE.md).
 */
export function openReadOnly(path: string, deps: OpenDeps = {}): Opened {
  checkPath(path);
  const dir = dirname(path);
  const canWrite = (deps.dirWritable ?? writable)(dir);
  const shmMissing = !existsSync(`${path}-shm`);
  const inPlace: OpenPlan = { kind: 'in-place', filename: path };
  if (canWrite) return { db: connectWithRetry(path, path), plan: inPlace };
  if (!shmMissing) {
    try {
      return { db: connectWithRetry(path, path), plan: inPlace };
    } catch (err) {
      // A -shm we cannot use (a stopped writer's, owned by another user): read around it.
      const fatal =
        !(err instanceof StoreError) || err.code === 'corrupt' || err.code === 'not-sqlite';
      if (fatal || !walFormat(path)) throw err;
    }
  } else if (!walFormat(path)) {
    // A rollback-journal store needs no -shm: read it in place.
    return { db: connectWithRetry(path, path), plan: inPlace };
  }
  const walFile = `${path}-wal`;
  if (existsSync(walFile) && statSync(walFile).size > 0) {
    const tmp = mkdtempSync(join(tmpdir(), 'lookback-'));
    const copy = join(tmp, basename(path));
    copyFileSync(path, copy);
    copyFileSync(walFile, `${copy}-wal`);
    const note = `${dir} is not writable, so reading a private copy of the store and its -wal; reopen to see new messages`;
    return { db: connectWithRetry(copy, path), plan: { kind: 'copy', filename: copy, note }, note };
  }
  const note = `${dir} is not writable, so reading the store as immutable; reopen to see new messages`;
  const plan: OpenPlan = { kind: 'immutable', filename: fileUri(path, { immutable: '1' }), note };
  return { db: connectWithRetry(plan.filename, path), plan, note };
}
