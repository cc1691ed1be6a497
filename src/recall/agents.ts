/**
 * lookback's index of the other agents' histories (src/agents) as one
 * ConversationSource over the agents asked for. Each question starts with an
 * incremental pass (only what changed is read), unless a pass over the same
 * files ended moments ago; the agents' files are only read. Every filter is
 * applied in SQL on the conversation row (queries.ts conversationFilterSql).
 */
import type Database from 'better-sqlite3';
import type { Overrides } from '../agents/discover.js';
import { indexAll, type IndexOptions } from '../agents/indexer.js';
import { indexPath, openIndex, passIsFresh, stampPass } from '../agents/indexDb.js';
import { AGENTS, isAgent, type Agent } from '../agents/model.js';
import { inList } from '../agents/queries.js';
import {
  findConversation,
  readAgentsJson,
  recentAgentsJson,
  scrollAgentsJson,
  searchAgentsJson,
} from '../agents/recall.js';
import { agentOverviewJson, agentRangeRows } from '../agents/overview.js';
import { StoreError } from '../store/errors.js';
import type { Json } from '../store/recall.js';
import { FILTER_NAMES } from './call.js';
import { hitTime } from './hermes.js';
import { tagHostAnswer, tagHostRow, withRows } from './hostTag.js';
import { sourceName, type Owner, type SourceId } from '../ids/ref.js';
import type {
  Capabilities,
  ConversationSource,
  FindQuery,
  ListQuery,
  Listed,
  Payload,
  RangeAsk,
  RangeRows,
  Row,
} from './source.js';

type Entry = Record<string, Json>;

/** Agents whose histories record no working folder: a `cwd` filter leaves them out, in one line. */
const NO_FOLDER: readonly Agent[] = ['praisonai'];

/** The shortest id prefix looked up (shorter ones name half the index). */
const MIN_PREFIX = 4;

export interface AgentsSourceOptions {
  env?: NodeJS.ProcessEnv;
  overrides?: Overrides;
  /** A pass that ended this recently (by any process) is not repeated; 0 always runs one. */
  freshMs?: number;
  /** Said once (stderr, the MCP log): the index was rebuilt, and why. */
  warn?: (line: string) => void;
  /** Progress of a long first pass (the command line's bar). */
  onProgress?: IndexOptions['onProgress'];
  onPassDone?: () => void;
  /** The machine whose mirrored histories the index holds (src/hosts); absent for this one. */
  host?: string;
}

export class AgentsSource implements ConversationSource {
  readonly id: SourceId;
  readonly name: string;
  readonly warnings: string[] = [];
  private db: Database.Database | null = null;

  constructor(
    readonly agents: readonly Agent[],
    private readonly opts: AgentsSourceOptions = {},
  ) {
    this.id = { kind: 'agents', agents, ...(opts.host ? { host: opts.host } : {}) };
    this.name = sourceName(this.id);
  }

  capabilities(): Capabilities {
    return {
      filters: new Set(FILTER_NAMES),
      cannot: {},
      ...(this.agents.some((a) => NO_FOLDER.includes(a))
        ? {
            partly: {
              cwd: `${NO_FOLDER.filter((a) => this.agents.includes(a)).join(', ')} records no working folder; its conversations are left out`,
            },
          }
        : {}),
      pins: false,
      lineage: false,
      detail: false,
    };
  }

  /** Brings the index up to date with the agents' files; called before each question. */
  begin(): void {
    const env = this.opts.env ?? process.env;
    const file = indexPath(env);
    const fresh = this.opts.freshMs ?? 0;
    const opened = this.db?.open ? null : openIndex(file);
    if (opened) {
      if (opened.rebuilt && opened.rebuilt !== 'missing')
        this.opts.warn?.(`index ${opened.rebuilt}; rebuilt from the agents' files`);
      this.db = opened.db;
    }
    const overrides = this.opts.overrides ?? {};
    const custom = Object.keys(overrides).length > 0;
    if (fresh > 0 && !opened?.rebuilt && !custom && passIsFresh(file, fresh)) return;
    indexAll(this.db!, {
      env,
      overrides,
      agents: [...this.agents],
      ...(this.opts.onProgress ? { onProgress: this.opts.onProgress } : {}),
    });
    this.opts.onPassDone?.();
    if (this.agents.length === AGENTS.length && !custom) stampPass(file);
  }

  /** The index, brought up to date: the search by meaning reads it (src/semantic/agents.ts). */
  indexDb(): Database.Database {
    return this.index;
  }

  private get index(): Database.Database {
    if (!this.db?.open) this.begin();
    return this.db!;
  }

  browse(q: ListQuery): Listed {
    const payload = recentAgentsJson(this.index, this.agents, {
      limit: q.limit,
      all: q.all,
      ...(q.filters ? { filters: q.filters } : {}),
    });
    const rows = this.rows(payload, (r) => Number(r.last_active ?? -Infinity));
    return { payload: withRows(payload, rows, this.opts.host), rows };
  }

  discover(q: FindQuery): Listed {
    const payload = searchAgentsJson(this.index, q.query, this.agents, {
      limit: q.limit,
      all: q.all,
      ...(q.sort ? { sort: q.sort } : {}),
      ...(q.roles ? { roles: q.roles } : {}),
      ...(q.filters ? { filters: q.filters } : {}),
    });
    const rows = this.rows(payload, hitTime);
    return { payload: withRows(payload, rows, this.opts.host), rows };
  }

  resolve(sessionId: string): string | null {
    const sid = sessionId.trim();
    if (!sid) return null;
    const c = findConversation(this.index, this.agents, sid);
    if (c) return c.native_id;
    if (sid.length < MIN_PREFIX) return null;
    const ids = this.index
      .prepare(
        `SELECT DISTINCT native_id FROM conversations WHERE agent IN ${inList(this.agents)}
           AND substr(native_id, 1, length(?)) = ? ORDER BY last_active_at DESC LIMIT 21`,
      )
      .pluck()
      .all(sid, sid) as string[];
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1)
      throw new StoreError(
        `session id prefix ${sid} is ambiguous: ${ids.length >= 21 ? '20+' : ids.length} conversations start with it (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`,
        'no-session',
      );
    return null;
  }

  scroll(sessionId: string, around: string, window?: number, all?: boolean): Payload {
    return this.tag(scrollAgentsJson(this.index, this.agents, sessionId, around, window, all));
  }

  read(sessionId: string, all?: boolean): Payload {
    return this.tag(readAgentsJson(this.index, this.agents, sessionId, all));
  }

  overview(sessionId: string, all?: boolean): Payload {
    return agentOverviewJson(this.index, this.agents, sessionId, all);
  }

  range(sessionId: string, q: RangeAsk): RangeRows {
    return agentRangeRows(this.index, this.agents, sessionId, q);
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }

  private ownerOf(agent: string): Owner {
    return {
      agent: isAgent(agent) ? agent : this.agents[0]!,
      ...(this.opts.host ? { host: this.opts.host } : {}),
    };
  }

  private tag(p: Payload): Payload {
    if (!this.opts.host) return p;
    const meta = p.session_meta;
    const agent =
      meta && typeof meta === 'object' && !Array.isArray(meta) ? String(meta.agent) : '';
    return tagHostAnswer(p, this.ownerOf(agent));
  }

  private rows(payload: Payload, at: (r: Entry) => number): Row[] {
    const results = Array.isArray(payload.results) ? (payload.results as Entry[]) : [];
    return results.map((json) => {
      const owner = this.ownerOf(String(json.agent));
      return {
        json: tagHostRow(json, owner),
        owner,
        sessionId: String(json.session_id),
        at: at(json),
        pinned: false,
      };
    });
  }
}
