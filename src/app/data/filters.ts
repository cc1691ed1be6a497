/**
 * The search line's chips (src/query/filters.ts parses them) turned into what
 * the store's search and browse take: dates into epoch seconds, `~` into the
 * home folder, roles into the search's roles, and a one-line message for any
 * filter the app cannot apply (a bad date, another profile, another agent).
 */
import { AGENTS } from '../../agents/model.js';
import { parseFilters, type Chip, type Filters as LineFilters } from '../../query/filters.js';
import { folderAndBelow, isAtOrBelow } from '../../recall/folder.js';
import { parseWhen } from '../../store/time.js';
import type { Filters as StoreFilters } from '../../store/types.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { agentFilter } from './agentFilter.js';

/**
 * What the app's lists take: the store's filters (applied by every source that
 * can, refused in one line for one that cannot: src/recall/answer.ts
 * admitFilters) and which owners to list (`agent:`, `profile:` in the
 * every-profile view), applied by choosing the sources to ask.
 */
export type AppFilters = StoreFilters & {
  /** `agent:` chips: hermes and other agents' names (checked), lower case. */
  agents?: string[];
  /** `profile:` chips in the every-profile view: the profiles listed. */
  profiles?: string[];
  /** `host:` chips: the machines listed (`local`: this one), applied by choosing the sources. */
  hosts?: string[];
};

/** The store's own filters of app filters (what a source applies). */
export function storeFiltersOf(f: AppFilters | undefined): StoreFilters | undefined {
  if (!f) return undefined;
  const { agents: _a, profiles: _p, hosts: _h, ...rest } = f;
  return Object.values(rest).some((v) => v !== undefined) ? rest : undefined;
}

/** What `host:` calls this machine. */
export const LOCAL_HOST = 'local';

export interface LineContext {
  /** Wall clock (ms) for `today`, `7d`. */
  now: number;
  /** For `cwd:~/code`. */
  home: string;
  /** The profile shown (`profile:` filters only when several are shown). */
  profile: string;
  /** The every-profile view (P) is on: every profile is shown, each row tagged. */
  everyProfile?: boolean;
  /** The this-folder view (`.`): only conversations run in this folder or below it. */
  here?: string | null;
  /** The other machines whose conversations are listed (synced with `lookback sync --host`). */
  hosts?: readonly string[];
}

export interface ResolvedLine {
  /** The free query. */
  text: string;
  chips: Chip[];
  /** As typed, for messages (`source:cli after:7d`). */
  filters: LineFilters;
  /** What the app's lists take: the store's filters, and the owners listed. */
  store: AppFilters;
  /** `role:` chips: the search's roles instead of the default. */
  roles: string[] | null;
  /** Set when any chip is set (a filter alone filters Recent). */
  filtered: boolean;
  /** One line: what is wrong; nothing is searched. */
  error: string | null;
}

function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return `${home.replace(/\/+$/, '')}/${p.slice(2)}`;
  return p;
}

export function resolveLine(line: string, c: LineContext): ResolvedLine {
  const parsed = parseFilters(line);
  const f = parsed.filters;
  const out: ResolvedLine = {
    text: parsed.text,
    chips: parsed.chips,
    filters: f,
    store: {},
    roles: f.roles && f.roles.length > 0 ? f.roles : null,
    filtered: parsed.chips.length > 0,
    error: parsed.error ?? null,
  };
  if (out.error) return out;
  const when = new Date(c.now);
  for (const key of ['after', 'before'] as const) {
    const v = f[key];
    if (v === undefined) continue;
    const t = parseWhen(v, when);
    if (t === null) {
      out.error = `${key}:${sanitizeLine(v)} is not a date: use today, yesterday, 7d, 2w, 24h or 2026-03-01`;
      return out;
    }
    out.store[key] = t;
  }
  if (f.sources) out.store.sources = f.sources;
  if (f.cwd !== undefined) out.store.cwd = expandHome(f.cwd, c.home);
  if (f.model !== undefined) out.store.model = f.model;
  // The this-folder view is one more folder filter; a `cwd:` inside it narrows it, one outside is refused.
  if (c.here) {
    out.filtered = true;
    const typed = out.store.cwd;
    if (typed === undefined) out.store.cwd = folderAndBelow(c.here);
    else if (!isAtOrBelow(typed, c.here)) {
      out.error = `cwd:${sanitizeLine(f.cwd ?? typed)} is outside this folder (${sanitizeLine(c.here)}): . shows every folder`;
      return out;
    }
  }
  // Out of the every-profile view only this profile is shown: another is refused in one line.
  const profiles = (f.profiles ?? []).map((p) => p.trim()).filter((p) => p !== '');
  if (c.everyProfile) {
    if (profiles.length > 0) out.store.profiles = profiles;
  } else {
    const otherProfile = profiles.find((p) => p !== c.profile);
    if (otherProfile !== undefined) {
      out.error = `profile:${sanitizeLine(otherProfile)}: only one profile is shown (${sanitizeLine(c.profile)}); --profile opens another, P shows every profile`;
      return out;
    }
  }
  // `agent:` picks whose conversations are listed, Hermes' and every other agent's alike.
  if (f.agents && f.agents.length > 0) {
    const picked = agentFilter(f.agents);
    if (picked.unknown.length > 0) {
      out.error = `agent:${sanitizeLine(picked.unknown[0]!)}: no such agent (hermes, ${AGENTS.join(', ')})`;
      return out;
    }
    out.store.agents = picked.agents;
  }
  // `host:` picks machines: `local` (this one) or a host the app lists; another is one line.
  const hosts = (f.hosts ?? []).map((h) => h.trim()).filter((h) => h !== '');
  if (hosts.length > 0) {
    const shown = c.hosts ?? [];
    const unknown = hosts.find((h) => h !== LOCAL_HOST && !shown.includes(h));
    if (unknown !== undefined) {
      out.error =
        shown.length === 0
          ? `host:${sanitizeLine(unknown)}: no other machine is synced; lookback sync --host ${sanitizeLine(unknown)} reads it`
          : `host:${sanitizeLine(unknown)}: not synced (hosts: ${[LOCAL_HOST, ...shown].map(sanitizeLine).join(', ')}); lookback sync --host NAME reads another`;
      return out;
    }
    out.store.hosts = hosts;
  }
  return out;
}

/** The store filters as one comparable key (Recent reloads when it changes). */
export function filtersKey(f: AppFilters): string {
  return JSON.stringify([
    f.agents ?? null,
    f.profiles ?? null,
    f.hosts ?? null,
    f.sources ?? null,
    f.after ?? null,
    f.before ?? null,
    f.cwd ?? null,
    f.model ?? null,
  ]);
}
