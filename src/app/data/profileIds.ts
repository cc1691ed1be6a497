/**
 * How a conversation of another Hermes profile is named inside the app, which
 * reads one profile's store as its own. Session ids are `<profile>/<id>` (a
 * Hermes session id holds no slash, and `@session:<profile>/<id>` reads the
 * same way). Message ids are per store and collide between stores, so another
 * profile's messages get numbers in their own range: `slot * PROFILE_ID_SPAN +
 * id`, slot 1, 2, … in the order the profiles were opened. The range sits
 * below the other agents' ids (agentIds.ts AGENT_ID_BASE = 2^50), keeps the
 * store's order (n/N compare ids) and leaves 2^40 ids to each store.
 */

export const PROFILE_ID_SPAN = 2 ** 40;
/** Slots 1..MAX_PROFILE_SLOT stay below the other agents' ids (2^50). */
export const MAX_PROFILE_SLOT = 2 ** 10 - 1;

/** The agent's rule for profile names (store/profiles.ts PROFILE_NAME). */
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function profileSessionId(profile: string, nativeId: string): string {
  return `${profile}/${nativeId}`;
}

/** The profile and native id of an app session id, or null for this store's (or another agent's) session. */
export function splitProfileSession(
  sessionId: string | undefined,
): { profile: string; nativeId: string } | null {
  if (sessionId === undefined) return null;
  const at = sessionId.indexOf('/');
  if (at <= 0) return null;
  const profile = sessionId.slice(0, at);
  return NAME.test(profile) ? { profile, nativeId: sessionId.slice(at + 1) } : null;
}

export function isProfileMessageId(id: number): boolean {
  return id >= PROFILE_ID_SPAN && id < PROFILE_ID_SPAN * (MAX_PROFILE_SLOT + 1);
}

/** The store's own id of a message, whichever profile's range it is in. */
export function nativeMessageId(id: number): number {
  return isProfileMessageId(id) ? id % PROFILE_ID_SPAN : id;
}

export function profileSlotOf(id: number): number {
  return isProfileMessageId(id) ? Math.floor(id / PROFILE_ID_SPAN) : 0;
}
