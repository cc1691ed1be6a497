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

import { sanitizeLine } from '../../text/sanitize.js';
import { displayWidth, truncate } from '../../text/width.js';

export const PROFILE_ID_SPAN = 2 ** 40;
/** Slots 1..MAX_PROFILE_SLOT stay below the other agents' ids (2^50). */
export const MAX_PROFILE_SLOT = 2 ** 10 - 1;

/**
 * The agent's rule for profile names (store/profiles.ts PROFILE_NAME), and for
 * a profile of another machine `<profile>@<host>` (the host an ssh destination,
 * src/hosts/paths.ts checkHostName; it holds no slash), as its links read.
 */
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}(?:@[A-Za-z0-9_][A-Za-z0-9_.@:%+-]{0,252})?$/;

/** The profile and host of an app profile name (`work@devbox`); host null on this machine. */
export function splitHostProfile(name: string): { profile: string; host: string | null } {
  const at = name.indexOf('@');
  return at < 0
    ? { profile: name, host: null }
    : { profile: name.slice(0, at), host: name.slice(at + 1) };
}

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
    messageId: r.messageId === null ? null : slot * PROFILE_ID_SPAN + r.messageId,
  };
}

/** Cells of a row's profile tag: a short name whole, a long one cut (…), narrower on a narrow list. */
export function profileTagWidth(listWidth: number): number {
  return listWidth >= 56 ? 8 : 4;
}

/** The tag shown in a row's profile column (fixed width, sanitized). */
export function profileTag(profile: string, listWidth: number): string {
  const w = profileTagWidth(listWidth);
  const t = truncate(sanitizeLine(profile), w);
  return t + ' '.repeat(Math.max(0, w - displayWidth(t)));
}
