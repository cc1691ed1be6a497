/**
 * The app's view models: what the data layer hands to the state and the
 * views. Every string in them has been sanitized (no escape sequences or
 * control characters) by the data layer, so views can print them as they are.
 */
import type { HiddenCounts, HiddenReason, Message, SearchPath, Sort } from '../store/types.js';
import type { Segment } from '../text/highlight.js';

export type { HiddenCounts, Message, SearchPath, Sort };

/** One conversation in the Recent pane (or a branch nested under one). */
export interface SessionRow {
  /** The session to open: the tip of the compression chain. */
  sessionId: string;
  rootId: string;
  /** Title, else the first prompt's preview, else "(untitled)". */
  title: string;
  hasTitle: boolean;
  preview: string;
  source: string;
  cwd: string;
  startedAt: number;
  lastActive: number;
  messageCount: number;
  chainLength: number;
  /** The newest segment has not ended (the agent may still write it); live = open and recent (conversationStatus.ts). */
  open: boolean;
  /** The newest segment's end, and why (status). */
  endedAt: number | null;
  endReason: string | null;
  /** Pinned by the person: listed first. */
  pinned: boolean;
  /** The store's unread watermark (`last_read_at`), null when none. */
  lastReadAt: number | null;
  hiddenReason: HiddenReason | null;
  /** Branch children of the conversation (expandable). */
  branches: number;
  /** 0 for a listed conversation, 1 for a branch shown under its parent. */
  depth: number;
  /** Whose history (`hermes`, `codex`…); set only when other agents are shown, so rows carry a tag. */
  agent?: string;
  /**
   * The Hermes profile whose store holds it; set only in the every-profile view
   * (P), so rows carry a tag ('' on another agent's row: a blank tag).
   */
  profile?: string;
  /**
   * The machine it is on (`local` for this one); set only when a synced host's
   * conversations are listed too, so every row carries a tag.
   */
  host?: string;
}

export type SearchMode = 'fulltext' | 'fuzzy';
/** The `v` cycle: lexical (the default), hybrid, semantic (src/semantic/answer.ts SearchMode). */
export type Meaning = 'lexical' | 'hybrid' | 'semantic';

export interface ResultItem {
  key: string;
  /** `hit`: a full-text hit; `session`: a fuzzy or id match; `jump`: a pasted anchor. */
  kind: 'hit' | 'session' | 'jump';
  /** The session that owns the hit (never the substituted root). */
  sessionId: string;
  rootId: string;
  title: string;
  source: string;
  startedAt: number;
  /** Time of the hit (or last activity for sessions). */
  when: number;
  /** The message to open at, if any (a hit, a pasted scroll call). */
  messageId: number | null;
  matchedRole: string | null;
  snippet: Segment[];
  /** Not ended; shown live (●) only while `when` is recent (conversationStatus.ts isLive). */
  live: boolean;
  /** For jump rows: what Enter will do. */
  note?: string;
  /** Whose history; set only when other agents are shown (see SessionRow.agent). */
  agent?: string;
  /** The Hermes profile; set only in the every-profile view (see SessionRow.profile). */
  profile?: string;
  /** The machine; set only when a synced host's conversations are listed (see SessionRow.host). */
  host?: string;
  /** A relaxed hit (not every word; closest first), listed after every exact one. */
  relaxed?: boolean;
  /** Why a hybrid/semantic hit matched: its ranks and similarity (src/semantic score_parts). */
  why?: string;
  /** Another agent's hit in a message that was taken back (rewound, reverted); only with H. */
  takenBack?: boolean;
}

export interface MarkRef {
  sessionId: string;
  messageId: number;
  /** When the message was written (epoch seconds), where known: marks copy in time order. */
  at?: number;
}

export type CopyForm = 'link' | 'scroll' | 'command' | 'quote' | 'window' | 'marks' | 'resume';

/** What the export menu writes. */
export type ExportForm = 'conversation.md' | 'conversation.json' | 'marks.md' | 'marks.json';

export interface CopyOption {
  /** A copy form, or (in the export menu) what to write. */
  form: CopyForm | ExportForm;
  label: string;
  /** What will be copied. */
  text: string;
}

/** How a status message reads (theme.ts Tone is a colour). */
export type StatusTone = 'info' | 'ok' | 'warn' | 'error';

export interface StatusMessage {
  text: string;
  tone: StatusTone;
}
