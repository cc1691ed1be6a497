/**
 * lookback's own FTS5 ranking function, `lookback_bm25()` (native/rank.c, built at
 * install from binding.gyp): bm25() computed the same way, but each phrase's
 * document count is read from the index's `term_df` table instead of walking the
 * phrase's whole doclist on every search (the larger half of a ranked search over a
 * million messages). When the extension was not built or does not load, search
 * ranks with bm25() and says nothing: the order is the same, only slower.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

const FILE = 'build/Release/lookback_rank.node';

/** The built extension: beside dist/ (installed) or two levels up (sources under test). */
export function findRankExtension(base: string = import.meta.url): string | null {
  // LOOKBACK_RANK_EXT=off (or a path) is for tests and for measuring bm25() against it.
  const env = process.env.LOOKBACK_RANK_EXT;
  if (env === 'off') return null;
  if (env) return env;
  for (const rel of [`../${FILE}`, `../../${FILE}`]) {
    const p = fileURLToPath(new URL(rel, base));
    if (existsSync(p)) return p;
  }
  return null;
}

const loaded = new WeakMap<Database.Database, boolean>();

/** Loads the extension into `db` once; false (and bm25() from then on) when it cannot. */
export function hasRankExtension(db: Database.Database): boolean {
  let ok = loaded.get(db);
  if (ok === undefined) {
    const file = findRankExtension();
    ok = false;
    if (file) {
      try {
        // SQLite finds sqlite3_lookbackrank_init from the file's name.
        db.loadExtension(file);
        ok = true;
      } catch {
        // A missing library, another platform's build, an older SQLite: bm25() serves.
      }
    }
    loaded.set(db, ok);
  }
  return ok;
}

const functions = new WeakMap<Database.Database, Map<string, boolean>>();

/** Whether the extension is loaded into `db` and registered `name` (an older build may lack it). */
function hasExtensionFunction(db: Database.Database, name: string): boolean {
  let known = functions.get(db);
  if (!known) functions.set(db, (known = new Map()));
  let ok = known.get(name);
  if (ok === undefined) {
    ok =
      hasRankExtension(db) &&
      db.prepare(`SELECT count(*) FROM pragma_function_list WHERE name = ?`).pluck().get(name) !==
        0;
    known.set(name, ok);
  }
  return ok;
}

/**
 * Whether the loaded extension also has lookback_note() and lookback_snippet()
 * (native/snippet.c): snippets from the ranking statement's record, not a second
 * FTS5 walk. False for an extension built before them; search then asks snippet().
 */
export function hasSnippetNotes(db: Database.Database): boolean {
  return hasExtensionFunction(db, 'lookback_snippet');
}

/**
 * Whether the loaded extension has lookback_same_stat() (native/filestat.c): an
 * indexing pass's unchanged test in one statement. False for an older build or on
 * Windows; the pass then stats and compares in JavaScript (the same answer, slower).
 */
export function hasSameStat(db: Database.Database): boolean {
  return hasExtensionFunction(db, 'lookback_same_stat');
}

/** One bare word or one quoted phrase, perhaps a prefix: FTS5 sees a single phrase. */
const ONE_PHRASE = /^(?:"(?:[^"]|"")*"|[\p{L}\p{N}_]+)\*?$/u;

/**
 * The ranking function for one search: lookback_bm25() when the extension is
 * loaded, bm25() otherwise. A query of one phrase always can (its count changes no
 * order; native/rank.c walks nothing for it), on either table. A query of several
 * phrases only over the word index and without a prefix (`*`), initial token (`^`)
 * or column filter (`:`): the extension cannot tell a prefix token from a word, a
 * column filter changes a phrase's count, and term_df holds words, not trigrams.
 */
export function rankFunction(
  db: Database.Database,
  table: 'messages_fts' | 'messages_fts_trigram',
  match: string,
): 'bm25' | 'lookback_bm25' {
  const single = ONE_PHRASE.test(match.trim());
  if (!single && (table !== 'messages_fts' || /[*^:]/.test(match))) return 'bm25';
  return hasRankExtension(db) ? 'lookback_bm25' : 'bm25';
}
