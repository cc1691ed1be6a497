/**
 * Preloaded (`node --import`, through NODE_OPTIONS, so in every thread of the
 * process) by tests/store/pageCache.test.ts: records, for each SQLite
 * connection a thread uses, its file and its page cache (`PRAGMA cache_size`)
 * each time it changes, as JSON lines in $LOOKBACK_TEST_CACHE_PROBE. It wraps
 * the native addon's `prepare`, which every copy of better-sqlite3's JavaScript
 * (bundled in dist/cli.cjs, or external elsewhere) calls with its Database.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { threadId } from 'node:worker_threads';

const out = process.env.LOOKBACK_TEST_CACHE_PROBE;
if (out) {
  const require = createRequire(import.meta.url);
  // The same file (so the same module, per thread) the app's copies of better-sqlite3 load.
  const addon = require('better-sqlite3/build/Release/better_sqlite3.node');
  const proto = addon.Database.prototype;
  const prepare = proto.prepare;
  const seen = new WeakMap();
  let ids = 0;
  let busy = false;
  proto.prepare = function (sql, db, ...rest) {
    const stmt = prepare.call(this, sql, db, ...rest);
    if (!busy && db && typeof db.pragma === 'function') {
      busy = true;
      try {
        let entry = seen.get(db);
        if (!entry) seen.set(db, (entry = { id: ++ids, cache: null }));
        const cache = db.pragma('cache_size', { simple: true });
        if (cache !== entry.cache) {
          entry.cache = cache;
          appendFileSync(
            out,
            `${JSON.stringify({ thread: threadId, conn: entry.id, file: db.name, cache })}\n`,
          );
        }
      } finally {
        busy = false;
      }
    }
    return stmt;
  };
}
