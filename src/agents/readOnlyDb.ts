/**
 * Reading another program's live SQLite database as a good neighbour (AGENTS.md
 * rule 1, STORE.md): read-only, `query_only`, no DDL, no checkpoint, and no file
 * created beside it. Shared by the opencode and PraisonAI `sessions.db` readers.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * A read-only connection that leaves no file behind. With no -wal (the agent is not
 * running) the database is read as immutable, which creates no -shm; with a -wal
 * and its -shm, SQLite reads in place; a -wal without a -shm is read from a private
 * copy, since opening it in place would create the -shm in the agent's directory.
 */
export function openWithoutTrace(path: string): { db: Database.Database; cleanup: () => void } {
  const wal = existsSync(`${path}-wal`);
  const shm = existsSync(`${path}-shm`);
  if (wal && shm)
    return {
      db: new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 }),
      cleanup: () => {},
    };
  if (!wal) {
    const uri = `file:${encodeURI(path).replace(/\?/g, '%3f').replace(/#/g, '%23')}?immutable=1`;
    return { db: new Database(uri, { readonly: true, timeout: 5000 }), cleanup: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lookback-opencode-'));
  const copy = join(dir, basename(path));
  copyFileSync(path, copy);
  copyFileSync(`${path}-wal`, `${copy}-wal`);
  return {
    db: new Database(copy, { readonly: true, fileMustExist: true, timeout: 5000 }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The columns `table` has (none when it does not exist): callers check before they query. */
export function columns(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}
