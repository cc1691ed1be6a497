/** The search line's `agent:` chip: which owners it names. */
import { isAgentName, type AgentName } from '../../ids/app.js';

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
