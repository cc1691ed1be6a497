import type { Content, ToolCall } from './content.js';

/** One message as the agent's tool shapes it, plus what the app needs (reasoning). */
export interface Message {
  id: number;
  session_id: string;
  role: string;
  content: Content;
  timestamp: number;
  tool_name: string | null;
  tool_calls: ToolCall[] | string | null;
  tool_call_id: string | null;
  reasoning: string | null;
  /** The logical id kept across compaction and branch copies (newest stores only). */
  message_uid?: string;
  /**
   * A reasoning-only reply (empty `content`, no tool calls): the text it kept in
   * `codex_message_items` or its reasoning, shown instead of a blank row.
   */
  reasoning_only?: string;
  /** Another agent's message the person took back (rewound, reverted, abandoned branch): shown only with H, marked. */
  taken_back?: boolean;
}

export interface SessionMeta {
  id: string;
  source: string;
  model: string | null;
  title: string | null;
  parent_session_id: string | null;
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
  message_count: number;
  cwd: string | null;
  archived: boolean;
  model_config: string | null;
}

/** One row of browse (recent conversations), lineage collapsed. */
export interface RecentRow {
  session_id: string;
  title: string | null;
  source: string;
  started_at: number;
  last_active: number;
  message_count: number;
  preview: string;
  /** The chain's first session; equals session_id for a single-session conversation. */
  root_id: string;
  /** Sessions in the compression chain (1 when none). */
  chain_length: number;
  /** Not yet ended: the agent may still be writing it. */
  live: boolean;
  /** Why it would be hidden by default, when listed with `all`. */
  hidden_reason: HiddenReason | null;
  /** Branch children (separate, listable conversations) of any session in the chain. */
  branches: number;
  /** Pinned by the person: always listed, listed first. */
  pinned?: boolean;
}

/**
 * Why a conversation is left out of the default list: archived, hidden
 * (`hidden = 1`), a hidden source (kanban, subagent, tool), a delegate run, or
 * an orphaned tool run (`_delegate_from = '__orphaned__'`).
 */
export type HiddenReason =
  'archived' | 'hidden' | 'kanban' | 'subagent' | 'tool' | 'delegate' | 'orphaned';

export interface HiddenCounts {
  total: number;
  archived: number;
  hidden: number;
  kanban: number;
  subagent: number;
  tool: number;
  delegate: number;
  orphaned: number;
}

/** Filters shared by search and browse (the app's filter bar and the CLI flags). */
export interface Filters {
  /** Session source in (…). */
  sources?: string[];
  /** Epoch seconds, inclusive, on the conversation's started_at. */
  after?: number;
  /** Epoch seconds, exclusive. */
  before?: number;
  /** Prefix match on sessions.cwd or git_repo_root (where the columns exist). */
  cwd?: string;
  /** Case-insensitive substring of sessions.model. */
  model?: string;
  /** Expanded to their whole lineage. */
  excludeSessionIds?: string[];
}

/** How much of each search result is hydrated (the agent's `detail`). */
export type Detail = 'adaptive' | 'full' | 'compact';

/** The anchored view around a hit (STORE.md discover). */
export interface AnchoredView {
  messages: Message[];
  bookend_start: Message[];
  bookend_end: Message[];
  messages_before: number;
  messages_after: number;
}

export interface SearchResult extends AnchoredView {
  session_id: string;
  /** The lineage root, when it is not the hit's own session. */
  parent_session_id: string | null;
  when: string;
  source: string;
  model: string;
  title: string | null;
  matched_role: string;
  match_message_id: number;
  snippet: string;
  /** Root started_at, for sorting and ages in the app. */
  started_at: number;
  hit_timestamp: number;
  /** `full` (window + bookends) or `compact` (just the anchor), per the search's `detail`. */
  detail: 'full' | 'compact';
  /**
   * `relaxed`: the conversation does not hold every word of the query; it came
   * from the relaxed BM25 leg, ranked after every exact hit. Absent on exact hits.
   */
  match?: 'relaxed';
}

export type SearchPath = 'fts' | 'trigram' | 'like' | 'empty';

export interface SearchAnswer {
  query: string;
  results: SearchResult[];
  path: SearchPath;
  /** Set when the answer is empty or degraded, e.g. the query could not be parsed. */
  message: string | null;
  /**
   * One line, set when the search could not use the full-text index as it should
   * (damaged, or stale because its triggers are gone) and scanned with LIKE instead.
   */
  warning?: string;
  /** Set when relaxed hits follow the exact ones: how many, and the line that says so. */
  relaxed?: { count: number; message: string };
}

export type Sort = 'relevance' | 'newest' | 'oldest';

export interface SearchOptions {
  limit?: number;
  sort?: Sort;
  roles?: string[];
  /** Include sessions the agent hides (subagent, tool sources). */
  all?: boolean;
  /** Build the anchored view for each result (the JSON command does; the app's list does not need it). */
  views?: boolean;
  /** Snippet highlight markers; the agent's are >>> and <<<. */
  markers?: [string, string];
  /** adaptive (default): only the first result hydrated; full: all; compact: none. */
  detail?: Detail;
  filters?: Filters;
  /**
   * Fill a short page with conversations holding only some of the words (BM25,
   * closest first, each marked `match: 'relaxed'`). Default true.
   */
  relaxed?: boolean;
}
