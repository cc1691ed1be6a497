/**
 * lookback as a library: the four recall operations of the command line
 * (`recent`, `search`, `scroll`, `read`), returning exactly the JSON objects
 * `lookback … --json` prints. Read-only; loads neither React nor Ink.
 *
 *   import { openStore } from 'lookback';
 *   const lb = openStore({ profile: 'work' });
 *   const { results } = lb.search('flaky test', { limit: 5 });
 *   lb.close();
 */
import { UsageError } from './recall/usage.js';
import {
  Operations,
  type Answer,
  type MeaningOptions,
  type ProfileContext,
  type RecentOptions,
  type ScrollOptions,
  type SearchOptions,
} from './cli/operations.js';
import { StoreError, type StoreErrorCode } from './store/errors.js';

export type { Answer, MeaningOptions, RecentOptions, ScrollOptions, SearchOptions, StoreErrorCode };
export type { Json } from './store/recall.js';
/** What every failure is: `code` says which kind, `message` is one line. */
export { StoreError as LookbackError };

/**
 * Which sources to read. With none of the keys, every source the command line
 * would read: the Hermes store it picks and every other agent whose history is
 * on this machine. `agent` narrows to Hermes, one agent, or `all`. `host`
 * (an ssh destination synced with `lookback sync --host`, or `all`) reads that
 * machine's mirrored sources instead, every result carrying `host`; a link
 * that names its host (`@session:PROFILE@HOST/ID`) reads that host by itself.
 */
export type Where =
  | { path: string; profile?: string; agent?: string }
  | { profile: string; agent?: string; host?: string }
  | { allProfiles: true; host?: string }
  | { agent?: string; host?: string };

export interface Lookback {
  /** Recent conversations, newest activity first (`lookback recent --json`). */
  recent(opts?: RecentOptions): Answer;
  /** Full-text search (`lookback search QUERY --json`). */
  search(query: string, opts?: SearchOptions): Answer;
  /**
   * Search by meaning (`lookback search QUERY --mode semantic|hybrid --embedder SPEC --json`)
   * over the one source opened: a Hermes store, or another agent's history (`{ agent: 'claude' }`).
   */
  searchByMeaning(query: string, opts: MeaningOptions): Promise<Answer>;
  /** Messages around one (`lookback scroll SESSION_ID MESSAGE_ID --json`); a link or scroll call reads its profile. */
  scroll(sessionId: string, messageId: number | string, opts?: ScrollOptions): Answer;
  /** A whole session, or its head and tail (`lookback read SESSION_ID --json`); an id prefix works. */
  read(sessionId: string): Answer;
  /** Warnings about the sources (an unusual layout, a degraded index). */
  readonly warnings: readonly string[];
  close(): void;
}

/**
 * Opens the sources read-only (they are never written). A store's connection
 * is let go after a few idle seconds and taken again on the next call, so a
 * long-lived caller never blocks the agent's maintenance. Throws a LookbackError.
 */
export function openStore(where: Where = {}, ctx: ProfileContext = {}): Lookback {
  const host = 'host' in where ? where.host : undefined;
  if ('allProfiles' in where && where.allProfiles && host === undefined)
    return Operations.allProfiles(ctx);
  const path = 'path' in where ? where.path : undefined;
  const profile = 'profile' in where ? where.profile : undefined;
  const agent = 'agent' in where ? where.agent : undefined;
  const on = host !== undefined ? { host } : {};
  const sel = path
    ? { db: path, dbProfile: profile, agent }
    : profile !== undefined
      ? { profile, agent, ...on }
      : { agent, ...on };
  try {
    return Operations.select(sel, ctx);
  } catch (err) {
    if (err instanceof UsageError) throw new StoreError(err.message, 'query');
    throw err;
  }
}
