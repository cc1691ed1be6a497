/**
 * The app's door to the other profiles' stores (a pasted link of another
 * profile, the every-profile view): which can be read, and opening one
 * read-only and closed after idle like the main store (Store.open's default),
 * refused in one line when the profile has no directory, no store, or keeps
 * its sessions in PostgreSQL.
 */
import type { OtherProfiles } from '../app/data/profileStores.js';
import { StoreError } from '../store/errors.js';
import type { LocateInput } from '../store/locate.js';
import { readableProfiles } from '../store/profiles.js';
import { Store } from '../store/store.js';

export function otherProfiles(where: Omit<LocateInput, 'db' | 'profile'> = {}): OtherProfiles {
  return {
    list: () =>
      readableProfiles(where)
        .filter((p) => !p.skip)
        .map((p) => ({ name: p.name, path: p.path })),
    open: (name) => {
      const p = readableProfiles(where).find((x) => x.name === name);
      if (!p) throw new StoreError(`no profile "${name}"`, 'not-found');
      if (p.skip) throw new StoreError(p.skip, 'not-found');
      return Store.open(p.path, { profile: p.name });
    },
  };
}
