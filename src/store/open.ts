import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  closeSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type Database, sqlite } from './sqlite.js';
import { StoreError, explainSqliteError, isTransient } from './errors.js';

/** Readers wait this long for a writer's lock before we report "store busy" (never freeze the UI). */
export const BUSY_TIMEOUT_MS = 400;
/** Backoff steps for transient open errors (a writer checkpointing, -shm being recreated). */
const OPEN_RETRY_MS = [30, 120, 400];

export interface Opened {
  db: Database;
  /** Set when we could not read the file in place; says why, in one line. */
  note?: string;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

interface Header {
  empty: boolean;
  sqlite: boolean;
  wal: boolean;
}

function readHeader(path: string): Header {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(20);
    const n = readSync(fd, buf, 0, 20, 0);
    if (n === 0) return { empty: true, sqlite: false, wal: false };
    const sqliteFile = n >= 16 && buf.toString('latin1', 0, 16) === SQLITE_MAGIC;
    // Bytes 18/19 are the read/write format versions: 2 means WAL.
    return { empty: false, sqlite: sqliteFile, wal: sqliteFile && n >= 20 && buf[18] === 2 };
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

function connect(filename: string, display: string): Database {
  const Ctor = sqlite();
  const db = new Ctor(filename, {
    readonly: true,
    fileMustExist: !filename.startsWith('file:'),
    timeout: BUSY_TIMEOUT_MS,
  });
  try {
    db.pragma('query_only = 1');
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

export interface OpenDeps {
  /** Whether lookback may create files (-shm) beside the store; injectable for tests (root can write anywhere). */
  dirWritable?: (dir: string) => boolean;
}

/**
 * Opens the agent's store read-only. A WAL store needs a -shm file beside it;
 * when there is none and the directory cannot be written (a stopped writer on a
 * read-only mount), it cannot be opened in place: then it is read as immutable,
 * or from a private copy when its -wal holds data the main file lacks.
 */
export function openReadOnly(path: string, deps: OpenDeps = {}): Opened {
  checkPath(path);
  const dir = dirname(path);
  const canWrite = (deps.dirWritable ?? writable)(dir);
  const shmMissing = !existsSync(`${path}-shm`);
  // Reading the header is safe here: nothing in this process has the store open yet.
  const wal = () => readHeader(path).wal;
  if (canWrite || !shmMissing || !wal()) {
    try {
      return { db: connectWithRetry(path, path) };
    } catch (err) {
      const fatal =
        !(err instanceof StoreError) || err.code === 'corrupt' || err.code === 'not-sqlite';
      if (canWrite || fatal || !wal()) throw err;
    }
  }
  const walFile = `${path}-wal`;
  if (existsSync(walFile) && statSync(walFile).size > 0) {
    const tmp = mkdtempSync(join(tmpdir(), 'lookback-'));
    const copy = join(tmp, basename(path));
    copyFileSync(path, copy);
    copyFileSync(walFile, `${copy}-wal`);
    return {
      db: connectWithRetry(copy, path),
      note: `${dir} is not writable, so reading a private copy of the store and its -wal; reopen to see new messages`,
    };
  }
  const uri = `file:${encodeURI(path).replace(/\?/g, '%3f').replace(/#/g, '%23')}?immutable=1`;
  return {
    db: connectWithRetry(uri, path),
    note: `${dir} is not writable, so reading the store as immutable; reopen to see new messages`,
  };
}
