import Database from 'better-sqlite3';
import { join } from 'node:path';
import { createEmptyStore, insertMessage, insertSession } from '../../src/demo/store.js';
import type { Layout } from '../../src/demo/schema.js';
import { tempDir } from './fixtures.js';

export type Db = Database.Database;

/**
 * A new store with the agent's real schema and triggers for `layout`, filled by
 * `fill` through plain INSERTs (so the FTS triggers index every row).
 */
export function buildStore(
  layout: Layout,
  fill: (db: Db) => void,
  opts: { withFts?: boolean; name?: string; foreignKeys?: boolean } = {},
): string {
  const path = join(tempDir(), opts.name ?? `state-v${layout}.db`);
  createEmptyStore(path, layout, { withFts: opts.withFts ?? true });
  const db = new Database(path);
  // Damaged stores (orphans, cycles) can only be built with the agent's FK checks off.
  if (opts.foreignKeys === false) db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => fill(db))();
    if (db.pragma('journal_mode', { simple: true }) === 'wal')
      db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return path;
}

export { insertMessage, insertSession };
