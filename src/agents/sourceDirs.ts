/** `--source-dir AGENT=PATH`: where to read an agent's history instead of its usual folder. */
import { brandOf } from '../store/errors.js';
import type { Overrides } from './discover.js';
import { AGENTS, isAgent } from './model.js';

const AGENT_USAGE_ERROR = brandOf('AgentUsageError');

/**
 * A mistake in an agents flag; the command line turns it into its usage error.
 * Recognised across copies of this module (dist/cli.cjs and the lazily loaded
 * agents chunk each bundle one; see brandOf).
 */
export class AgentUsageError extends Error {
  static override [Symbol.hasInstance](x: unknown): boolean {
    return AGENT_USAGE_ERROR.has(x);
  }

  constructor(message: string) {
    super(message);
    AGENT_USAGE_ERROR.mark(this);
  }
}

export function parseSourceDirs(values: string[] | undefined): Overrides {
  const out: Overrides = {};
  for (const v of values ?? []) {
    const eq = v.indexOf('=');
    const name = eq > 0 ? v.slice(0, eq).trim().toLowerCase() : '';
    const path = eq > 0 ? v.slice(eq + 1) : '';
    if (!isAgent(name) || !path)
      throw new AgentUsageError(
        `--source-dir takes AGENT=PATH with AGENT one of ${AGENTS.join(', ')}, not "${v}"`,
      );
    out[name] = path;
  }
  return out;
}
