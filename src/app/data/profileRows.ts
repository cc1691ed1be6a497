/**
 * Another profile's rows in the app's ids (src/ids/app.ts), tagged with their
 * profile, so that they sit beside this store's in one list.
 */
import { profileMessageId, profileSessionId } from '../../ids/app.js';

/** A row of another profile's list, in app ids and tagged with its profile. */
export function tagSessionRow<R extends { sessionId: string; rootId: string }>(
  r: R,
  profile: string,
): R & { profile: string } {
  return {
    ...r,
    sessionId: profileSessionId(profile, r.sessionId),
    rootId: profileSessionId(profile, r.rootId),
    profile,
  };
}

/** A result of another profile's search, in app ids (its message in the profile's range) and tagged. */
export function tagResultItem<
  R extends { key: string; sessionId: string; rootId: string; messageId: number | null },
>(r: R, profile: string, slot: number): R & { profile: string } {
  return {
    ...tagSessionRow(r, profile),
    key: `${profile}/${r.key}`,
    messageId: r.messageId === null ? null : profileMessageId(slot, r.messageId),
  };
}
