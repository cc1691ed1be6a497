/**
 * The app's door to the other profiles' stores (a pasted link of another
 * profile, the every-profile view): which can be read, and opening one
 * read-only and closed after idle like the main store (Store.open's default),
 * refused in one line when the profile has no directory or no store. A
 * profile on PostgreSQL is synced into lookback's mirror when it is listed or
 * opened, and the mirror is opened like any store (an unreachable server is
 * its one line; the other profiles still answer).
 */
import type { OtherProfiles } from '../app/data/profileStores.js';
import { StoreError } from '../store/errors.js';
import type { LocateInput } from '../store/locate.js';
import { openableProfile, readableProfiles } from '../postgres/profiles.js';
import { allProfiles } from '../store/profiles.js';
import { Store } from '../store/store.js';

export function otherProfiles(where: Omit<LocateInput, 'db' | 'profile'> = {}): OtherProfiles {
  return {
    list: () =>
      readableProfiles(where)
        .filter((p) => !p.skip)
        .map((p) => ({ name: p.name, path: p.path })),
    open: (name) => {
      const found = allProfiles(where).find((x) => x.name === name);
      if (!found) throw new StoreError(`no profile "${name}"`, 'not-found');
      const p = openableProfile(found, where);
      if (p.skip) throw new StoreError(p.skip, 'not-found');
      return Store.open(p.path, { profile: p.name });
    },
  };
}
