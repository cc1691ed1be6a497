/**
 * The four recall operations of the library (src/lib.ts) over a set of
 * sources: each builds a Call (src/recall/call.ts) and asks the one core
 * (src/recall/answer.ts), so the library gives exactly the JSON the command
 * line prints for the same question.
 */
import { answer, type SourceSet } from '../recall/answer.js';
import type { Call } from '../recall/call.js';
import { HermesSource } from '../recall/hermes.js';
import { chooseSources, profileOpener, selectionFor, type Selection } from '../recall/sources.js';
import { parseTarget } from '../recall/target.js';
import type { Json } from '../store/recall.js';
import { StoreError } from '../store/errors.js';
import { UsageError } from '../recall/usage.js';
import type { Store } from '../store/store.js';
import type { Detail, Filters, Sort } from '../store/types.js';
import type { Agent } from '../agents/model.js';
import type Database from 'better-sqlite3';
import { lazy } from './lazy.js';

export { resolveIn as resolveSessionId } from '../recall/hermes.js';

export type Answer = Record<string, Json>;

export interface RecentOptions {
  limit?: number;
  /** Include what the agent hides from default lists (subagent and tool runs, archived). */
  all?: boolean;
  /** --after/--before/--source/--cwd/--model (src/store/filters.ts). */
  filters?: Filters;
}

export interface SearchOptions {
  limit?: number;
  sort?: Sort;
  roles?: string[];
  all?: boolean;
  /** --after/--before/--source/--cwd/--model/--exclude (src/store/filters.ts). */
  filters?: Filters;
  /** adaptive (default), full or compact: which results carry their window and bookends. */
  detail?: Detail;
}

/** A search by meaning (`lookback search --mode semantic|hybrid`). */
export interface MeaningOptions {
  mode: 'semantic' | 'hybrid';
  /** model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or openai:MODEL@BASE_URL. */
  embedder: string;
  limit?: number;
  all?: boolean;
  /** vectors.db; default as the command line's (LOOKBACK_VECTORS_DB, else the cache folder). */
  vectorsPath?: string;
}

export interface ScrollOptions {
  /** Messages each side of the anchor, 1..20 (default 5). */
  window?: number;
}

/** Where profiles and the agents' histories live (tests and the library may point elsewhere). */
export interface ProfileContext {
  env?: NodeJS.ProcessEnv;
  home?: string;
}

type Set = SourceSet & { close(): void };

export class Operations {
  /** `sel` and `ctx`: to read the machine a host link names when the set is this machine's. */
  constructor(
    private readonly set: Set,
    private readonly sel?: Selection,
    private readonly ctx: ProfileContext = {},
  ) {}

  /** One store, as given. */
  static one(store: Store, ctx: ProfileContext = {}): Operations {
    const source = new HermesSource(store);
    return new Operations({
      sources: [source],
      openProfile: profileOpener(ctx),
      close: () => source.close(),
    });
  }

  /** The sources `sel` selects (every source found when it names none). */
  static select(sel: Selection, ctx: ProfileContext = {}): Operations {
    return new Operations(chooseSources(sel, ctx), sel, ctx);
  }

  static allProfiles(ctx: ProfileContext = {}): Operations {
    return Operations.select({ allProfiles: true }, ctx);
  }

  /** Warnings about the sources (open notes, degraded indexes). */
  get warnings(): readonly string[] {
    return this.set.sources.flatMap((s) => s.warnings);
  }

  recent(opts: RecentOptions = {}): Answer {
    return this.ask({
      shape: 'browse',
      limit: opts.limit ?? 20,
      all: opts.all ?? false,
      order: 'activity',
      ...(opts.filters ? { filters: opts.filters } : {}),
    });
  }

  search(query: string, opts: SearchOptions = {}): Answer {
    return this.ask({
      shape: 'discover',
      query,
      limit: opts.limit ?? 10,
      all: opts.all ?? false,
      ...(opts.sort ? { sort: opts.sort } : {}),
      ...(opts.roles ? { roles: opts.roles } : {}),
      ...(opts.filters ? { filters: opts.filters } : {}),
      ...(opts.detail ? { detail: opts.detail } : {}),
    });
  }

  /**
   * Search by meaning over the one source the set holds (a Hermes store, or the
   * other agents' index), by the functions the command line and MCP call, so the
   * answer is theirs; more than one source is refused in one line, as there.
   */
  async searchByMeaning(query: string, opts: MeaningOptions): Promise<Answer> {
    const { sources } = this.set;
    const only = sources.length === 1 && !sources[0]!.id.host ? sources[0]! : null;
    if (!only)
      throw new StoreError(
        `mode ${opts.mode} searches one source: open the library with { agent: 'hermes' } (or a path or profile), or { agent: 'claude' } for another agent's history`,
        'query',
      );
    const { semanticSearch, semanticAgentsSearch, vectorsPath } = await lazy.semantic();
    const o = {
      mode: opts.mode,
      embedder: opts.embedder,
      limit: opts.limit ?? 10,
      all: opts.all ?? false,
      vectorsPath: opts.vectorsPath ?? vectorsPath(this.ctx.env ?? process.env),
    };
    // By kind, not instanceof: the lazy module is another bundle's copy of the classes.
    if (only.id.kind === 'hermes')
      return semanticSearch((only as unknown as { store: Store }).store, query, o);
    const agents = only as unknown as { agents: readonly Agent[]; indexDb(): Database.Database };
    return semanticAgentsSearch(agents.indexDb(), agents.agents, query, o);
  }

  scroll(sessionId: string, messageId: number | string, opts: ScrollOptions = {}): Answer {
    return this.ask({
      shape: 'scroll',
      target: parseTarget(sessionId, { around: messageId }),
      ...(opts.window !== undefined ? { window: opts.window } : {}),
    });
  }

  read(sessionId: string): Answer {
    const target = parseTarget(sessionId);
    delete target.around;
    return this.ask({ shape: 'read', target });
  }

  close(): void {
    this.set.close();
  }

  private ask(call: Call): Answer {
    const sel = this.sel ? selectionFor(this.sel, call) : undefined;
    if (!sel || sel === this.sel) return answer(call, this.set);
    // A link to another machine: that machine's sources, for this call.
    let set: Set;
    try {
      set = chooseSources(sel, this.ctx);
    } catch (err) {
      if (err instanceof UsageError) throw new StoreError(err.message, 'query');
      throw err;
    }
    try {
      return answer(call, set);
    } finally {
      set.close();
    }
  }
}
