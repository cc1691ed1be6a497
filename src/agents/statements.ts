/**
 * Statements prepared once per connection and shared by the index's readers
 * (recall, its windows and its snippets): a search prepares ~60 otherwise.
 */
import type Database from 'better-sqlite3';

const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function stmt(db: Database.Database, sql: string): Database.Statement {
  let m = prepared.get(db);
  if (!m) prepared.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}
