/**
 * The snippets of a search's shown rows: FTS5's snippet(table, -1, '>>>', '<<<',
 * '...', SNIPPET_TOKENS), taken from the ranking statement's record of each row's
 * phrase instances where native/snippet.c can (no second walk of the index), and
 * from snippet() itself for any row it cannot.
 */
import type Database from 'better-sqlite3';
import type { Route } from '../store/query.js';
import { SNIPPET_TOKENS } from '../budgets.js';
import { hasSnippetNotes } from './rankExt.js';
import { stmt } from './statements.js';

/** Numbers for lookback_note(): one per ranking, never reused in this process. */
let lastNote = 0;
/**
 * A fresh record number when the ranking will record its rows (a search by
 * relevance over an FTS5 table, with the extension loaded), else 0: no record, and
 * the snippets come from snippet().
 */
export function noteFor(db: Database.Database, ranked: boolean): number {
  return ranked && hasSnippetNotes(db) ? ++lastNote : 0;
}

/** The tokenizer each index table declares (indexDb.ts SCHEMA). */
const TOKENIZER = { messages_fts: 'unicode61', messages_fts_trigram: 'trigram' } as const;

/**
 * The shown rows' snippets: FTS5's snippet(table, -1, '>>>', '<<<', '...',
 * SNIPPET_TOKENS), byte for byte. Where the ranking statement recorded the rows
 * (`note`, native/snippet.c), lookback_snippet() builds them from the plain
 * `messages` rows and that record, without walking the index again; any row it
 * has no record for (no extension, a sort by time, a record past its bounds)
 * comes from snippet() itself.
 */
export function indexSnippets(
  db: Database.Database,
  route: Exclude<Route, { kind: 'empty' }>,
  match: string,
  ids: readonly number[],
  note = 0,
): Map<number, string> {
  if (route.kind === 'like' || ids.length === 0) {
    if (note > 0) stmt(db, `SELECT lookback_note_reset()`).get();
    return new Map();
  }
  const table = route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
  const out = new Map<number, string>();
  if (note > 0) {
    const rows = stmt(
      db,
      `SELECT id, lookback_snippet(?, id, ?, '>>>', '<<<', '...', ${SNIPPET_TOKENS}, text, reasoning, tool_calls)
       FROM messages WHERE id IN (SELECT value FROM json_each(?))`,
    )
      .raw(true)
      .all(note, TOKENIZER[table], JSON.stringify(ids)) as [number, string | null][];
    for (const [id, s] of rows) if (s !== null) out.set(id, s);
    // The record holds one query's rows; freed now rather than kept while idle.
    stmt(db, `SELECT lookback_note_reset()`).get();
  }
  const rest = out.size === 0 ? ids : ids.filter((id) => !out.has(id));
  if (rest.length > 0) for (const [id, s] of fromIndex(db, table, match, rest)) out.set(id, s);
  return out;
}

/**
 * FTS5's snippets of the rows in one statement. FTS5 drops a `rowid = ?`
 * bound as REAL (better-sqlite3 binds every JS number so): every result showed
 * the first match's snippet. Here the bounds are BigInt, so FTS5 walks only the
 * matches between the lowest and highest shown row (they are mostly the newest),
 * and `+rowid IN` keeps the exact test out of FTS5, which would run the whole
 * query again per value (1–3 ms a row for a prefix query such as `deploy*`).
 */
function fromIndex(
  db: Database.Database,
  table: 'messages_fts' | 'messages_fts_trigram',
  match: string,
  ids: readonly number[],
): Map<number, string> {
  const rows = stmt(
    db,
    `SELECT rowid AS id, snippet(${table}, -1, '>>>', '<<<', '...', ${SNIPPET_TOKENS}) AS s FROM ${table}
     WHERE ${table} MATCH ? AND rowid >= ? AND rowid <= ? AND +rowid IN (SELECT value FROM json_each(?))`,
  ).all(match, BigInt(Math.min(...ids)), BigInt(Math.max(...ids)), JSON.stringify(ids)) as {
    id: number;
    s: string | null;
  }[];
  return new Map(rows.map((r) => [r.id, r.s ?? '']));
}
