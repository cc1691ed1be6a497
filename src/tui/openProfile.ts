/**
 * The app's opener for another profile's store (a pasted link or scroll call
 * of that profile): read-only and closed after idle like the main store
 * (Store.open's default), refused in one line when the profile has no
 * directory, no store, or keeps its sessions in PostgreSQL.
 */
import { StoreError } from '../store/errors.js';
import type { LocateInput } from '../store/locate.js';
import { readableProfiles } from '../store/profiles.js';
import { Store } from '../store/store.js';

export function openProfile(name: string, where: Omit<LocateInput, 'db' | 'profile'> = {}): Store {
  const p = readableProfiles(where).find((x) => x.name === name);
  if (!p) throw new StoreError(`no profile "${name}"`, 'not-found');
  if (p.skip) throw new StoreError(p.skip, 'not-found');
  return Store.open(p.path, { profile: p.name });
}
