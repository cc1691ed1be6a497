/**
 * The app's two lists (Recent and full-text Results) over every source it
 * shows: this profile's Hermes store, the other profiles' stores (the
 * every-profile view, P) and lookback's index of the other agents. Each source
 * is asked through the recall core's rules, so the app answers as the command
 * line, the library and the MCP server do:
 *
 * - one filter rule (src/recall/answer.ts admitFilters): a filter a source
 *   cannot apply leaves that source out with one line naming it (`refused`);
 * - one merge (src/recall/merge.ts): Recent newest activity with pinned first,
 *   relevance by taking turns, newest/oldest by the hit's time; exact hits of
 *   every source before any relaxed one;
 * - true counts and completeness: `complete` only when no source had more than
 *   the merge kept.
 *
 * Rows carry an `agent` whenever other agents' conversations are indexed (the
 * tag column does not come and go with a filter), and a `profile` in the
 * every-profile view.
 */
import { IdRangeError } from '../../ids/app.js';
import { AgentsSource } from '../../recall/agents.js';
import { admitFilters, type Admissible } from '../../recall/answer.js';
import { HermesSource } from '../../recall/hermes.js';
import { merge } from '../../recall/merge.js';
import type { Agent } from '../../agents/model.js';
import { StoreError } from '../../store/errors.js';
import type { Store } from '../../store/store.js';
import type { HiddenCounts, SearchPath, Sort } from '../../store/types.js';
import type { ResultItem, SessionRow } from '../model.js';
import type { AgentSource } from './agentSource.js';
import type { ProfileRef, RefOpener } from './everyProfile.js';
import type { HostIndexRef, IndexOpener } from './hostAgents.js';
import { LOCAL_HOST, storeFiltersOf, type AppFilters } from './filters.js';
import { tagResultItem, tagSessionRow } from './profileRows.js';
import { splitHostProfile } from '../../ids/app.js';
import { loadRecent, searchResultItems, type RecentAnswer } from './rows.js';

/** What the filter rule knows of this store (names and capabilities, as the CLI's). */
const hermesOf = new WeakMap<Store, HermesSource>();
function asSource(store: Store): HermesSource {
  let s = hermesOf.get(store);
  if (!s) hermesOf.set(store, (s = new HermesSource(store)));
  return s;
}
/** The index as the core names it; only its name and capabilities are read here (it never indexes). */
function indexSource(agents: readonly Agent[]): Admissible {
  return new AgentsSource(agents);
}

/** A host's index as the core names it: its name in a refusal says the machine. */
function hostIndexSource(h: HostPart): Admissible {
  return new AgentsSource(h.agents, { host: h.ref.host });
}

/** One source of a list: who it is for the rule, and how it lists. */
interface Part<T> {
  src: Admissible;
  run: () => { rows: T[]; complete: boolean; hidden?: HiddenCounts };
}

export interface AppSources {
  store: Store;
  agents: AgentSource | null;
  /** The every-profile view's other stores; null: this store alone. */
  refs: readonly ProfileRef[] | null;
  open: RefOpener | null;
  /** Other machines' agents' indexes (`lookback sync --host`), listed like this machine's. */
  hostIndexes?: readonly HostIndexRef[] | null;
  openIndex?: IndexOpener | null;
}

/** A host's agents' index the scope keeps, opened, and the agents asked of it. */
interface HostPart {
  ref: HostIndexRef;
  src: AgentSource;
  agents: Agent[];
}

/** Which owners a line's `agent:`, `profile:` and `host:` chips keep. */
function scope(
  s: AppSources,
  f: AppFilters | undefined,
): { own: boolean; refs: ProfileRef[]; index: Agent[]; hostIndexes: HostPart[]; notes: string[] } {
  const wanted = f?.agents;
  const hermes = !wanted || wanted.includes('hermes');
  const profiles = f?.profiles;
  const hosts = f?.hosts;
  const local = !hosts || hosts.includes(LOCAL_HOST);
  // A host's profile is `<profile>@<host>`: `profile:` names the profile on whichever machine.
  const keep = (name: string) => !profiles || profiles.includes(splitHostProfile(name).profile);
  const onHost = (r: ProfileRef) =>
    r.host === undefined ? local : !hosts || hosts.includes(r.host);
  const read = s.agents?.agents ?? [];
  const indexed = s.agents && s.agents.hasConversations() ? read : [];
  // An agent asked for whose histories this app does not read: one line, never a silent empty list.
  const notes = (wanted ?? [])
    .filter((a) => a !== 'hermes' && !(read as readonly string[]).includes(a))
    .map(
      (a) =>
        `agent:${a}: ${a}'s conversations are not read here (lookback --agent ${a} reads them)`,
    );
  const hostIndexes: HostPart[] = [];
  if (!profiles && s.openIndex)
    for (const ref of s.hostIndexes ?? []) {
      if (hosts && !hosts.includes(ref.host)) continue;
      const agents = read.filter((a) => !wanted || wanted.includes(a));
      if (agents.length > 0) hostIndexes.push({ ref, src: s.openIndex(ref), agents });
    }
  return {
    hostIndexes,
    own: hermes && local && keep(s.store.profile),
    refs: hermes && s.open ? (s.refs ?? []).filter((r) => keep(r.name) && onHost(r)) : [],
    // A `profile:` chip names Hermes profiles: the other agents' rows are no profile's.
    index: profiles || !local ? [] : indexed.filter((a) => !wanted || wanted.includes(a)),
    notes,
  };
}

/** Rows tagged with their profile in the every-profile view (P), with their machine when hosts are listed. */
function tagging(s: AppSources): {
  every: boolean;
  hosts: boolean;
  own: <T extends object>(r: T) => T & { profile?: string; host?: string };
  ref: <T extends object>(r: T, ref: ProfileRef) => T & { profile?: string; host?: string };
  index: <T extends object>(r: T) => T & { profile?: string; host?: string };
  hostIndex: <T extends object>(r: T, host: string) => T & { profile?: string; host?: string };
} {
  const refs = s.refs ?? [];
  const every = refs.some((r) => r.host === undefined);
  const hosts = refs.some((r) => r.host !== undefined) || (s.hostIndexes ?? []).length > 0;
  const host = (h: string) => (hosts ? { host: h } : {});
  return {
    every,
    hosts,
    own: (r) => ({
      ...r,
      ...(every ? { profile: s.store.profile } : {}),
      ...host(LOCAL_HOST),
    }),
    ref: (r, ref) => {
      const { profile: _p, ...rest } = r as T0;
      return {
        ...(rest as typeof r),
        ...(every ? { profile: splitHostProfile(ref.name).profile } : {}),
        ...host(ref.host ?? LOCAL_HOST),
      };
    },
    index: (r) => ({ ...r, ...(every ? { profile: '' } : {}), ...host(LOCAL_HOST) }),
    hostIndex: (r, h) => ({ ...r, ...(every ? { profile: '' } : {}), host: h }),
  };
}
type T0 = { profile?: string };

/** The other profiles' stores the scope keeps, opened; one that cannot be opened now is one line. */
function openRefs(s: AppSources, refs: ProfileRef[], notes: string[]): [ProfileRef, Store][] {
  const out: [ProfileRef, Store][] = [];
  for (const ref of refs) {
    try {
      out.push([ref, s.open!(ref)]);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      notes.push(`Hermes profile ${ref.name}: ${err.message}; left out`);
    }
  }
  return out;
}

/** Runs the admitted parts; a store of another profile that cannot be read now is one line. */
function runParts<T>(
  parts: Part<T>[],
  f: AppFilters | undefined,
  notes: readonly string[],
): { got: ReturnType<Part<T>['run']>[]; refused: string[] } {
  const admitted = admitFilters(
    storeFiltersOf(f),
    parts.map((p) => p.src),
  );
  const use = admitted.use;
  const refused = [...admitted.refused, ...notes];
  if (use.length === 0 && refused.length > 0) throw new StoreError(refused.join('; '), 'query');
  const got: ReturnType<Part<T>['run']>[] = [];
  for (const p of parts) {
    if (!use.includes(p.src)) continue;
    try {
      got.push(p.run());
    } catch (err) {
      // A source that cannot be read now, or whose rows the app cannot number: one line, the rest answer.
      const oneLine = err instanceof StoreError || err instanceof IdRangeError;
      if (!oneLine || parts.length === 1) throw err;
      refused.push(`${p.src.name}: ${err.message}; left out`);
    }
  }
  return { got, refused };
}

function addHidden(a: HiddenCounts, b: HiddenCounts | undefined): HiddenCounts {
  if (!b) return a;
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof HiddenCounts)[]) out[k] = a[k] + b[k];
  return out;
}

const NO_HIDDEN: HiddenCounts = {
  total: 0,
  archived: 0,
  hidden: 0,
  kanban: 0,
  subagent: 0,
  tool: 0,
  delegate: 0,
  orphaned: 0,
};

export interface ListedRecent extends RecentAnswer {
  /** One line per source a filter could not apply to (left out). */
  refused: string[];
}

/** Recent over every source: pinned first, then newest activity; complete only when nothing was cut. */
export function recentEverywhere(
  s: AppSources,
  limit: number,
  all: boolean,
  f?: AppFilters,
): ListedRecent {
  const sf = storeFiltersOf(f);
  const sc = scope(s, f);
  const tagAgent = s.agents !== null && s.agents.hasConversations();
  const tag = tagging(s);
  const hermesRow = (r: SessionRow, ref: ProfileRef | null): SessionRow => ({
    ...(ref === null ? tag.own(r) : tag.ref(tagSessionRow(r, ref.name), ref)),
    ...(tagAgent ? { agent: 'hermes' } : {}),
  });
  const parts: Part<SessionRow>[] = [];
  if (sc.own)
    parts.push({
      src: asSource(s.store),
      run: () => {
        const a = loadRecent(s.store, limit, all, sf);
        return { ...a, rows: a.rows.map((r) => hermesRow(r, null)) };
      },
    });
  const notes: string[] = [...sc.notes];
  for (const [ref, store] of openRefs(s, sc.refs, notes)) {
    parts.push({
      src: asSource(store),
      run: () => {
        const a = loadRecent(store, limit, all, sf);
        return { ...a, rows: a.rows.map((r) => hermesRow(r, ref)) };
      },
    });
  }
  if (sc.index.length > 0)
    parts.push({
      src: indexSource(sc.index),
      run: () => {
        const rows = s.agents!.recent(limit, all, sf, sc.index);
        return {
          rows: rows.map(tag.index),
          complete: rows.length < limit,
        };
      },
    });
  for (const h of sc.hostIndexes)
    parts.push({
      src: hostIndexSource(h),
      run: () => {
        const rows = h.src.recent(limit, all, sf, h.agents);
        return {
          rows: rows.map((r) => tag.hostIndex(r, h.ref.host)),
          complete: rows.length < limit,
        };
      },
    });
  const { got, refused } = runParts(parts, f, notes);
  const total = got.reduce((n, g) => n + g.rows.length, 0);
  const rows = merge(
    got.map((g) => g.rows),
    'pinned-first',
    { at: (r) => r.lastActive, pinned: (r) => r.pinned },
    limit,
  );
  return {
    rows,
    hidden: got.reduce((h, g) => addHidden(h, g.hidden), { ...NO_HIDDEN }),
    complete: got.every((g) => g.complete) && total <= limit,
    refused,
  };
}

export interface ListedSearch {
  items: ResultItem[];
  path: SearchPath;
  message: string | null;
  refused: string[];
}

export interface SearchAsk {
  query: string;
  sort: Sort;
  roles: string[];
  limit: number;
  filters?: AppFilters | undefined;
}

/**
 * Full-text results over every source. Two indexes' scores do not compare:
 * relevance takes turns; newest/oldest merge by the hit's time.
 */
export function searchEverywhere(s: AppSources, req: SearchAsk): ListedSearch {
  const sf = storeFiltersOf(req.filters);
  const sc = scope(s, req.filters);
  const tagAgent = s.agents !== null && s.agents.hasConversations();
  const tags = tagging(s);
  let path: SearchPath = 'fts';
  let message: string | null = null;
  const parts: Part<ResultItem>[] = [];
  const tag = (r: ResultItem): ResultItem => ({
    ...tags.own(r),
    ...(tagAgent ? { agent: 'hermes' } : {}),
  });
  if (sc.own)
    parts.push({
      src: asSource(s.store),
      run: () => {
        const h = searchResultItems(s.store, req.query, req.sort, req.roles, req.limit, sf);
        path = h.path;
        message = h.message;
        return { rows: h.items.map(tag), complete: h.items.length < req.limit };
      },
    });
  const notes: string[] = [...sc.notes];
  for (const [ref, store] of openRefs(s, sc.refs, notes)) {
    parts.push({
      src: asSource(store),
      run: () => {
        const h = searchResultItems(store, req.query, req.sort, req.roles, req.limit, sf);
        if (!sc.own && message === null) message = h.message;
        return {
          rows: h.items.map((i) => ({
            ...tags.ref(tagResultItem(i, ref.name, ref.slot), ref),
            ...(tagAgent ? { agent: 'hermes' } : {}),
          })),
          complete: h.items.length < req.limit,
        };
      },
    });
  }
  if (sc.index.length > 0)
    parts.push({
      src: indexSource(sc.index),
      run: () => {
        let n = 0;
        const items = s.agents!.search(
          req.query,
          req.sort,
          req.roles,
          req.limit,
          sc.index,
          sf,
          (line, hits) => {
            skipped.push(`${line}; left out`);
            n = hits;
          },
        );
        return {
          rows: items.map(tags.index),
          complete: items.length + n < req.limit,
        };
      },
    });
  for (const h of sc.hostIndexes)
    parts.push({
      src: hostIndexSource(h),
      run: () => {
        let n = 0;
        const items = h.src.search(
          req.query,
          req.sort,
          req.roles,
          req.limit,
          h.agents,
          sf,
          (line, hits) => {
            skipped.push(`${h.ref.host}: ${line}; left out`);
            n = hits;
          },
        );
        return {
          rows: items.map((r) => tags.hostIndex(r, h.ref.host)),
          complete: items.length + n < req.limit,
        };
      },
    });
  /** Hits an index could not number (past its id block): said once per index. */
  const skipped: string[] = [];
  const { got, refused } = runParts(parts, req.filters, notes);
  refused.push(...skipped);
  const order = req.sort === 'newest' || req.sort === 'oldest' ? req.sort : 'turns';
  const at = { at: (r: ResultItem) => r.when };
  // Exact hits of every source before any relaxed one (they are listed apart).
  const exact = merge(
    got.map((g) => g.rows.filter((r) => !r.relaxed)),
    order,
    at,
  );
  const loose = merge(
    got.map((g) => g.rows.filter((r) => r.relaxed)),
    'turns',
    at,
  );
  const items = [...exact, ...loose].slice(0, req.limit);
  return { items, path, message: items.length > 0 ? null : message, refused };
}

/**
 * How many conversations the query finds over every source (summed: each
 * conversation lives in one source), capped at `cap` matching messages a source.
 */
export function countEverywhere(
  s: AppSources,
  req: SearchAsk,
  countStore: (
    store: Store,
    filters: AppFilters | undefined,
  ) => { count: number; capped: boolean } | null,
  cap: number,
): { count: number; capped: boolean } {
  const sf = storeFiltersOf(req.filters);
  const sc = scope(s, req.filters);
  const parts: Part<never>[] = [];
  let count = 0;
  let capped = false;
  const add = (c: { count: number; capped: boolean } | null) => {
    if (!c) return;
    count += c.count;
    capped ||= c.capped;
  };
  if (sc.own)
    parts.push({
      src: asSource(s.store),
      run: () => (add(countStore(s.store, sf)), { rows: [], complete: true }),
    });
  const notes: string[] = [...sc.notes];
  for (const [, store] of openRefs(s, sc.refs, notes)) {
    parts.push({
      src: asSource(store),
      run: () => (add(countStore(store, sf)), { rows: [], complete: true }),
    });
  }
  if (sc.index.length > 0)
    parts.push({
      src: indexSource(sc.index),
      run: () => (
        add(s.agents!.count(req.query, req.roles, cap, sc.index, sf)),
        { rows: [], complete: true }
      ),
    });
  for (const h of sc.hostIndexes)
    parts.push({
      src: hostIndexSource(h),
      run: () => (
        add(h.src.count(req.query, req.roles, cap, h.agents, sf)),
        { rows: [], complete: true }
      ),
    });
  runParts(parts, req.filters, notes);
  return { count, capped };
}
