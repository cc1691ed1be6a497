import type { Database } from './sqlite.js';
import { StoreError, oneLine } from './errors.js';

/** The newest schema version whose layout lookback knows; newer ones are read with a warning. */
export const KNOWN_SCHEMA_VERSION = 30;

export type FtsKind = 'none' | 'inline' | 'external';

/** What this store has, read once at open so every query can adapt to it (STORE.md "Detect, don't assume"). */
export interface Layout {
  schemaVersion: number | null;
  sessionColumns: ReadonlySet<string>;
  messageColumns: ReadonlySet<string>;
  fts: FtsKind;
  /** Columns of `messages_fts`; column 0 is always the text. */
  ftsColumns: readonly string[];
  trigram: boolean;
  /**
   * The state of the full-text indexes, beyond their presence: whether the
   * store still keeps them up to date (an AFTER INSERT trigger on messages),
   * whether `messages_fts` has a `_docsize` shadow table (which lets a search
   * tell, cheaply, whether the newest messages are indexed), and why an index
   * that exists cannot be used (null when it can).
   */
  ftsIndex: {
    maintained: boolean;
    docsize: boolean;
    damaged: string | null;
  };
  /** Optional columns, named so queries read as intent rather than set lookups. */
  has: {
    active: boolean;
    /** `compacted` (v24+): with active = 0, a turn archived by in-place compaction (history, not rewound). */
    compacted: boolean;
    displayKind: boolean;
    /** `display_order`: the displayed transcript's order; compaction tail copies share one value. */
    displayOrder: boolean;
    /** `message_uid`: a logical id kept across compaction and branch copies. */
    messageUid: boolean;
    archived: boolean;
    hidden: boolean;
    pinned: boolean;
    cwd: boolean;
    gitRepoRoot: boolean;
    lastActivityAt: boolean;
    reasoning: boolean;
    reasoningContent: boolean;
    reasoningDetails: boolean;
    codexMessageItems: boolean;
    gitBranch: boolean;
    /** A `state_meta(key, value)` table: FTS storage version, staleness and rebuild progress live there. */
    stateMeta: boolean;
    /** An index on messages(session_id, id): keyset windows by id are index seeks. */
    sessionIdIndex: boolean;
  };
  warnings: string[];
}

const REQUIRED_SESSION = ['id', 'source', 'parent_session_id', 'started_at'];
const REQUIRED_MESSAGE = ['id', 'session_id', 'role', 'content', 'timestamp'];

function columns(db: Database, table: string): Set<string> {
  const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

export function detectLayout(db: Database, path: string): Layout {
  const objects = db
    .prepare(`SELECT name, type, sql FROM sqlite_master WHERE type IN ('table', 'view')`)
    .all() as { name: string; type: string; sql: string | null }[];
  const byName = new Map(objects.map((o) => [o.name, o]));
  for (const t of ['sessions', 'messages']) {
    if (byName.get(t)?.type !== 'table')
      throw new StoreError(`${path} is not a Hermes session store (no "${t}" table)`, 'schema');
  }
  const sessionColumns = columns(db, 'sessions');
  const messageColumns = columns(db, 'messages');
  const missing = [
    ...REQUIRED_SESSION.filter((c) => !sessionColumns.has(c)).map((c) => `sessions.${c}`),
    ...REQUIRED_MESSAGE.filter((c) => !messageColumns.has(c)).map((c) => `messages.${c}`),
  ];
  if (missing.length > 0)
    throw new StoreError(`${path} is missing required columns: ${missing.join(', ')}`, 'schema');

  const warnings: string[] = [];
  let schemaVersion: number | null = null;
  if (byName.has('schema_version')) {
    const row = db.prepare(`SELECT MAX(version) AS v FROM schema_version`).get() as
      { v: number | null } | undefined;
    schemaVersion = typeof row?.v === 'number' ? row.v : null;
  }
  if (schemaVersion !== null && schemaVersion > KNOWN_SCHEMA_VERSION)
    warnings.push(
      `schema version ${schemaVersion} is newer than lookback knows (${KNOWN_SCHEMA_VERSION}); reading the columns it recognises`,
    );

  const ftsSql = byName.get('messages_fts')?.sql ?? '';
  let fts: FtsKind = 'none';
  let ftsColumns: string[] = [];
  let damaged: string | null = null;
  if (/fts5/i.test(ftsSql)) {
    try {
      ftsColumns = [...columns(db, 'messages_fts')];
      // External-content tables read a view of several columns (v23+); the legacy
      // inline table holds one concatenated text column.
      fts = ftsColumns.length > 1 ? 'external' : 'inline';
    } catch (err) {
      // A damaged index (its config or structure lost) fails as soon as FTS5
      // connects to it: read the store without it rather than not at all.
      damaged = oneLine((err as Error)?.message ?? String(err));
    }
  }
  const triggers = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages'`)
    .pluck()
    .all() as (string | null)[];
  const insertTriggerFor = (table: RegExp) =>
    triggers.some((sql) => sql !== null && /\bAFTER\s+INSERT\b/i.test(sql) && table.test(sql));
  // \b does not fall between "messages_fts" and "_trigram": the two names never match each other.
  const maintained = insertTriggerFor(/\bmessages_fts\b/i);
  let trigram = /fts5/i.test(byName.get('messages_fts_trigram')?.sql ?? '');
  if (fts === 'none' && damaged !== null)
    warnings.push(`the full-text index is damaged (${damaged}); searching with LIKE (slower)`);
  else if (fts === 'none')
    warnings.push('this store has no full-text index; searching with LIKE (slower)');
  else if (!maintained)
    warnings.push(
      'the full-text index is not kept up to date (its triggers are missing); searches use LIKE when it lags behind',
    );
  if (trigram && !insertTriggerFor(/\bmessages_fts_trigram\b/i)) {
    // A stale trigram index would silently miss new CJK text: use the substring scan instead.
    trigram = false;
    warnings.push('the trigram index is not kept up to date; CJK searches use LIKE');
  }

  return {
    schemaVersion,
    sessionColumns,
    messageColumns,
    fts,
    ftsColumns,
    trigram,
    ftsIndex: {
      maintained,
      docsize: fts !== 'none' && byName.get('messages_fts_docsize')?.type === 'table',
      damaged,
    },
    has: {
      active: messageColumns.has('active'),
      compacted: messageColumns.has('compacted'),
      displayKind: messageColumns.has('display_kind'),
      displayOrder: messageColumns.has('display_order'),
      messageUid: messageColumns.has('message_uid'),
      archived: sessionColumns.has('archived'),
      hidden: sessionColumns.has('hidden'),
      pinned: sessionColumns.has('pinned'),
      cwd: sessionColumns.has('cwd'),
      gitRepoRoot: sessionColumns.has('git_repo_root'),
      lastActivityAt: sessionColumns.has('last_activity_at'),
      reasoning: messageColumns.has('reasoning'),
      reasoningContent: messageColumns.has('reasoning_content'),
      reasoningDetails: messageColumns.has('reasoning_details'),
      codexMessageItems: messageColumns.has('codex_message_items'),
      gitBranch: sessionColumns.has('git_branch'),
      stateMeta: byName.get('state_meta')?.type === 'table',
      sessionIdIndex: hasSessionIdIndex(db),
    },
    warnings,
  };
}

/** Whether messages has an index whose leading columns are (session_id, id); rowid counts as id. */
function hasSessionIdIndex(db: Database): boolean {
  const indexes = db.prepare(`SELECT name FROM pragma_index_list('messages')`).all() as {
    name: string;
  }[];
  return indexes.some(({ name }) => {
    const cols = db.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(name) as {
      name: string | null;
    }[];
    // pragma_index_info names the rowid as NULL; an INTEGER PRIMARY KEY alias appears as the alias.
    return (
      cols[0]?.name === 'session_id' &&
      (cols.length === 1 || cols[1]?.name === 'id' || cols[1]?.name === null)
    );
  });
}
