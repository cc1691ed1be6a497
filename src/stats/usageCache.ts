/**
 * The usage records read from the agents' files, kept per file (path, size,
 * mtime) in `usage.db` beside lookback's index, so a warm run reads no file it
 * read before, and a file last written before `--since` is not read at all.
 * Derived and disposable like the index: another layout is dropped and rebuilt.
 */
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { indexPath } from '../agents/indexDb.js';
import type { UsageRecord } from './usage/record.js';

/** Bump when the records or a reader change: every file is read again. */
export const USAGE_LAYOUT = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER, mtime_ms REAL);
CREATE TABLE IF NOT EXISTS records (
  path TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL, model TEXT NOT NULL, side INTEGER NOT NULL,
  input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL,
  reasoning REAL NOT NULL, cost REAL
);
CREATE INDEX IF NOT EXISTS records_path ON records (path);
CREATE INDEX IF NOT EXISTS records_key ON records (key);`;

export function usagePath(env: NodeJS.ProcessEnv): string {
  return join(dirname(indexPath(env)), 'usage.db');
}

export function openUsage(env: NodeJS.ProcessEnv): Database.Database {
  const path = usagePath(env);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  if ((db.pragma('user_version', { simple: true }) as number) !== USAGE_LAYOUT)
    db.exec(`DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS records; ${SCHEMA}
      PRAGMA user_version = ${USAGE_LAYOUT};`);
  return db;
}

export interface UsageFile {
  path: string;
  /** The records of the file's text; or `load` reads the file itself (a database). */
  read?: (text: string) => UsageRecord[];
  load?: (path: string) => UsageRecord[];
  /** Other files whose change is a change of this one (a database's -wal). */
  with?: string[];
}

function stamp(f: UsageFile): { size: number; mtime: number } | null {
  let size = 0;
  let mtime = 0;
  for (const [i, p] of [f.path, ...(f.with ?? [])].entries()) {
    try {
      const st = statSync(p);
      size += st.size;
      mtime = Math.max(mtime, st.mtimeMs);
    } catch {
      if (i === 0) return null; // gone since the index listed it
    }
  }
  return { size, mtime };
}

/**
 * Brings the cached records of `files` up to date: a file whose size or mtime
 * changed is read again whole; one not cached and last written before `after`
 * (epoch seconds) is left unread. Returns how many files were read.
 */
export function refresh(db: Database.Database, files: UsageFile[], after?: number): number {
  const known = db.prepare(`SELECT size, mtime_ms FROM files WHERE path = ?`);
  const drop = db.prepare(`DELETE FROM records WHERE path = ?`);
  const mark = db.prepare(`INSERT OR REPLACE INTO files (path, size, mtime_ms) VALUES (?, ?, ?)`);
  const put = db.prepare(
    `INSERT INTO records (path, key, at, model, side, input, output, cache_read, cache_write, reasoning, cost)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let read = 0;
  for (const f of files) {
    const st = stamp(f);
    if (!st) continue;
    const { size, mtime } = st;
    const k = known.get(f.path) as { size: number; mtime_ms: number } | undefined;
    if (k && k.size === size && k.mtime_ms === mtime) continue;
    if (!k && after !== undefined && mtime / 1000 < after) continue;
    let records: UsageRecord[];
    try {
      records = f.load ? f.load(f.path) : f.read!(readFileSync(f.path, 'utf8'));
    } catch {
      continue;
    }
    read++;
    db.transaction(() => {
      drop.run(f.path);
      for (const r of records)
        put.run(
          f.path,
          r.key,
          r.at,
          r.model,
          r.side,
          r.input,
          r.output,
          r.cacheRead,
          r.cacheWrite,
          r.reasoning,
          r.cost,
        );
      mark.run(f.path, size, mtime);
    })();
  }
  return read;
}

export interface CachedRecord extends UsageRecord {
  path: string;
}

/**
 * The records of `paths` in the time range, one per key: the main copy before
 * a sidechain's, then the one with the most tokens (a streamed call's last line).
 */
export function recordsOf(
  db: Database.Database,
  paths: string[],
  after?: number,
  before?: number,
): CachedRecord[] {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS wanted (path TEXT PRIMARY KEY); DELETE FROM wanted;`);
  const add = db.prepare(`INSERT OR IGNORE INTO wanted (path) VALUES (?)`);
  db.transaction(() => {
    for (const p of paths) add.run(p);
  })();
  const rows = db
    .prepare(
      `SELECT path, key, at, model, side, input, output, cache_read AS cacheRead, cache_write AS cacheWrite,
         reasoning, cost FROM (
         SELECT r.*, row_number() OVER (PARTITION BY key
           ORDER BY r.side, r.input + r.output + r.cache_read + r.cache_write + r.reasoning DESC, r.path) AS pick
         FROM records r JOIN wanted w ON w.path = r.path)
       WHERE pick = 1 AND at >= ? AND at < ?`,
    )
    .all(after ?? -1e15, before ?? 1e15) as CachedRecord[];
  return rows;
}
