/**
 * lookback's own derived index of the other agents' histories: SQLite with FTS5
 * (unicode61 for words, trigram for CJK). Everything in it can be rebuilt from the
 * agents' files, so a missing, corrupt or older-layout index is deleted and
 * created again rather than repaired.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lookbackCacheDir } from '../paths.js';
import { sleepSync } from '../store/open.js';
import { LOCK_WAIT_MS, TERM_DF_STALE } from '../budgets.js';

/** Bump when the tables change: an index of another layout is rebuilt from scratch. */
export const INDEX_LAYOUT = 2;

export function indexPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOOKBACK_INDEX) return env.LOOKBACK_INDEX;
  return join(lookbackCacheDir(env), 'agents.db');
}

/**
 * The triggers that keep the FTS tables equal to the messages. A first build
 * drops them and fills both tables once at the end (deferFts / fillFts): a
 * million inserts through them cost most of the first index's time. All of them
 * go, not only the insert ones: a delete trigger for a row FTS does not hold yet
 * fails ("database disk image is malformed").
 */
const TRIGGER_NAMES = [
  'messages_ai',
  'messages_ai_cjk',
  'messages_ad',
  'messages_ad_cjk',
  'messages_au',
  'messages_au_cjk_old',
  'messages_au_cjk_new',
];
const FTS_TRIGGERS = `
CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, text, reasoning, tool_calls) VALUES (new.id, new.text, new.reasoning, new.tool_calls);
END;
CREATE TRIGGER messages_ai_cjk AFTER INSERT ON messages WHEN new.cjk = 1 BEGIN
  INSERT INTO messages_fts_trigram (rowid, text, reasoning, tool_calls) VALUES (new.id, new.text, new.reasoning, new.tool_calls);
END;
CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, reasoning, tool_calls) VALUES ('delete', old.id, old.text, old.reasoning, old.tool_calls);
END;
CREATE TRIGGER messages_ad_cjk AFTER DELETE ON messages WHEN old.cjk = 1 BEGIN
  INSERT INTO messages_fts_trigram (messages_fts_trigram, rowid, text, reasoning, tool_calls) VALUES ('delete', old.id, old.text, old.reasoning, old.tool_calls);
END;
CREATE TRIGGER messages_au AFTER UPDATE OF text, reasoning, tool_calls, cjk ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, reasoning, tool_calls) VALUES ('delete', old.id, old.text, old.reasoning, old.tool_calls);
  INSERT INTO messages_fts (rowid, text, reasoning, tool_calls) VALUES (new.id, new.text, new.reasoning, new.tool_calls);
END;
CREATE TRIGGER messages_au_cjk_old AFTER UPDATE OF text, reasoning, tool_calls, cjk ON messages WHEN old.cjk = 1 BEGIN
  INSERT INTO messages_fts_trigram (messages_fts_trigram, rowid, text, reasoning, tool_calls) VALUES ('delete', old.id, old.text, old.reasoning, old.tool_calls);
END;
CREATE TRIGGER messages_au_cjk_new AFTER UPDATE OF text, reasoning, tool_calls, cjk ON messages WHEN new.cjk = 1 BEGIN
  INSERT INTO messages_fts_trigram (rowid, text, reasoning, tool_calls) VALUES (new.id, new.text, new.reasoning, new.tool_calls);
END;`;

/**
 * Each file's signature by agent and path: the idle pass's unchanged test reads
 * only this (native/filestat.c joins each listed path to it, and counts an
 * agent's files from it), not the table with its parse state. Added after layout
 * 2 was out, so an index from before gets it when opened (no rebuild).
 */
const FILES_SIG = `CREATE INDEX IF NOT EXISTS files_sig ON files (agent, path, parser_version, dev, ino, size, mtime_ms);`;

const SCHEMA = `
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY,
  agent TEXT NOT NULL,
  native_id TEXT NOT NULL,
  parent_native_id TEXT,
  parent_kind TEXT,
  title TEXT,
  title_rank INTEGER NOT NULL DEFAULT 0,
  cwd TEXT,
  git_branch TEXT,
  model TEXT,
  source TEXT,
  started_at INTEGER,
  last_active_at INTEGER,
  source_path TEXT,
  host TEXT,
  gone INTEGER NOT NULL DEFAULT 0,
  extra TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  preview TEXT,
  UNIQUE (agent, native_id)
);
CREATE INDEX conversations_active ON conversations (last_active_at);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  conv_id INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  anchor TEXT NOT NULL,
  role TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  reasoning TEXT,
  tool_name TEXT,
  call_id TEXT,
  tool_calls TEXT,
  created_at INTEGER,
  model TEXT,
  tokens INTEGER,
  flags INTEGER NOT NULL DEFAULT 0,
  original_len INTEGER NOT NULL DEFAULT 0,
  -- 1 when the row holds CJK text: only those rows go into the trigram index, the only
  -- index CJK queries use (a trigram index of every row would cost more than all the rest).
  cjk INTEGER NOT NULL DEFAULT 0,
  UNIQUE (conv_id, anchor)
);
CREATE INDEX messages_order ON messages (conv_id, ordinal);
CREATE VIRTUAL TABLE messages_fts USING fts5 (text, reasoning, tool_calls, content='messages', content_rowid='id');
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5 (text, reasoning, tool_calls, content='messages', content_rowid='id', tokenize='trigram');
${FTS_TRIGGERS}
-- One row per source file (or opencode database): what the last pass saw and where it stopped.
CREATE TABLE files (
  path TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  conv_id INTEGER,
  dev INTEGER, ino INTEGER, size INTEGER, mtime_ms REAL,
  byte_offset INTEGER NOT NULL DEFAULT 0,
  next_line INTEGER NOT NULL DEFAULT 0,
  next_ordinal INTEGER NOT NULL DEFAULT 0,
  carry TEXT,
  parser_version INTEGER NOT NULL,
  problems TEXT,
  indexed_at INTEGER
);
CREATE INDEX files_conv ON files (conv_id);
${FILES_SIG}
CREATE TABLE sources (agent TEXT PRIMARY KEY, last_indexed_at INTEGER, roots TEXT);
`;

/**
 * True while the FTS tables wait to be filled (the insert triggers are gone): a
 * first build is under way, or one stopped part way (a crash, a kill) and the
 * next pass carries it on. Searches find nothing until the fill.
 */
export function ftsDeferred(db: Database.Database): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'trigger' AND name = 'messages_ai'`)
      .get() === undefined
  );
}

/**
 * Whether this pass builds without the FTS tables: yes when a deferral is under
 * way (or was left by a crash), or when the index is empty, in which case the
 * triggers are dropped now. Decided under the write lock, so two passes starting
 * together cannot drop the triggers after the other one has filled the tables.
 */
export function deferFtsIfFirst(db: Database.Database): boolean {
  // Nearly every pass: the triggers are in place and the index holds messages. Seen
  // without the write lock (BEGIN IMMEDIATE on every idle pass made two lookbacks wait
  // on each other for nothing); nothing turns such an index back into a first build.
  if (!ftsDeferred(db) && db.prepare(`SELECT 1 FROM messages LIMIT 1`).get() !== undefined)
    return false;
  return db
    .transaction(() => {
      if (ftsDeferred(db)) return true;
      if (db.prepare(`SELECT 1 FROM messages LIMIT 1`).get() !== undefined) return false;
      // Empty after a finished pass: no agent had anything. Deferring again would drop
      // and re-create the triggers every pass, a commit the open app reloads on each
      // second; what comes later arrives a file at a time, through the triggers.
      if (db.prepare(`SELECT 1 FROM sources LIMIT 1`).get() !== undefined) return false;
      db.exec(TRIGGER_NAMES.map((t) => `DROP TRIGGER IF EXISTS ${t};`).join(' '));
      return true;
    })
    .immediate();
}

/**
 * Fills both FTS tables from the messages in one transaction and puts the
 * triggers back, so a crash part way leaves the deferred state for the next pass.
 * They are empty here: deferral starts only on an empty index and, with every
 * trigger gone, nothing writes them until now. Only the rows
 * holding CJK go into the trigram index, as the trigger does. Does nothing when
 * another process filled them first.
 */
export function fillFts(db: Database.Database): void {
  const filled = db
    .transaction(() => {
      if (!ftsDeferred(db)) return false;
      db.exec(`INSERT INTO messages_fts (rowid, text, reasoning, tool_calls)
        SELECT id, text, reasoning, tool_calls FROM messages ORDER BY id;
      INSERT INTO messages_fts_trigram (rowid, text, reasoning, tool_calls)
        SELECT id, text, reasoning, tool_calls FROM messages WHERE cjk = 1 ORDER BY id;
      ${TRIGGER_NAMES.map((t) => `DROP TRIGGER IF EXISTS ${t};`).join(' ')}
      ${FTS_TRIGGERS}`);
      return true;
    })
    .immediate();
  if (filled) mergeFts(db);
}

/**
 * Merges each FTS table into one segment after the bulk fill. The fill leaves
 * FTS5's incremental shape (29 segments in `messages_fts` for a million
 * messages), and every query, and every term bm25() counts for its IDF, then
 * merges one doclist per segment: one segment cut a ranked search's CPU by
 * ~8–15 % with the same rows and scores (README, Speed). It costs ~1.8 s of CPU
 * after a 36 s first index; its own transaction, so the fill is searchable first
 * and a stop part way leaves the index as it was.
 */
export function mergeFts(db: Database.Database): void {
  for (const t of ['messages_fts', 'messages_fts_trigram'])
    db.transaction(() => db.exec(`INSERT INTO ${t} (${t}) VALUES ('optimize')`)).immediate();
}

/**
 * The same merge into one segment, `pages` leaf pages per transaction (FTS5's
 * 'merge' with a negative count: every level, as 'optimize' does). FTS5's own
 * sign that nothing is left: the step changed fewer than two rows. For a pass
 * that rewrote much of an index that others may be writing to.
 */
export function mergeFtsStepwise(db: Database.Database, pages: number): void {
  const changes = db.prepare(`SELECT total_changes()`).pluck();
  for (const t of ['messages_fts', 'messages_fts_trigram']) {
    const step = db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('merge', ?)`);
    for (;;) {
      const done = db
        .transaction(() => {
          const before = changes.get() as number;
          step.run(-pages);
          return (changes.get() as number) - before < 2;
        })
        .immediate();
      if (done) break;
    }
  }
}

/**
 * The document count of every word in `messages_fts` (`term_df`), read by search's
 * ranking function (native/rank.c) instead of walking each query word's doclist.
 * Filled from fts5vocab (one walk of the whole index) after the first build, and
 * again by a pass that wrote messages once their highest id has grown by
 * TERM_DF_STALE since the last fill: ids only grow, so this costs one max(id) per
 * writing pass and nothing on an idle one. A word missing from it is counted live.
 * The vocab table is temp: nothing of it is in the file other readers open.
 * Returns whether it filled.
 */
export function refreshTermDocs(db: Database.Database, force = false): boolean {
  const top = (db.prepare(`SELECT ifnull(max(id), 0) FROM messages`).pluck().get() as number) || 0;
  const has = db
    .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'term_df_fill'`)
    .get();
  if (!force && has) {
    const at = db.prepare(`SELECT top FROM term_df_fill`).pluck().get() as number | undefined;
    if (at !== undefined && top <= at * (1 + TERM_DF_STALE)) return false;
  }
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.messages_fts_vocab USING fts5vocab(main, messages_fts, row)`,
  );
  db.transaction(() =>
    db.exec(`CREATE TABLE IF NOT EXISTS term_df (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS term_df_fill (top INTEGER NOT NULL, at INTEGER NOT NULL);
      DELETE FROM term_df;
      INSERT INTO term_df (term, docs) SELECT term, doc FROM temp.messages_fts_vocab;
      DELETE FROM term_df_fill;
      INSERT INTO term_df_fill (top, at) SELECT ifnull(max(id), 0), unixepoch('subsec') * 1000 FROM messages;`),
  ).immediate();
  return true;
}

/**
 * Runs `fn` again while another connection's lock refuses it. Switching to WAL
 * needs the file to itself and does not wait on SQLite's busy handler, so two
 * lookbacks creating the same index at once failed with "database is locked".
 */
function whenFree<T>(fn: () => T): T {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (!/^SQLITE_(BUSY|LOCKED)/.test(code) || Date.now() > until) throw err;
      sleepSync(20);
    }
  }
}

function openFresh(path: string): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: LOCK_WAIT_MS });
  whenFree(() => db.pragma('journal_mode = WAL'));
  db.pragma('synchronous = OFF'); // disposable: a process crash cannot lose a commit; a power loss is a rebuild
  writerCache(db);
  // Another lookback may be creating the same index: the first one's schema wins.
  db.exec('BEGIN IMMEDIATE');
  if ((db.pragma('user_version', { simple: true }) as number) === INDEX_LAYOUT) db.exec('COMMIT');
  else db.exec(`${SCHEMA} PRAGMA user_version = ${INDEX_LAYOUT}; COMMIT;`);
  return db;
}

/**
 * 64 MB of page cache for the connection that indexes (SQLite's default is 2 MB):
 * FTS5 segment merges and the message b-trees re-read the same pages, and with
 * the default cache each re-read goes back to the OS as the index grows past it.
 */
function writerCache(db: Database.Database): void {
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
}

function removeIndex(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`, `${path}-pass`])
    rmSync(p, { force: true });
}

export interface OpenedIndex {
  db: Database.Database;
  /** Why it was rebuilt, when it was. */
  rebuilt: string | null;
}

function noTables(db: Database.Database): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_schema LIMIT 1`).get() === undefined;
}

/** Opens the index, rebuilding it when it is missing, corrupt or of another layout. */
export function openIndex(path = indexPath()): OpenedIndex {
  if (!existsSync(path)) return { db: openFresh(path), rebuilt: 'missing' };
  let db: Database.Database | null = null;
  let why: string;
  try {
    db = new Database(path, { timeout: LOCK_WAIT_MS });
    const version = db.pragma('user_version', { simple: true }) as number;
    // Another lookback is creating it (its file is there, its schema not yet): join
    // in, as openFresh does; removing the file under it lost that process's index.
    if (version === 0 && noTables(db)) {
      db.close();
      return { db: openFresh(path), rebuilt: 'missing' };
    }
    if (version === INDEX_LAYOUT) {
      whenFree(() => db!.pragma('journal_mode = WAL'));
      db.pragma('synchronous = OFF'); // disposable: a process crash cannot lose a commit; a power loss is a rebuild
      writerCache(db);
      try {
        db.exec(FILES_SIG); // a schema read when it is there already
      } catch {
        /* locked past the wait, or read-only: the pass is slower, not wrong */
      }
      // Touch every table once: a damaged file fails here, not in the middle of a pass.
      db.prepare('SELECT count(*) FROM conversations').get();
      db.prepare('SELECT rowid FROM messages_fts LIMIT 1').all();
      db.prepare('SELECT path FROM files LIMIT 1').all();
      return { db, rebuilt: null };
    }
    why = `layout ${version}, expected ${INDEX_LAYOUT}`;
  } catch (err) {
    why = `unreadable (${(err as Error).message.split('\n')[0]})`;
  }
  try {
    db?.close();
  } catch {
    /* already unusable */
  }
  removeIndex(path);
  return { db: openFresh(path), rebuilt: why };
}

/**
 * A stamp beside the index, touched after every complete pass: a command-line
 * call skips its own pass when another process (the open app) finished one
 * within `freshMs`. A file's mtime, not a row: stamping must not wake readers.
 */
export function stampPass(path: string): void {
  const stamp = `${path}-pass`;
  try {
    const now = new Date();
    if (!existsSync(stamp)) closeSync(openSync(stamp, 'a'));
    utimesSync(stamp, now, now);
  } catch {
    /* a missing stamp only costs the next call a pass */
  }
}

export function passIsFresh(path: string, freshMs: number, now = Date.now()): boolean {
  try {
    const age = now - statSync(`${path}-pass`).mtimeMs;
    return age >= 0 && age < freshMs;
  } catch {
    return false;
  }
}
