/**
 * What the recall core asks of a source of conversations: the Hermes store of
 * a profile (hermes.ts), lookback's index of the other agents (agents.ts), and
 * next a PostgreSQL-backed profile (read through a SQLite mirror in the Hermes
 * schema: a Hermes source with `backend: 'postgres'`) and a remote machine (its
 * sources with a `host`). A source knows its storage and nothing of the doors.
 */
import type { Json } from '../store/recall.js';
import type { Detail, Filters, Sort } from '../store/types.js';
import type { FilterName } from './call.js';
import type { Owner, SourceId } from '../ids/ref.js';

export type Payload = Record<string, Json>;

export interface Capabilities {
  /** The filters the source applies itself. */
  filters: ReadonlySet<FilterName>;
  /** Why it cannot apply the others: one clause, e.g. "records no working folder". */
  cannot: Partial<Record<FilterName, string>>;
  /**
   * Filters it applies but some of its conversations cannot pass (an agent that
   * records no folder, under `cwd`): one sentence naming what is left out.
   */
  partly?: Partial<Record<FilterName, string>>;
  /** Pinned conversations (the list for people puts them first). */
  pins: boolean;
  /** Compression chains and parent sessions (scroll rebinding, lineage exclusion). */
  lineage: boolean;
  /** Adaptive/compact windows per result; otherwise every result carries its full window. */
  detail: boolean;
}

/** One conversation of a list, as the source's JSON shapes it, plus what the merge needs. */
export interface Row {
  json: Payload;
  owner: Owner;
  sessionId: string;
  /** Epoch seconds: last activity (browse), the matched message's time (discover). */
  at: number;
  pinned: boolean;
}

/** A source's answer to a list question: its own payload (the agent's JSON shape) and its rows. */
export interface Listed {
  payload: Payload;
  rows: Row[];
}

export interface ListQuery {
  limit: number;
  all: boolean;
  filters?: Filters;
  pinnedFirst: boolean;
}

export interface FindQuery {
  query: string;
  limit: number;
  all: boolean;
  sort?: Sort;
  roles?: string[];
  detail?: Detail;
  filters?: Filters;
}

/** Positions and bounds of a range question (positions count a read's messages from 0). */
export interface RangeAsk {
  from: number | null;
  to: number | null;
  fromId?: string;
  toId?: string;
  roles?: readonly string[];
  /** The page starts here (a cursor's position), never before `from`. */
  at: number;
  take: number;
  all?: boolean;
}

export interface RangeRows {
  session_id: string;
  /** Whose conversation (a source over several agents says which). */
  agent?: string;
  /** Messages in the conversation (as a read counts them). */
  total: number;
  /** The range's first and last position, bounds resolved. */
  from: number;
  to: number;
  rows: Payload[];
}

export interface ConversationSource {
  readonly id: SourceId;
  /** The source in words (ref.ts sourceName). */
  readonly name: string;
  capabilities(): Capabilities;
  browse(q: ListQuery): Listed;
  discover(q: FindQuery): Listed;
  /** The id `sessionId` (or a unique prefix of one) names here; null when not here. Throws when ambiguous. */
  resolve(sessionId: string): string | null;
  scroll(sessionId: string, around: string, window?: number, all?: boolean): Payload;
  read(sessionId: string, all?: boolean): Payload;
  /** The conversation's facts (store/overview.ts, agents/overview.ts shapes). */
  overview(sessionId: string, all?: boolean): Payload;
  /** Its messages by position (see RangeAsk), each with `index`; up to `take`+1 rows. */
  range(sessionId: string, q: RangeAsk): RangeRows;
  /** Notes about the source (a degraded index, a replaced file), said once by the door. */
  readonly warnings: readonly string[];
  close(): void;
}
