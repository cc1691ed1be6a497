/**
 * Every budget and limit of lookback in one place: timeouts, debounces, caps,
 * window sizes, TTLs, batch and page sizes. Each says why it is what it is;
 * change one here and every door sees the same value. Geometry (column widths,
 * gutters), id encodings and schema versions are not budgets and stay with
 * their modules. This file imports nothing, so any layer may import it.
 */

// ---- Reading sources: short reads, no lock or connection held while idle ----

/** Readers wait this long for a writer's lock before we report "store busy" (never freeze the UI). */
export const BUSY_TIMEOUT_MS = 400;
/**
 * Page cache of each read connection to a Hermes store in the app's threads, in KiB
 * (`PRAGMA cache_size`, set by `smallPageCache()` in src/store/open.ts).
 * better-sqlite3 builds SQLite with 16,000 KiB a connection (SQLite's own default is
 * 2,000). In the app the query worker's Recent (a count over every message row) filled
 * ~10 MB of it and the main thread's walk through a long conversation its own; SQLite
 * frees it at the idle close (IDLE_CLOSE_MS), but glibc keeps a thread's freed malloc
 * memory, so the high-water mark stayed in RSS (a forced malloc_trim gave back 17 MB).
 * Pages beyond it are re-read from the OS's file cache, not the disk; that costs a warm
 * search ~1.5x, so one-shot commands (CLI, library, MCP) keep the 16,000.
 */
export const STORE_CACHE_KIB = 2_000;
/** How often a read that hit a writer's lock or a transient I/O error is tried again. */
export const READ_RETRIES = 2;
/**
 * The connection is closed after this long without a read (STORE.md "Being a
 * good neighbour"): the agent refuses its own maintenance while any process
 * holds state.db, -wal or -shm open. The next read reconnects (well under a
 * millisecond on the fixtures; see docs/RELIABILITY.md).
 */
export const IDLE_CLOSE_MS = 3_000;
/**
 * A file system stores mtimes with some granularity (1 ns on ext4, 2 s on
 * FAT): a write in the same tick as the stamp can leave it unchanged. A stamp
 * whose newest mtime is at least this far before the moment it was taken
 * cannot be fooled that way (git's "racy" rule).
 */
export const SETTLED_MS = 2_000;
/** How long a lock held by another lookback is waited for. */
export const LOCK_WAIT_MS = 5000;
/** Ids below the watermark re-listed on every sync: commits that landed out of id order. */
export const TRAILING_IDS = 2_000;
/** Rows per statement: each batch is its own short read. */
export const PG_BATCH_ROWS = 5_000;
/** Ids per `= ANY($1)` lookup. */
export const PG_ID_CHUNK = 2_000;
/** A PostgreSQL statement that runs longer is cancelled by the server: a sync never holds the database. */
export const PG_STATEMENT_TIMEOUT_MS = 15_000;
/**
 * The app syncs a PostgreSQL profile this often (longer when a sync is slow),
 * the cadence at which it polls a local store (POLL_MS): an unchanged database
 * costs one connection and a few catalog reads, and no connection is kept between.
 */
export const LIVE_SYNC_MS = 1_000;
/** A first sync of a large store takes seconds; past this the caller gives up (the worker is stopped). */
export const SYNC_WAIT_MS = 10 * 60_000;
/** The app lists the synced hosts' profiles again at most this often (each request asks; a sync adds them). */
export const HOSTS_RELIST_MS = 2_000;
/** A PostgreSQL sync draws its progress line on a terminal once it has run this long (a quick one draws nothing). */
export const PG_PROGRESS_AFTER_MS = 400;
/** ...or at once when it copies at least this many messages (a big first copy always says how far it is). */
export const PG_PROGRESS_BIG_COPY = 10_000;
/** Seconds to wait for the connection; a host that is down is one line after this. */
export const SSH_CONNECT_TIMEOUT_S = 10;
/** Messages per read transaction on the remote: each holds the agent's lock only briefly. */
export const REMOTE_PAGE_ROWS = 2000;
/** How long a sync waits for another lookback process syncing the same mirror. */
export const MIRROR_WRITE_WAIT_MS = 30_000;
/** A clipboard tool answers in milliseconds; one that takes longer is stuck (e.g. no X server). */
export const COPY_TIMEOUT_MS = 2_000;
/** Text limit in UTF-8 bytes; the base64 payload is a third larger. */
export const OSC52_MAX_BYTES = 100 * 1024;

// ---- Search and recall: the agent's tool contract and the search's own pages ----

/** The agent caps queries at this many code points. */
export const MAX_QUERY_CHARS = 2048;
/** The agent takes at most this many `exclude_session_ids`. */
export const MAX_EXCLUDED = 20;
/** Rows a find returns at most (a word in every message of a 100k-message chain). */
export const FIND_MAX = 10_000;
/** Parent chains in damaged stores can be long or cyclic: never walk further than this. */
export const LINEAGE_DEPTH_CAP = 100;
/** A pasted id prefix matches at most this many sessions; more means "keep typing". */
export const PREFIX_MATCH_LIMIT = 20;
/** The agent scans this many hits before deduping by lineage (and may return fewer conversations). */
export const AGENT_SCAN = 300;
/**
 * lookback's first page of ranked hits. Any size gives the same answer (pages
 * widen until `limit` conversations are found or the matches run out, and cron
 * hits wait for their own pass), so the first page is as small as usually suffices.
 */
export const FIRST_FETCH = 300;
/** Each wider page of ranked hits is this many times the last. */
export const FETCH_GROWTH = 8;
/** Rows per keyset page of a substring scan. */
export const LIKE_PAGE = 50;
/** Ranked ids are filtered this many at a time: most searches have their conversations in the first batch. */
export const FILTER_BATCH = 40;
/** Matching message rows a count reads at most; past it the count says "N+". */
export const COUNT_ROW_CAP = 50_000;
/** FTS5 snippet size in tokens, as the agent asks for. */
export const SNIPPET_TOKENS = 40;
/** Characters of context a substring-scan snippet shows before the match. */
export const LIKE_SNIPPET_BEFORE = 40;
/** Characters of a substring-scan snippet from the match on. */
export const LIKE_SNIPPET_AFTER = 80;
/** Longest title looked up with LIKE (SQLite refuses patterns over 50,000 bytes). */
export const TITLE_LIKE_MAX = 1_000;
/** Messages on each side of a result's anchor (the agent's window). */
export const RESULT_WINDOW = 5;
/** How many opening/closing messages a discover view shows. */
export const BOOKEND_SIZE = 3;
/**
 * Ids scanned next to an anchor before falling back to the (session_id, id) index
 * on old layouts: wide enough for a ±20 window among a few concurrent sessions.
 */
export const NEARBY_IDS = 256;
/** Read: the whole session when small, else the head and tail (the agent's read shape). */
export const READ_SMALL = 30;
/** A long read shows this many messages from the start... */
export const READ_HEAD = 20;
/** ...and this many from the end. */
export const READ_TAIL = 10;
/** The agent's preview: first user message, newlines folded, 60 characters then "...". */
export const PREVIEW_CHARS = 60;
/** Up to this `limit`, browse ranks a candidate pool instead of every conversation. */
export const POOL_LIMIT = 200;
/** The pool starts at twice `limit` plus this: chain segments collapse and hidden sessions drop out. */
export const POOL_MARGIN = 10;
/** How many of the newest messages the pool looks through at most. */
export const POOL_SCAN_MESSAGES = 20_000;
/** The agent's scroll window: messages either side of the anchor unless asked (the tool's default). */
export const DEFAULT_SCROLL_WINDOW = 5;
/** The smallest scroll window the tool accepts; smaller asks are clamped up. */
export const MIN_SCROLL_WINDOW = 1;
/** The largest scroll window the tool accepts; larger asks are clamped down. */
export const MAX_SCROLL_WINDOW = 20;
/** Text caps of the agent's tool: a discover window, its bookends, a read (STORE.md "Caps"). */
export const WINDOW_CHARS = 4000;
/** Characters per bookend message (STORE.md "Caps"). */
export const BOOKEND_CHARS = 1200;
/** Characters per message of a read (STORE.md "Caps"). */
export const READ_CHARS = 2000;
/** OR terms at most: a pasted paragraph must not become a thousand-term query. */
export const RELAXED_MAX_TERMS = 32;

// ---- The other agents' index ----

/** Files written per transaction (a crash leaves the previous batch)... */
export const BATCH_FILES = 200;
/** ...and a batch is closed after this many messages. */
export const BATCH_MESSAGES = 20_000;
/** How often a pass that changed nothing still stamps `sources.last_indexed_at`. */
export const SOURCE_STAMP_MS = 60_000;
/** A side file of metadata (Kimi's state.json, Cline's task_metadata.json) above this is not read. */
export const SIDE_JSON_MAX_BYTES = 4 * 1024 * 1024;
/** Whole-document sources above this are skipped with a reason (FAD skips sidecars above 100 MB). */
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** How deep under the home directory Aider's per-repository files are looked for. */
export const AIDER_DEPTH = 4;
/** One walk for Aider's files a minute serves the root check and the listings of the passes in it. */
export const AIDER_WALK_MS = 60_000;
/** One tool output's indexed text is capped (rule 6); the original length is kept. */
export const TEXT_CAP = 8 * 1024;
/** Prompts and replies are capped much higher: they are what people search for. */
export const MESSAGE_CAP = 256 * 1024;
/**
 * Matches scored per round of a relevance search: the newest this many, then 4x
 * more. bm25() costs 2–4 µs a match (it reads each match's column sizes), so 500
 * is about 1.5 ms of a 5 ms search over a million messages; 2,000 was 6 ms.
 */
export const RANK_WINDOW = 500;
/**
 * term_df (the per-word document counts lookback_bm25() ranks with) is filled again
 * once the messages have grown by this fraction since its last fill. Counts that
 * old move a word's IDF by under ~1 % at a million messages (README, Other agents).
 */
export const TERM_DF_STALE = 0.05;
/**
 * A pass that wrote at least this many messages, and at least this share of the
 * index (a parser version bump re-reads every file of an agent), merges the FTS
 * tables again: its writes left them in many segments (15 → 21 at a million
 * messages when one agent's 600,000 were re-read), and a search merges one
 * doclist per segment. In steps of `pages` leaf pages, each its own transaction,
 * so another lookback's writer waits for one step, not the whole merge (~4.5 s).
 */
export const REWRITE_MERGE = { messages: 1000, share: 0.25, pages: 2000 };
/** Bytes read from a log per readSync: large enough for few calls, small enough to stream. */
export const LINE_READ_CHUNK = 1024 * 1024;
/** A pass over the agents' files that ended this recently (by any process) is not repeated. */
export const CLI_FRESH_MS = 3_000;
/** A pass this recent (the open app runs one every second or so) is not repeated by `sources`. */
export const SOURCES_FRESH_MS = 3_000;
/** Milliseconds between incremental passes while the app is open (new messages show within ~2 s). */
export const INDEX_EVERY_MS = 800;

// ---- The doors: command line, MCP server, anchors, export ----

/**
 * A semantic or hybrid search embeds what is new for at most this long, then
 * answers from the vectors there are and says how many messages they cover;
 * the next search goes on where this one stopped (a first search over a big
 * store would otherwise wait minutes: cass#347). At least one page is embedded.
 */
export const SEARCH_EMBED_BUDGET_MS = 1_500;

/** The agent tool's limits: 3 conversations unless asked, never more than 10. */
export const MCP_LIMIT_DEFAULT = 3;
/** ...and never more than 10, as the agent's tool caps it. */
export const MCP_LIMIT_MAX = 10;
/** One request line; a tool call is a few hundred bytes. Longer lines are refused, not buffered. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** An error message on the wire is cut to this many characters (one line, never a dump). */
export const MCP_MESSAGE_MAX_CHARS = 300;
/** A tool call's arguments are a few hundred bytes; 1 MiB is generous and bounded. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The MCP server's store choice (--db, --profile, the active profile, a
 * PostgreSQL profile's config) is kept this long: a call reuses the last
 * choice instead of reading config files again (it was ~5% of a search call over
 * stdio); a store that appears, or a config that changes, is seen within this.
 */
export const STORE_CHOICE_TTL_MS = 1_000;
/** The tool list changes only with a new lookback: clients may cache it for an hour. */
export const LIST_TTL_MS = 60 * 60 * 1000;
/** Anything longer is a pasted document, not an anchor; also bounds the work done. */
export const MAX_ANCHOR_INPUT = 4_096;
/** A multi-anchor block beyond this many is not something a person pasted by hand. */
export const MAX_PARSED_ANCHORS = 200;
/** A quote is for pasting into a prompt; longer than this it drowns the question. */
export const QUOTE_MAX_CHARS = 4_000;
/** One message in a copied window; keeps a giant tool output from filling the clipboard. */
export const WINDOW_MESSAGE_MAX_CHARS = 20_000;
/** Title words kept in a name; enough to recognise it, short enough for any filesystem. */
export const TITLE_SLUG_MAX = 60;

// ---- The app: keys within a frame, memory that does not grow ----

/** Full-text search waits this long after the last key before asking (typing stays smooth; results still feel live). */
export const SEARCH_DEBOUNCE_MS = 80;
/** How often the store is asked whether the agent wrote (PRAGMA data_version: one cheap read). */
export const POLL_MS = 1_000;
/**
 * While the agent writes, a change refreshes only the top of Recent (where new
 * activity lands); the whole list, thousands of rows, at most this often. A
 * full refresh every second was the app's main cost to a busy agent.
 */
export const LIVE_FULL_REFRESH_MS = 10_000;
/**
 * The other agents' indexer starts this long after start: its worker thread loading
 * beside the first frame cost that frame ~30 ms on 2 cores (npm run bench, first frame
 * at 160x48: 352 vs 320 ms median with LOOKBACK_AGENTS=hermes).
 */
export const INDEX_START_DELAY_MS = 400;
/**
 * The read-ahead at a conversation's loaded edges runs this long after the
 * frame of a key is drawn: the next macrotask, so a key already waiting goes first.
 */
export const PREFETCH_DELAY_MS = 0;
/** A status message stays this long, then the key hints come back. */
export const STATUS_TTL_MS = 8_000;
/** How long the selection must rest before its conversation is read (longer than a key repeat). */
export const PREVIEW_DELAY_MS = 60;
/** Lines one wheel notch scrolls (less and most terminals use 3). */
export const WHEEL_LINES = 3;
/** Two clicks on one row within this many ms are a double click. */
export const DOUBLE_CLICK_MS = 400;
/** Loads per key press when the viewport nears an edge (each one is a keyset page). */
export const MAX_EDGE_LOADS = 3;
/**
 * Screens from a loaded edge at which the next slice is read ahead, after the
 * frame. PgUp moves a screen, so by the time a key brings the viewport within a
 * screen of the edge (where ensureEdges must read before drawing), the slice is
 * already there: the 6-10 ms store page and layout leave the key's path
 * (`npm run bench`, keys section, 200x60 PgUp/PgDn).
 */
export const PREFETCH_SCREENS = 3;
/** Results loaded ahead of the selection: more are asked for when it comes this close to the end. */
export const LOAD_AHEAD = 8;
/** The most rows G asks for at once: the end of a very broad query is still a few ms of store reads. */
export const END_LIMIT = 5_000;
/** A running search older than this is killed when a newer one arrives; younger ones finish (cheaper than a restart). */
export const SUPERSEDE_AFTER_MS = 150;
/**
 * Messages held at once. A conversation can have tens of thousands of
 * messages; a few hundred is several screens of context either side of the
 * viewport at any width, bounds memory and layout work, and keeps every
 * re-layout (resize, reasoning toggle) well inside a frame.
 */
export const WINDOW_MAX_MESSAGES = 300;
/** Messages fetched each time the viewport nears a loaded edge (keyset page). */
export const SLICE_MESSAGES = 100;
/** Messages loaded before an anchor when a window opens. */
export const OPEN_BEFORE = 60;
/** Messages loaded after the anchor when a conversation opens. */
export const OPEN_AFTER = 100;
/** Characters of one message laid out; a multi-megabyte paste would otherwise cost seconds and thousands of lines. */
export const MESSAGE_MAX_CHARS = 50_000;
/** Lines of an expanded tool call or tool output; the rest is a note (copy the message to read it all). */
export const EXPANDED_MAX_LINES = 400;
/** Reasoning is a side channel: a few screens at most. */
export const REASONING_MAX_CHARS = 8_000;
/**
 * Laid-out messages kept: the window at two widths (a resize and back re-wraps
 * nothing). Was 2,000: after a walk through a 10,000-message conversation it held
 * 10 MB of the app's 27 MB of live heap (heap snapshot), for messages the window
 * had already let go of.
 */
export const LAYOUT_CACHE_MAX = 2 * WINDOW_MAX_MESSAGES;
/** A search line longer than this is a paste gone wrong; the rest is dropped. */
export const LINE_MAX_CHARS = 2_000;
/** Queries remembered; enough for weeks of use, small enough to read at start in no time. */
export const HISTORY_MAX = 200;
/** The full Recent list (also what fuzzy search searches), loaded off the main thread. */
export const RECENT_FULL_LIMIT = 5_000;
/** Results per full-text search (the agent fetches 50 hits before deduping); more load a page at a time. */
export const SEARCH_LIMIT = 50;
/** Hit counts are posted in batches so the visible rows fill in first. */
export const HIT_COUNT_BATCH = 8;
/** Messages scanned at each end of a conversation for its opening / closing bookend. */
export const BOOKEND_SCAN = 20;
/** Results shown in fuzzy mode. */
export const FUZZY_LIMIT = 100;
/**
 * A conversation is live (●) when its newest segment has no `ended_at` AND it
 * was active within this window. An agent that crashed never writes `ended_at`;
 * without the window its conversation would read "live" forever.
 */
export const LIVE_WINDOW_S = 10 * 60;
/** Two frames at RENDER_OPTIONS.maxFps: long enough for ink's pending frame to be written. */
export const SUSPEND_AFTER_MS = 40;
/** Quiet time after the last frame before collecting. */
export const IDLE_COLLECT_MS = 1_000;
/** Heap growth since the last collection that makes one worth it. */
export const COLLECT_AFTER_BYTES = 8 * 1024 * 1024;

// ---- Text: bounds that keep hostile input linear ----

/** Past this, a region without certain boundaries is cut at a likely one to keep the segmenter linear. */
export const REGION_SOFT_MAX = 256;
/** Past this, cut anywhere that does not split a surrogate pair (only hostile input gets here). */
export const REGION_HARD_MAX = 1_024;
/**
 * string-width costs microseconds per call (segmenter, several /v regexes), and
 * text repeats its graphemes heavily: remember widths of graphemes seen lately.
 * A memo of a pure function, not layout state.
 */
export const GRAPHEME_MEMO_LIMIT = 8_192;
/** Quotes and lists inside quotes and lists: deeper than this is laid out flat. */
export const MARKDOWN_MAX_NESTING = 8;
/**
 * Inline markup is looked for only in lines up to this long: finding a
 * closing marker scans ahead, and a pasted blob of unclosed `[` or `**` would
 * make that quadratic. Longer lines are shown as plain text.
 */
export const INLINE_MAX_CHARS = 4_000;
/** Terms beyond this add nothing a reader can see and only slow the pattern down. */
export const HIGHLIGHT_MAX_TERMS = 32;
/** Longer terms are pasted blobs, not something to highlight. */
export const HIGHLIGHT_MAX_TERM_LENGTH = 200;
/** Queries are capped like the agent caps them before MATCH. */
export const HIGHLIGHT_MAX_QUERY_LENGTH = 2048;
/** Deeper nesting than this is shown as compact JSON on one line (and the stack is safe). */
export const JSON_MAX_DEPTH = 64;
/** Combining marks kept on one base; more is a "zalgo" flood that wrecks cell widths. */
export const MAX_COMBINING_MARKS = 4;

/** Filter completion (the search line's Tab): at most this many distinct values of a field per source, newest first. */
export const FILTER_VALUES_MAX = 200;
/** Completions offered at once for the word at the cursor. */
export const COMPLETIONS_SHOWN = 8;
// ---- Pages of the list and messages questions (every door: MCP tools, `lookback list|messages`) ----

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
export const MESSAGES_LIMIT_DEFAULT = 50;
export const MESSAGES_LIMIT_MAX = 500;
/** Characters of message text per page: about 5k tokens by default. */
export const MAX_CHARS_DEFAULT = 20_000;
export const MAX_CHARS_MIN = 200;
export const MAX_CHARS_MAX = 500_000;

const clamp = (v: number | undefined, d: number, lo: number, hi: number) =>
  Math.max(lo, Math.min(v ?? d, hi));

/** Conversations per list page, clamped into range (a door says nothing when it clamps). */
export const listLimit = (n: number | undefined) => clamp(n, LIST_LIMIT_DEFAULT, 1, LIST_LIMIT_MAX);
export const messagesLimit = (n: number | undefined) =>
  clamp(n, MESSAGES_LIMIT_DEFAULT, 1, MESSAGES_LIMIT_MAX);
export const maxChars = (n: number | undefined) =>
  clamp(n, MAX_CHARS_DEFAULT, MAX_CHARS_MIN, MAX_CHARS_MAX);

// ---- Strays gathered from their modules ----

/** Matching messages a source reads to count conversations in the app ("50 of 441+"). */
export const COUNT_CAP = 20_000;
/** Rows from the end of a cut Recent list at which the next page is asked for. */
export const RECENT_AHEAD = 50;
/** Texts per embedder call (semantic index of a Hermes store). */
export const EMBED_BATCH = 64;
/** Rows a host's Hermes mirror applies per statement batch inside the store's one transaction. */
export const MIRROR_BATCH_ROWS = 500;

// ---- Background embedding in the app (search by meaning) ----

/** The app's embed worker embeds for about this long (at least one page), then closes its files and pauses. */
export const EMBED_SLICE_MS = 1_000;
/** ...and pauses at least this long, and at least twice the slice it just ran: at most a third of one core. */
export const EMBED_PAUSE_MS = 500;
/** Once every message is embedded, it looks for new ones this often (two counts; nothing held between). */
export const EMBED_RECHECK_MS = 5_000;
/** The app starts the embed worker this long after its first frame (the start stays the screen's). */
export const EMBED_START_DELAY_MS = 1_500;
/** How long a stop waits for the embed worker's batch in hand before the thread is ended. */
export const EMBED_STOP_GRACE_MS = 2_000;
