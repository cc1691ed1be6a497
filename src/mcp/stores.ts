/**
 * One read-only Store per store file for the life of the MCP server, opened on
 * the first call that needs it. Which file a call reads is decided on every
 * call, with the command line's own store choice, so a store that appears,
 * disappears or changes profile is followed, and a missing one is the CLI's
 * error word for word. The Store itself closes its connection while idle and
 * reads a fresh snapshot on each call: a message the agent wrote between two
 * calls is in the second answer.
 */
import { StoreError } from '../store/errors.js';
import { Store } from '../store/store.js';

/** Where a profile's store is (undefined: the server's own); throws the CLI's error when there is none. */
export type Locate = (profile: string | undefined) => { path: string; profile: string };

export type OpenStore = (path: string, profile: string) => Store;

/** Store errors about the file itself: the handle is dropped so the next call opens afresh. */
const FILE_ERRORS: ReadonlySet<StoreError['code']> = new Set([
  'not-found',
  'not-a-file',
  'not-sqlite',
  'corrupt',
  'schema',
  'io',
]);

export class StoreRegistry {
  private readonly open = new Map<string, Store>();
  /** How many of each store's warnings were already reported. */
  private readonly reported = new Map<Store, number>();

  constructor(
    private readonly locate: Locate,
    private readonly openStore: OpenStore = (path, profile) => Store.open(path, { profile }),
    private readonly warn: (line: string) => void = () => {},
  ) {}

  /** The store of `profile` (the server's own when omitted). */
  get(profile?: string): Store {
    const where = this.locate(profile === '' ? undefined : profile);
    let store = this.open.get(where.path);
    if (!store) {
      store = this.openStore(where.path, where.profile);
      this.open.set(where.path, store);
    }
    this.reportWarnings(store);
    return store;
  }

  /** Runs `fn` on a profile's store; a store whose file broke is forgotten, so it is reopened next time. */
  use<T>(profile: string | undefined, fn: (store: Store) => T): T {
    const store = this.get(profile);
    try {
      return fn(store);
    } catch (err) {
      if (err instanceof StoreError && FILE_ERRORS.has(err.code)) this.forget(store);
      throw err;
    } finally {
      this.reportWarnings(store);
    }
  }

  closeAll(): void {
    for (const store of this.open.values()) store.close();
    this.open.clear();
    this.reported.clear();
  }

  private forget(store: Store): void {
    for (const [path, s] of this.open) if (s === store) this.open.delete(path);
    this.reported.delete(store);
    store.close();
  }

  /** Store warnings (a replaced file, a degraded index) go to stderr once each: stdout is the protocol. */
  private reportWarnings(store: Store): void {
    const seen = this.reported.get(store) ?? 0;
    for (const w of store.warnings.slice(seen)) this.warn(w);
    this.reported.set(store, store.warnings.length);
  }
}
