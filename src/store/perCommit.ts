import type { Store } from './store.js';

/**
 * Values derived from the store that stay true until another connection (the
 * agent) commits: read once, then again only after `PRAGMA data_version`
 * changes. Inside a read transaction the pragma is the version of that
 * transaction's snapshot, so a value loaded under a version is that
 * snapshot's. A new connection starts again: after an idle close or a
 * replaced file (Store.reconnects) its data_version restarts and may repeat
 * the number an old value was read under.
 */
interface Entry {
  version: number;
  connection: number;
  value: unknown;
}

const caches = new WeakMap<Store, Map<string, Entry>>();

/** The connection's data_version; call inside Store.read so it names the snapshot being read. */
export function snapshotVersion(store: Store): number {
  return store.db.pragma('data_version', { simple: true }) as number;
}

/**
 * The value `load` gives for the store as it is now, loaded again only after a
 * commit by another connection or a reopen. `name` tells values apart; a
 * caller whose value depends on more than the store puts that in the name.
 */
export function perCommit<T>(store: Store, name: string, load: () => T): T {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  const version = snapshotVersion(store);
  const hit = cache.get(name);
  // Read after snapshotVersion(), which may have reconnected.
  const connection = store.reconnects;
  if (hit && hit.version === version && hit.connection === connection) return hit.value as T;
  const value = load();
  cache.set(name, { version, connection, value });
  return value;
}
