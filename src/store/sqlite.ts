import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

// better-sqlite3 reads SQLITE_USE_URI once, when the addon loads; without it a
// `file:…?immutable=1` URI (our way to read a stopped writer's WAL store in a
// directory we cannot write) is taken as a plain file name. So the addon is
// loaded here, lazily, after setting it — never through a hoisted static import.
process.env.SQLITE_USE_URI ??= '1';
const requireAddon = createRequire(import.meta.url);

let ctor: typeof BetterSqlite3 | undefined;
export function sqlite(): typeof BetterSqlite3 {
  ctor ??= requireAddon('better-sqlite3') as typeof BetterSqlite3;
  return ctor;
}
