/**
 * The fixed-width tags a list row shows for its owner (another agent, another
 * profile): what the views print, so that titles line up whatever the owner.
 */
import { isAgentName, type AgentName } from '../ids/app.js';
import { sanitizeLine } from '../text/sanitize.js';
import { displayWidth, truncate } from '../text/width.js';

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

/** The tag shown in a row's agent column (fixed width). */
export function agentTag(agent: string): string {
  const t = isAgentName(agent) ? AGENT_TAG[agent] : agent.slice(0, AGENT_TAG_WIDTH);
  return t.padEnd(AGENT_TAG_WIDTH);
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
