/**
 * The app's ids, owned here and nowhere else. The app reads one Hermes store as
 * its own and shows other profiles' stores and other agents' conversations
 * beside it, in one list and one message window, so it needs ids that never
 * collide and that sort in display order (n/N and the window compare message
 * ids). Every other module asks this one: `sessionRef`/`messageRef` decode an id
 * into a typed reference, `sessionIdOf`/`messageIdOf` encode one; nothing else
 * compares a number with a range or splits a string at ':' or '/'
 * (tests/architecture/ids.test.ts fails if it does).
 *
 * Session ids: this store's are the Hermes ids (they hold neither '/' nor ':');
 * another profile's are `<profile>/<id>` (as `@session:<profile>/<id>` reads);
 * another agent's are `<agent>:<native id>`, and another machine's agent's
 * (`lookback sync --host`) `<agent>@<host>:<native id>` (the host's `%` and `:`
 * written `%25`, `%3A`, so the first `:` always ends the owner).
 *
 * Message ids: this store's are the Hermes ids; another profile's are
 * `slot * PROFILE_SPAN + id` (slot 1, 2, … in the order the profiles were opened,
 * 2^40 ids each, below AGENT_BASE); another agent's encode (conversation row,
 * ordinal) above AGENT_BASE = 2^50, so they sort in display order; another
 * machine's agents' the same from HOST_AGENT_BASE = 2^51, 2^44 ids per host
 * slot (slot 1, 2, … in the order the hosts were listed; 2^20 conversations of
 * 2^24 messages each).
 *
 * The limits, exactly (agentMessageId refuses anything past them, so an id
 * never lands in another conversation's or another machine's range): this
 * machine's index, conversation rows below 2^26 (67,108,864); a synced host's,
 * rows below 2^20 (1,048,576), host slots 1..384; every conversation, ordinals
 * below 2^24 (16,777,216 messages).
 *
 * The recall core's typed references (owner, host, native id) are `src/ids/ref.ts`.
 */
import { AGENTS, type Agent } from '../agents/model.js';
import { formatCount } from '../text/format.js';

/** A conversation as the app names it, decoded. */
export type SessionRef =
  | { kind: 'hermes'; nativeId: string }
  | { kind: 'profile'; profile: string; nativeId: string }
  | { kind: 'agent'; agent: Agent; nativeId: string; host?: string };

/** A message as the app numbers it, decoded. */
export type MessageRef =
  | { kind: 'hermes'; nativeId: number }
  | { kind: 'profile'; slot: number; nativeId: number }
  | { kind: 'agent'; convId: number; ordinal: number; slot: number };

const PROFILE_SPAN = 2 ** 40;
/** Slots 1..MAX_PROFILE_SLOT stay below the other agents' ids (2^50). */
export const MAX_PROFILE_SLOT = 2 ** 10 - 1;
const AGENT_BASE = 2 ** 50;
const ORDINAL_SPAN = 2 ** 24;
const HOST_AGENT_BASE = 2 ** 51;
const HOST_AGENT_SPAN = 2 ** 44;
/** Host slots 1..MAX_HOST_SLOT stay below 2^53 (exact doubles). */
export const MAX_HOST_SLOT = (2 ** 53 - HOST_AGENT_BASE) / HOST_AGENT_SPAN;
/** A host's index row ids must stay below this to have app ids (its slot's range). */
export const MAX_HOST_CONV_ID = HOST_AGENT_SPAN / ORDINAL_SPAN;

/**
 * The agent's rule for profile names (store/profiles.ts PROFILE_NAME), and for
 * a profile of another machine `<profile>@<host>` (the host an ssh destination,
 * src/hosts/paths.ts checkHostName; it holds no slash), as its links read.
 */
const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}(?:@[A-Za-z0-9_][A-Za-z0-9_.@:%+-]{0,252})?$/;

/** The profile and host of an app profile name (`work@devbox`); host null on this machine. */
export function splitHostProfile(name: string): { profile: string; host: string | null } {
  const at = name.indexOf('@');
  return at < 0
    ? { profile: name, host: null }
    : { profile: name.slice(0, at), host: name.slice(at + 1) };
}

// ------------------------------------------------------------------ sessions

export function sessionRef(sessionId: string): SessionRef {
  return (
    splitAgentSession(sessionId) ??
    splitProfileSession(sessionId) ?? {
      kind: 'hermes',
      nativeId: sessionId,
    }
  );
}

/** The id its own source knows a conversation by (the app id without its owner). */
export function nativeSessionId(sessionId: string): string {
  return sessionRef(sessionId).nativeId;
}

export function sessionIdOf(ref: SessionRef): string {
  if (ref.kind === 'agent') return agentSessionId(ref.agent, ref.nativeId, ref.host);
  if (ref.kind === 'profile') return profileSessionId(ref.profile, ref.nativeId);
  return ref.nativeId;
}

/** `host` set: another machine's conversation (its mirror's index). */
export function agentSessionId(agent: Agent, nativeId: string, host?: string): string {
  if (host === undefined) return `${agent}:${nativeId}`;
  return `${agent}@${host.replace(/%/g, '%25').replace(/:/g, '%3A')}:${nativeId}`;
}

export function profileSessionId(profile: string, nativeId: string): string {
  return `${profile}/${nativeId}`;
}

/** The agent, native id (and machine) of an app session id, or null for a Hermes session. */
export function splitAgentSession(
  sessionId: string,
): { kind: 'agent'; agent: Agent; nativeId: string; host?: string } | null {
  const at = sessionId.indexOf(':');
  if (at <= 0) return null;
  const owner = sessionId.slice(0, at);
  const on = owner.indexOf('@');
  const agent = on < 0 ? owner : owner.slice(0, on);
  if (!(AGENTS as readonly string[]).includes(agent)) return null;
  const nativeId = sessionId.slice(at + 1);
  if (on < 0) return { kind: 'agent', agent: agent as Agent, nativeId };
  const host = owner
    .slice(on + 1)
    .replace(/%3A/g, ':')
    .replace(/%25/g, '%');
  return host === '' ? null : { kind: 'agent', agent: agent as Agent, nativeId, host };
}

/** True for another agent's conversation. */
export function isAgentSession(sessionId: string | undefined): boolean {
  return sessionId !== undefined && splitAgentSession(sessionId) !== null;
}

/** The profile and native id of an app session id, or null for this store's (or another agent's) session. */
export function splitProfileSession(
  sessionId: string | undefined,
): { kind: 'profile'; profile: string; nativeId: string } | null {
  if (sessionId === undefined) return null;
  const at = sessionId.indexOf('/');
  if (at <= 0) return null;
  const profile = sessionId.slice(0, at);
  return PROFILE_NAME.test(profile)
    ? { kind: 'profile', profile, nativeId: sessionId.slice(at + 1) }
    : null;
}

// ------------------------------------------------------------------ messages

export function messageRef(id: number): MessageRef {
  if (id >= AGENT_BASE) return { kind: 'agent', ...splitAgentMessageId(id) };
  if (isProfileMessageId(id))
    return { kind: 'profile', slot: Math.floor(id / PROFILE_SPAN), nativeId: id % PROFILE_SPAN };
  return { kind: 'hermes', nativeId: id };
}

export function messageIdOf(ref: MessageRef): number {
  if (ref.kind === 'agent') return agentMessageId(ref.convId, ref.ordinal, ref.slot);
  if (ref.kind === 'profile') return profileMessageId(ref.slot, ref.nativeId);
  return ref.nativeId;
}

/** Another profile's message (its store's id) in the app's numbering. */
export function profileMessageId(slot: number, nativeId: number): number {
  return slot * PROFILE_SPAN + nativeId;
}

/** This machine's index's conversation rows stay below this (its range ends where the hosts' begin). */
export const MAX_LOCAL_CONV_ID = (HOST_AGENT_BASE - AGENT_BASE) / ORDINAL_SPAN;
/** A conversation's messages (ordinals 0..) stay below this. */
export const MAX_ORDINAL = ORDINAL_SPAN;

/**
 * An index row past the app's id range: refused in one line, never numbered
 * into another's range. A list over several sources leaves that source out
 * with the line and keeps the others (src/app/data/lists.ts).
 */
export class IdRangeError extends RangeError {}

/**
 * `slot` 0: this machine's index; 1..MAX_HOST_SLOT: a synced host's. Throws
 * IdRangeError (one line, for the status line) past the range's limits.
 */
export function agentMessageId(convId: number, ordinal: number, slot = 0): number {
  if (!Number.isInteger(slot) || slot < 0 || slot > MAX_HOST_SLOT)
    throw new IdRangeError(
      `the app numbers at most ${MAX_HOST_SLOT} synced hosts (this is host ${slot})`,
    );
  const rows = slot === 0 ? MAX_LOCAL_CONV_ID : MAX_HOST_CONV_ID;
  if (!Number.isInteger(convId) || convId < 0 || convId >= rows)
    throw new IdRangeError(
      `conversation row ${formatCount(convId)} of ${slot === 0 ? "this machine's" : "a synced host's"} agents' index is past the app's ${formatCount(rows)}; read it with lookback scroll`,
    );
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= MAX_ORDINAL)
    throw new IdRangeError(
      `message ${formatCount(ordinal + 1)} of a conversation is past the app's ${formatCount(MAX_ORDINAL)} per conversation; read it with lookback scroll`,
    );
  const base = slot === 0 ? AGENT_BASE : HOST_AGENT_BASE + (slot - 1) * HOST_AGENT_SPAN;
  return base + convId * ORDINAL_SPAN + ordinal;
}

export function isAgentMessageId(id: number): boolean {
  return id >= AGENT_BASE;
}

export function isProfileMessageId(id: number): boolean {
  return id >= PROFILE_SPAN && id < PROFILE_SPAN * (MAX_PROFILE_SLOT + 1);
}

/** The store's own id of a Hermes message, whichever profile's range it is in. */
export function nativeMessageId(id: number): number {
  return isProfileMessageId(id) ? id % PROFILE_SPAN : id;
}

/** The profile slot of a message (0: this store's, or another agent's). */
export function profileSlotOf(id: number): number {
  return isProfileMessageId(id) ? Math.floor(id / PROFILE_SPAN) : 0;
}

export function splitAgentMessageId(id: number): { convId: number; ordinal: number; slot: number } {
  const host = id >= HOST_AGENT_BASE;
  const slot = host ? Math.floor((id - HOST_AGENT_BASE) / HOST_AGENT_SPAN) + 1 : 0;
  const x = host ? (id - HOST_AGENT_BASE) % HOST_AGENT_SPAN : id - AGENT_BASE;
  return { convId: Math.floor(x / ORDINAL_SPAN), ordinal: x % ORDINAL_SPAN, slot };
}

/** A message id as people read it: a Hermes message by its store's id, another agent's by its position (#ordinal). */
export function messageLabel(id: number): string {
  const ref = messageRef(id);
  return ref.kind === 'agent' ? `#${ref.ordinal + 1}` : formatCount(ref.nativeId);
}

/** `#123` for a Hermes message (any profile's, by its store's id, ungrouped); another agent's by its position (`#4`). */
export function messageTag(id: number): string {
  const ref = messageRef(id);
  return ref.kind === 'agent' ? `#${ref.ordinal + 1}` : `#${ref.nativeId}`;
}

// ------------------------------------------------------------------ owners

/** Whose conversation a row is, as the app's rows and the `agent:` chip name it. */
export type AgentName = 'hermes' | Agent;
export const AGENT_NAMES: readonly AgentName[] = ['hermes', ...AGENTS];

export function isAgentName(s: string): s is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(s);
}
