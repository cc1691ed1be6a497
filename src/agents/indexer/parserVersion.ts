/**
 * The parser version of each agent, stored with every file it read: bumping one
 * re-parses that agent's files from the start on the next pass.
 */
import type { Agent } from '../model.js';
import { MORE_PARSER_VERSION } from '../moreAgents.js';

/** A new version re-parses every file of that agent from the start. */
export const PARSER_VERSION: Record<Agent, number> = {
  // 2: live branch and inactive branches; copies in resumed files.
  claude: 2,
  // 2: a paginated thread's segments read as one conversation (§8.1).
  codex: 2,
  // 2: `$patch` records applied.
  // 3: the injected `<session_context>` of 0.58 is context, not a prompt (§8.3).
  gemini: 3,
  // 2: opencode 2.x `session_v2`/`session_message` read (§8.2).
  opencode: 2,
  praisonai: 1,
  ...MORE_PARSER_VERSION,
};
