/**
 * One read-only Store per profile for the life of the MCP server, opened on
 * the first call that names the profile. Opening is most of a cold call's
 * cost (layout detection, statement preparation); every read afterwards runs
 * in a fresh snapshot, so a message the agent wrote between two calls is seen
 * by the second.
 */
import { StoreError } from '../store/errors.js';
import { locateStore } from '../store/locate.js';
import { Store } from '../store/store.js';

/** Where the server's own store is: the `--db`, `--profile` or `--demo` it was started with. */
export interface MainStore {
  path: string;
  profile: string;
}

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

/** A profile name is a directory under ~/.hermes/profiles, never a path. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class StoreRegistry {
  private readonly open = new Map<string, Store>();
  /** How many of each store's warnings were already reported. */
  private readonly reported = new Map<Store, number>();

  constructor(
    private readonly main: MainStore,
    private readonly openStore: OpenStore = (path, profile) => Store.open(path, { profile }),
    private readonly warn: (line: string) => void = () => {},
  ) {}

  /** The main store's profile name, the one `@session:<profile>/…` links from it carry. */
  get mainProfile(): string {
    return this.main.profile;
  }

  /** The store of `profile` (the main one when omitted or when it names the main one). */
  get(profile?: string): Store {
    const name = profile === undefined || profile === '' ? this.main.profile : profile;
    let store = this.open.get(name);
    if (!store) {
      store = this.openStore(this.pathOf(name), name);
      this.open.set(name, store);
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

  private pathOf(name: string): string {
    if (name === this.main.profile) return this.main.path;
    if (!PROFILE_NAME.test(name))
      throw new StoreError(`profile "${name}" is not a profile name`, 'not-found');
    return locateStore({ profile: name }).path;
  }

  private forget(store: Store): void {
    for (const [name, s] of this.open) if (s === store) this.open.delete(name);
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
