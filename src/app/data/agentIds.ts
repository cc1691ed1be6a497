/**
 * How a conversation of another agent is named inside the app. Hermes session ids
 * never hold a colon, so `codex:<native id>` cannot collide with one; message ids
 * are numbers above AGENT_ID_BASE that encode (conversation row, ordinal), so they
 * sort in display order (n/N compares ids) and never equal a Hermes message id.
 */
import { AGENTS, type Agent } from '../../agents/model.js';
import { formatCount } from '../../text/format.js';
import { nativeMessageId } from './profileIds.js';

export type AgentName = 'hermes' | Agent;
export const AGENT_NAMES: readonly AgentName[] = ['hermes', ...AGENTS];

export function isAgentName(s: string): s is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(s);
}

/** Row tags: one fixed width, so titles line up whatever the agent. */
export const AGENT_TAG: Record<AgentName, string> = {
  hermes: 'hermes',
  claude: 'claude',
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencd',
  praisonai: 'praisn',
  qwen: 'qwen',
  kimi: 'kimi',
  copilot: 'copilt',
  aider: 'aider',
  crush: 'crush',
  goose: 'goose',
  cursor: 'cursor',
  cline: 'cline',
  roo: 'roo',
  kilo: 'kilo',
};
export const AGENT_TAG_WIDTH = 6;

export function agentSessionId(agent: Agent, nativeId: string): string {
  return `${agent}:${nativeId}`;
}

/** The agent and native id of an app session id, or null for a Hermes session. */
export function splitAgentSession(sessionId: string): { agent: Agent; nativeId: string } | null {
  const at = sessionId.indexOf(':');
  if (at <= 0) return null;
  const agent = sessionId.slice(0, at);
  if (!(AGENTS as readonly string[]).includes(agent)) return null;
  return { agent: agent as Agent, nativeId: sessionId.slice(at + 1) };
}

export const AGENT_ID_BASE = 2 ** 50;
const ORDINAL_SPAN = 2 ** 24;

export function agentMessageId(convId: number, ordinal: number): number {
  return AGENT_ID_BASE + convId * ORDINAL_SPAN + ordinal;
}

export function isAgentMessageId(id: number): boolean {
  return id >= AGENT_ID_BASE;
}

export function splitAgentMessageId(id: number): { convId: number; ordinal: number } {
  const x = id - AGENT_ID_BASE;
  return { convId: Math.floor(x / ORDINAL_SPAN), ordinal: x % ORDINAL_SPAN };
}

/**
 * What the search line's `agent:` chip calls: the agents named (unknown names
 * reported, not dropped silently) and a test for rows that carry an agent
 * (a row without one is a Hermes row).
 */
export function agentFilter(agents: readonly string[]): {
  agents: AgentName[];
  unknown: string[];
  test: (row: { agent?: string | undefined }) => boolean;
} {
  const known: AgentName[] = [];
  const unknown: string[] = [];
  for (const raw of agents) {
    const a = raw.trim().toLowerCase();
    if (a === '') continue;
    if (isAgentName(a)) {
      if (!known.includes(a)) known.push(a);
    } else unknown.push(raw);
  }
  const set = new Set<string>(known);
  return {
    agents: known,
    unknown,
    test: (row) => known.length === 0 || set.has(row.agent ?? 'hermes'),
  };
}

/** The tag shown in a row's agent column (fixed width). */
export function agentTag(agent: string): string {
  const t = isAgentName(agent) ? AGENT_TAG[agent] : agent.slice(0, AGENT_TAG_WIDTH);
  return t.padEnd(AGENT_TAG_WIDTH);
}

/** A message id as people read it: another agent's message by its position (#ordinal). */
export function messageLabel(id: number): string {
  if (!isAgentMessageId(id)) return formatCount(nativeMessageId(id));
  return `#${splitAgentMessageId(id).ordinal + 1}`;
}
