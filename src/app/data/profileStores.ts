/**
 * The other profiles' stores, opened on first use through an opener the
 * composition root injects (src/app touches no files). Each is a read-only
 * Store like the main one, so it closes its connection after idle and reopens
 * on the next read (STORE.md "Being a good neighbour"); all are closed with
 * the app.
 */
import { StoreError } from '../../store/errors.js';
import type { Store } from '../../store/store.js';
import { MAX_PROFILE_SLOT, profileSlotOf, splitProfileSession } from './profileIds.js';
import { ProfileSource } from './profileSource.js';
import { clean } from './rows.js';

/** Opens profile `name`'s store read-only; throws StoreError when it cannot be read. */
export type ProfileOpener = (name: string) => Store;

export class ProfileStores {
  private readonly byName = new Map<string, ProfileSource>();
  private readonly bySlot = new Map<number, ProfileSource>();

  constructor(
    /** The main store's profile: never opened a second time. */
    private readonly own: string,
    private readonly opener: ProfileOpener,
  ) {}

  /** The profile's source, opening its store the first time; a string says why it cannot be read. */
  open(name: string): ProfileSource | string {
    const known = this.byName.get(name);
    if (known) return known;
    if (name === this.own) return `profile ${clean(name)} is the one shown`;
    const slot = this.byName.size + 1;
    if (slot > MAX_PROFILE_SLOT) return `too many profiles open at once`;
    let store: Store;
    try {
      store = this.opener(name);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      return `profile ${clean(name)}: ${clean(err.message)}`;
    }
    const src = new ProfileSource(store, slot);
    this.byName.set(name, src);
    this.bySlot.set(slot, src);
    return src;
  }

  /** The open source holding an app session id (`<profile>/<id>`), or null. */
  forSession(sessionId: string | undefined): ProfileSource | null {
    const split = splitProfileSession(sessionId);
    return split ? (this.byName.get(split.profile) ?? null) : null;
  }

  /** The open source whose id range holds an app message id, or null. */
  forMessage(messageId: number): ProfileSource | null {
    return this.bySlot.get(profileSlotOf(messageId)) ?? null;
  }

  /** Changes when any open profile store was written (for the live poll). */
  dataVersion(): number {
    let v = 0;
    for (const s of this.byName.values()) {
      try {
        v += s.store.dataVersion();
      } catch (err) {
        // A profile store gone under the app: its conversation says so when next read.
        if (!(err instanceof StoreError)) throw err;
      }
    }
    return v;
  }

  close(): void {
    for (const s of this.byName.values()) s.close();
  }
}
