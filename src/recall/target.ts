/**
 * What a door's "this conversation" argument names: a session id or the start
 * of one, a link (`@session:work/<id>`), a whole scroll call as the app copies
 * it (`session_search(session_id=…, around_message_id=…, profile="work")`), or
 * another agent's scroll command or resume command. One parser for the command
 * line, the library and the MCP server (the app's search line uses the same
 * anchors/parse.ts underneath).
 */
import { parseAnchor } from '../anchors/parse.js';
import { splitHostLink } from '../ids/ref.js';

export interface Target {
  sessionId: string;
  /** The machine a host link (`@session:PROFILE@HOST/ID`) or the caller names. */
  host?: string;
  /** A Hermes profile the argument names. */
  profile?: string;
  /** An agent the argument names (`lookback scroll --agent codex …`, `claude --resume …`). */
  agent?: string;
  /** The message to scroll around: a Hermes message id or another agent's anchor. */
  around?: string;
  window?: number;
}

/** An argument that contradicts another the caller gave; the message says which to drop. */
export class TargetError extends Error {}

export interface Given {
  host?: string | undefined;
  profile?: string | undefined;
  agent?: string | undefined;
  around?: string | number | undefined;
  window?: number | undefined;
}

const WITH_PROFILE = /^@session:[^/\s]+\//;

function agree(name: string, given: string | undefined, found: string, what: string): string {
  if (given !== undefined && given !== '' && given !== found) {
    const shown = name === 'around_message_id' ? given : `"${given}"`;
    throw new TargetError(`session_id ${what} but ${name} is ${shown}; pass one of them`);
  }
  return found;
}

/** The target `raw` names, merged with what the caller passed beside it. */
export function parseTarget(raw: string, given: Given = {}): Target {
  let text = raw.trim();
  const out: Target = { sessionId: text };
  if (given.host !== undefined && given.host.trim() !== '' && given.host.trim() !== 'all')
    out.host = given.host.trim();
  // A link that names its machine: the host, then the plain link that machine's sources read.
  const onHost = splitHostLink(text);
  if (onHost) {
    out.host = agree('host', out.host, onHost.host, `is a link to host "${onHost.host}"`);
    text = onHost.link;
    out.sessionId = text;
  }
  if (given.profile !== undefined && given.profile.trim() !== '')
    out.profile = given.profile.trim();
  if (given.agent !== undefined && given.agent.trim() !== '')
    out.agent = given.agent.trim().toLowerCase();
  if (given.around !== undefined) out.around = String(given.around).trim();
  if (given.window !== undefined) out.window = given.window;
  const a = text ? parseAnchor(text) : null;
  if (!a) return out;
  // A call or command that names its machine (`host="devbox"`, `lookback scroll --host devbox …`).
  if (a.kind !== 'link' && a.kind !== 'sessionId' && a.kind !== 'idPrefix' && a.host)
    out.host = agree('host', out.host, a.host, `names host "${a.host}"`);
  switch (a.kind) {
    case 'link':
      out.sessionId = a.sessionId;
      // `@session:<id>` names no profile: the call's own profile stands.
      if (WITH_PROFILE.test(text))
        out.profile = agree(
          'profile',
          out.profile,
          a.profile,
          `is a link to profile "${a.profile}"`,
        );
      break;
    case 'scroll':
      out.sessionId = a.sessionId;
      out.around = agree(
        'around_message_id',
        out.around,
        String(a.messageId),
        `is a scroll call around message ${a.messageId}`,
      );
      if (out.window === undefined && a.window !== undefined) out.window = a.window;
      if (a.profile !== undefined)
        out.profile = agree('profile', out.profile, a.profile, `names profile "${a.profile}"`);
      break;
    case 'agentMessage':
      out.sessionId = a.sessionId;
      out.agent = agree('agent', out.agent, a.agent, `is ${a.agent}'s message`);
      out.around = agree('around_message_id', out.around, a.anchor, `is around ${a.anchor}`);
      break;
    case 'agentSession':
      out.sessionId = a.sessionId;
      out.agent = agree('agent', out.agent, a.agent, `is ${a.agent}'s conversation`);
      break;
    case 'sessionId':
      out.sessionId = a.sessionId;
      break;
    case 'idPrefix':
      out.sessionId = a.prefix;
      break;
  }
  return out;
}
