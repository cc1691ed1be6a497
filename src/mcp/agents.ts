/**
 * Other agents' histories for the MCP server: lookback's own index (src/agents),
 * opened on the first call that needs it and kept for the server's life, as
 * recall sources (src/recall/agents.ts). Every answer starts with an incremental
 * pass, so a conversation the agent wrote a moment ago is found; the agents'
 * files are only read.
 */
import type { Agent } from '../agents/model.js';
import { AgentsSource } from '../recall/agents.js';
import { agentsFound } from '../recall/sources.js';

export class AgentIndex {
  private readonly open = new Map<string, AgentsSource>();

  constructor(
    private readonly warn: (line: string) => void = () => {},
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The agents whose history folders exist here: the default set's other agents. */
  found(): Agent[] {
    return agentsFound(this.env);
  }

  /** The source over `agents` (one index connection each set, kept while the server runs). */
  source(agents: readonly Agent[]): AgentsSource {
    const key = agents.join(',');
    let s = this.open.get(key);
    if (!s) {
      s = new AgentsSource(agents, { env: this.env, freshMs: 0, warn: this.warn });
      this.open.set(key, s);
    }
    return s;
  }

  close(): void {
    for (const s of this.open.values()) s.close();
    this.open.clear();
  }
}
