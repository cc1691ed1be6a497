/**
 * The four recall operations over a chosen store (or every profile's), shared
 * by the command line and the library so both give exactly the same JSON.
 */
import { parseAnchor } from '../anchors/parse.js';
import { StoreError } from '../store/errors.js';
import { recentAllJson, searchAllJson } from '../store/allProfiles.js';
import { sessionMeta } from '../store/lineage.js';
import { openableProfile, readableProfiles } from '../postgres/profiles.js';
import { allProfiles, findProfile, type Profile } from '../store/profiles.js';
import { readJson, recentJson, scrollJson, searchJson, type Json } from '../store/recall.js';
import { sessionsByPrefix } from '../store/resolve.js';
import { Store } from '../store/store.js';
import type { Detail, Filters, Sort } from '../store/types.js';

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

export interface ScrollOptions {
  /** Messages each side of the anchor, 1..20 (default 5). */
  window?: number;
}

/** Where profiles live (tests and the library may point elsewhere than the real home). */
export interface ProfileContext {
  env?: NodeJS.ProcessEnv;
  home?: string;
}

type Source = { kind: 'one'; store: Store } | { kind: 'all'; profiles: Profile[] };

/** A session id, or a link naming another profile's session. */
interface Target {
  profile: string | null;
  sessionId: string;
}

function target(arg: string): Target {
  const a = arg.trim();
  if (a.startsWith('@session:')) {
    const p = parseAnchor(a);
    if (p?.kind === 'link') return { profile: p.profile, sessionId: p.sessionId };
  }
  return { profile: null, sessionId: a };
}

/** The session `id` names in `store`: the id itself, else the one session it is a prefix of. */
export function resolveSessionId(store: Store, id: string): string {
  return store.read(() => {
    if (!id || sessionMeta(store, id)) return id;
    const ids = sessionsByPrefix(store, id);
    if (ids.length === 1) return ids[0]!;
    if (ids.length > 1)
      throw new StoreError(
        `session id prefix ${id} is ambiguous: ${ids.length}${ids.length >= 20 ? '+' : ''} sessions start with it (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`,
        'no-session',
      );
    return id;
  });
}

export class Operations {
  constructor(
    private readonly source: Source,
    private readonly ctx: ProfileContext = {},
  ) {}

  static one(store: Store, ctx: ProfileContext = {}): Operations {
    return new Operations({ kind: 'one', store }, ctx);
  }

  static allProfiles(ctx: ProfileContext = {}): Operations {
    return new Operations({ kind: 'all', profiles: readableProfiles(ctx) }, ctx);
  }

  /** Warnings about the store (open notes, degraded indexes); none across profiles. */
  get warnings(): readonly string[] {
    return this.source.kind === 'one' ? this.source.store.warnings : [];
  }

  recent(opts: RecentOptions = {}): Answer {
    const o = {
      limit: opts.limit ?? 20,
      all: opts.all ?? false,
      ...(opts.filters ? { filters: opts.filters } : {}),
    };
    if (this.source.kind === 'all') return recentAllJson(this.source.profiles, o);
    return recentJson(this.source.store, o);
  }

  search(query: string, opts: SearchOptions = {}): Answer {
    const o = {
      limit: opts.limit ?? 10,
      all: opts.all ?? false,
      ...(opts.sort ? { sort: opts.sort } : {}),
      ...(opts.roles ? { roles: opts.roles } : {}),
      ...(opts.filters ? { filters: opts.filters } : {}),
      ...(opts.detail ? { detail: opts.detail } : {}),
    };
    if (this.source.kind === 'all') return searchAllJson(this.source.profiles, query, o);
    return searchJson(this.source.store, query, o);
  }

  scroll(sessionId: string, messageId: number, opts: ScrollOptions = {}): Answer {
    return this.withSession(sessionId, (store, sid) =>
      scrollJson(store, sid, messageId, opts.window),
    );
  }

  read(sessionId: string): Answer {
    return this.withSession(sessionId, (store, sid) =>
      readJson(store, resolveSessionId(store, sid)),
    );
  }

  close(): void {
    if (this.source.kind === 'one') this.source.store.close();
  }

  /**
   * Runs `fn` on the store that holds the session: the open store, or the
   * profile a link names (opened for the call); across all profiles, the
   * first profile that has the session.
   */
  private withSession(arg: string, fn: (store: Store, sid: string) => Answer): Answer {
    const t = target(arg);
    if (
      this.source.kind === 'one' &&
      (t.profile === null || t.profile === this.source.store.profile)
    )
      return fn(this.source.store, t.sessionId);
    if (t.profile !== null) return this.inProfile(t.profile, (s) => fn(s, t.sessionId));
    const profiles = (this.source as { profiles: Profile[] }).profiles.filter((p) => !p.skip);
    for (const p of profiles) {
      const found = this.inProfile(p.name, (s) => {
        const sid = resolveSessionId(s, t.sessionId);
        return sessionMeta(s, sid) ? fn(s, sid) : null;
      });
      if (found) return found;
    }
    throw new StoreError(`session_id not found in any profile: ${t.sessionId}`, 'no-session');
  }

  private inProfile<T>(name: string, fn: (store: Store) => T): T {
    const found = name === 'default' ? allProfiles(this.ctx)[0] : findProfile(name, this.ctx);
    if (!found) throw new StoreError(`no profile named ${name}`, 'not-found');
    // A profile on PostgreSQL is read from its mirror, synced first.
    const p = openableProfile(found, this.ctx);
    if (p.postgres && p.skip) throw new StoreError(p.skip, 'not-found');
    const store = Store.open(p.path, { profile: p.name, idleCloseMs: 0 });
    try {
      return fn(store);
    } finally {
      store.close();
    }
  }
}
