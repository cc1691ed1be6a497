/**
 * The one id scheme of the recall core: which source a conversation comes from
 * and what it is called there. Every row and every reference carries an owner
 * (Hermes and a profile, or another agent; and a host once remote machines are
 * read), never an id with its owner encoded in a string or a number range.
 */
import type { Agent } from '../agents/model.js';

/** Where a source lives and what it holds. `host` is absent for this machine. */
export type SourceId =
  | {
      kind: 'hermes';
      profile: string;
      host?: string;
      /** How the profile keeps its sessions (a PostgreSQL profile is read through a mirror). */
      backend?: 'sqlite' | 'postgres';
    }
  | { kind: 'agents'; agents: readonly Agent[]; host?: string };

/** Whose conversation a row is. */
export type Owner =
  { agent: 'hermes'; profile: string; host?: string } | { agent: Agent; host?: string };

/** A conversation, named by its owner and its id there (a Hermes session id, an agent's own id). */
export interface ConvRef {
  owner: Owner;
  id: string;
}

/** A message: a Hermes message id, or another agent's anchor, within its conversation. */
export interface MsgRef {
  conv: ConvRef;
  id: string;
}

/** The source in words, as a one-line refusal or warning names it. */
export function sourceName(s: SourceId): string {
  const on = s.host ? ` on ${s.host}` : '';
  if (s.kind === 'hermes') return `Hermes profile ${s.profile}${on}`;
  return `${s.agents.length === 1 ? s.agents[0] : s.agents.join(', ')}${on} (lookback's index)`;
}

/** The owner in words. */
export function ownerName(o: Owner): string {
  const on = o.host ? ` on ${o.host}` : '';
  return o.agent === 'hermes' ? `Hermes profile ${o.profile}${on}` : `${o.agent}${on}`;
}

/** One string per owner, for maps and equality (not for display, never parsed back). */
export function ownerKey(o: Owner): string {
  return JSON.stringify([o.host ?? '', o.agent, o.agent === 'hermes' ? o.profile : '']);
}

/** `@session:PROFILE@HOST/ID`: a link that names its machine, usable from this one. */
export const HOST_LINK = /^@session:([^/@\s]*)@([^/\s]+)\/(\S+)$/;

/** A link of this machine (`@session:PROFILE/ID`, `@session:ID`) as the same link on `host`. */
export function hostLink(link: string, host: string): string {
  const m = /^@session:(?:([^/\s]+)\/)?(\S+)$/.exec(link);
  if (!m) return link;
  return `@session:${m[1] ?? 'default'}@${host}/${m[2]}`;
}

/** Splits a host link into the host and the plain link the host's sources read. */
export function splitHostLink(value: string): { host: string; link: string } | null {
  const m = HOST_LINK.exec(value.trim());
  return m ? { host: m[2]!, link: `@session:${m[1] || 'default'}/${m[3]}` } : null;
}
