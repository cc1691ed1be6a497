/**
 * The search line's chips (src/query/filters.ts parses them) turned into what
 * the store's search and browse take: dates into epoch seconds, `~` into the
 * home folder, roles into the search's roles, and a one-line message for any
 * filter the app cannot apply (a bad date, another profile, another agent).
 */
import { parseFilters, type Chip, type Filters as LineFilters } from '../../query/filters.js';
import { parseWhen } from '../../store/time.js';
import type { Filters as StoreFilters } from '../../store/types.js';
import { sanitizeLine } from '../../text/sanitize.js';

/**
 * The agents the search line's filters apply to. Recent and Results list the
 * other agents' conversations too (unfiltered); when the filters reach the
 * agents' index, their names go here and `agent:` filters by them.
 */
export function agentsInApp(): readonly string[] {
  return ['hermes'];
}

export interface LineContext {
  /** Wall clock (ms) for `today`, `7d`. */
  now: number;
  /** For `cwd:~/code`. */
  home: string;
  /** The profile shown (`profile:` filters only when several are shown). */
  profile: string;
  /** The every-profile view (P) is on: every profile is shown, each row tagged. */
  everyProfile?: boolean;
}

export interface ResolvedLine {
  /** The free query. */
  text: string;
  chips: Chip[];
  /** As typed, for messages (`source:cli after:7d`). */
  filters: LineFilters;
  /** What the store's search and browse take. */
  store: StoreFilters;
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
  // In the every-profile view no `profile:` filters (not even this one's): each row names its own.
  const otherProfile = (f.profiles ?? []).find((p) => c.everyProfile || p !== c.profile);
  if (otherProfile !== undefined) {
    out.error = c.everyProfile
      ? `profile:${sanitizeLine(otherProfile)}: the every-profile view does not filter by profile; each row names its own`
      : `profile:${sanitizeLine(otherProfile)}: only one profile is shown (${sanitizeLine(c.profile)}); --profile opens another, P shows every profile`;
    return out;
  }
  const shown = agentsInApp();
  const otherAgent = (f.agents ?? []).find((a) => !shown.includes(a.toLowerCase()));
  if (otherAgent !== undefined) {
    // Other agents' rows are listed (unfiltered); the chips filter Hermes conversations alone.
    out.error = `agent:${sanitizeLine(otherAgent)}: the search line's filters apply to ${shown.join(', ')} conversations alone; lookback search --agent NAME filters by another agent`;
    return out;
  }
  return out;
}

/** The store filters as one comparable key (Recent reloads when it changes). */
export function filtersKey(f: StoreFilters): string {
  return JSON.stringify([
    f.sources ?? null,
    f.after ?? null,
    f.before ?? null,
    f.cwd ?? null,
    f.model ?? null,
  ]);
}

/** The chips of a search line, for drawing them. */
export function lineChips(line: string): Chip[] {
  return line.includes(':') ? parseFilters(line).chips : [];
}
