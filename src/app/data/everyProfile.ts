/**
 * The every-profile view (P): which other profiles' stores a request names.
 * Their lists merge with this store's and the other agents' in lists.ts, by the
 * recall core's one merge; another profile's rows are in app ids
 * (profileIds.ts), so opening one reads that profile's store.
 */
import type { Store } from '../../store/store.js';

/** Another profile's store as a request names it: the worker opens it by path. */
export interface ProfileRef {
  name: string;
  path: string;
  /** Its message-id range (profileIds.ts), given by the main thread so both agree. */
  slot: number;
  /**
   * Another machine's profile (its mirror, kept by `lookback sync --host`):
   * `name` is then `<profile>@<host>`. Listed whether or not P is on.
   */
  host?: string;
}

/** The store of a ProfileRef, opened on first use by whoever answers (main thread or worker). */
export type RefOpener = (ref: ProfileRef) => Store;
