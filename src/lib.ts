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
import { chooseStoreOnDisk } from './cli/storeChoice.js';
import {
  Operations,
  type Answer,
  type ProfileContext,
  type RecentOptions,
  type ScrollOptions,
  type SearchOptions,
} from './cli/operations.js';
import { StoreError, type StoreErrorCode } from './store/errors.js';
import { Store } from './store/store.js';

export type { Answer, RecentOptions, ScrollOptions, SearchOptions, StoreErrorCode };
export type { Json } from './store/recall.js';
/** What every failure is: `code` says which kind, `message` is one line. */
export { StoreError as LookbackError };

/** Which store(s) to read. With none of the keys, the store the command line would pick. */
export type Where =
  | { path: string; profile?: string }
  | { profile: string }
  | { allProfiles: true }
  | Record<string, never>;

export interface Lookback {
  /** Recent conversations, newest activity first (`lookback recent --json`). */
  recent(opts?: RecentOptions): Answer;
  /** Full-text search (`lookback search QUERY --json`). */
  search(query: string, opts?: SearchOptions): Answer;
  /** Messages around one (`lookback scroll SESSION_ID MESSAGE_ID --json`); a link reads its profile. */
  scroll(sessionId: string, messageId: number, opts?: ScrollOptions): Answer;
  /** A whole session, or its head and tail (`lookback read SESSION_ID --json`); an id prefix works. */
  read(sessionId: string): Answer;
  /** Warnings about the store (an unusual layout, a degraded index). */
  readonly warnings: readonly string[];
  close(): void;
}

/**
 * Opens a store read-only (it is never written). The connection is let go
 * after a few idle seconds and taken again on the next call, so a long-lived
 * caller never blocks the agent's maintenance. Throws a LookbackError.
 */
export function openStore(where: Where = {}, ctx: ProfileContext = {}): Lookback {
  if ('allProfiles' in where && where.allProfiles) return Operations.allProfiles(ctx);
  const path = 'path' in where ? where.path : undefined;
  const profile = 'profile' in where ? where.profile : undefined;
  const choice = path ? chooseStoreOnDisk({ db: path }, ctx) : chooseStoreOnDisk({ profile }, ctx);
  if (choice.demo) throw new StoreError(choice.notice ?? 'no store', 'not-found');
  const store = Store.open(choice.path, { profile: path && profile ? profile : choice.profile });
  return Operations.one(store, ctx);
}
