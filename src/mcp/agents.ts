/**
 * Other agents' histories for `session_search(agent=…)`: lookback's own index
 * (src/agents), opened on the first such call and kept for the server's life.
 * As with `lookback … --agent NAME`, every answer starts with an incremental
 * pass, so a conversation the agent wrote a moment ago is found; the agents'
 * files are only read.
 */
import type Database from 'better-sqlite3';
import { indexAll } from '../agents/indexer.js';
import { indexPath, openIndex } from '../agents/indexDb.js';
import type { Agent } from '../agents/model.js';
import {
  readAgentsJson,
  recentAgentsJson,
  scrollAgentsJson,
  searchAgentsJson,
} from '../agents/recall.js';
import type { Json } from '../store/recall.js';
import type { Call } from './call.js';

export class AgentIndex {
  private db: Database.Database | null = null;

  constructor(
    private readonly warn: (line: string) => void = () => {},
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Answers one call from `agent`'s indexed history, the CLI's `--agent` shapes. */
  answer(agent: Agent, call: Call): Record<string, Json> {
    const db = this.open();
    indexAll(db, { env: this.env, agents: [agent] });
    switch (call.shape) {
      case 'browse':
        return recentAgentsJson(db, [agent], { limit: call.limit, all: false });
      case 'discover':
        return searchAgentsJson(db, call.query, [agent], {
          limit: call.limit,
          all: false,
          ...(call.sort ? { sort: call.sort } : {}),
          ...(call.roles ? { roles: call.roles } : {}),
        });
      case 'scroll':
        return scrollAgentsJson(db, [agent], call.sessionId, String(call.aroundId), call.window);
      case 'read':
        return readAgentsJson(db, [agent], call.sessionId);
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }

  private open(): Database.Database {
    if (this.db?.open) return this.db;
    const opened = openIndex(indexPath(this.env));
    if (opened.rebuilt && opened.rebuilt !== 'missing')
      this.warn(`index ${opened.rebuilt}; rebuilt from the agents' files`);
    this.db = opened.db;
    return this.db;
  }
}
