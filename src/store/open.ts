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

function sleepSync(ms: number): void {
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

/** Checks the path before SQLite sees it, so each problem gets its own one-line message. */
export function checkPath(path: string): Header {
  if (!existsSync(path)) throw new StoreError(`no store at ${path}`, 'not-found');
  const st = statSync(path);
  if (st.isDirectory())
    throw new StoreError(`${path} is a directory, not a store file`, 'not-a-file');
  let header: Header;
  try {
    header = readHeader(path);
  } catch (err) {
    throw new StoreError(`cannot read ${path}: ${(err as Error).message}`, 'io');
  }
  if (header.empty)
    throw new StoreError(`${path} is empty (0 bytes), not a session store`, 'not-sqlite');
  if (!header.sqlite) throw new StoreError(`${path} is not a SQLite database`, 'not-sqlite');
  return header;
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

/**
 * Opens the agent's store read-only. A WAL store in a directory we cannot write
 * (a stopped writer left no -shm, or a read-only mount) cannot be opened in place:
 * then we read it as immutable, or from a private copy when a -wal holds data.
 */
export function openReadOnly(path: string): Opened {
  const header = checkPath(path);
  try {
    return { db: connectWithRetry(path, path) };
  } catch (err) {
    const dir = dirname(path);
    if (
      !header.wal ||
      writable(dir) ||
      !(err instanceof StoreError) ||
      err.code === 'corrupt' ||
      err.code === 'not-sqlite'
    )
      throw err;
    const wal = `${path}-wal`;
    if (existsSync(wal) && statSync(wal).size > 0) {
      const tmp = mkdtempSync(join(tmpdir(), 'lookback-'));
      const copy = join(tmp, basename(path));
      copyFileSync(path, copy);
      copyFileSync(wal, `${copy}-wal`);
      return {
        db: connectWithRetry(copy, path),
        note: `${dir} is not writable, so reading a private copy of the store (including its -wal); reopen to refresh`,
      };
    }
    const uri = `file:${encodeURI(path).replace(/\?/g, '%3f').replace(/#/g, '%23')}?immutable=1`;
    return {
      db: connectWithRetry(uri, path),
      note: `${dir} is not writable, so reading the store as immutable; changes appear after reopening`,
    };
  }
}
