/**
 * What a search asks, resolved once: the route (FTS, trigram or substring scan),
 * roles, sort and filters as a `Plan`, and the SQL those turn into. Every hit
 * query (ranked, by time, counting, within sessions) builds its WHERE from here,
 * so they cannot disagree about which rows a search may see.
 */
import type { Store } from '../store.js';
import { likePattern, type Route } from '../query.js';
import { DEMOTED_SOURCES_SQL, HIDDEN_SOURCES_SQL, visibleMessage } from '../sqlParts.js';
import type { SessionFilter } from '../filters.js';
import type { SearchOptions, SearchPath, Sort } from '../types.js';

export const DEFAULT_ROLES = ['user', 'assistant'];

export const NO_MATCH = 'No matching sessions found.';

export interface Hit {
  id: number;
  session_id: string;
  role: string;
  timestamp: number;
}

/** What a hit query needs to know, resolved once per search. */
export interface Plan {
  route: Exclude<Route, { kind: 'empty' }>;
  roles: string[];
  sort: Sort;
  all: boolean;
  /** Which sessions this pass reads: interactive first, then demoted (cron), as the agent ranks them. */
  pass?: 'interactive' | 'demoted';
  /** Sources, cwd, model: the filters SQL can apply to the hit's own session. */
  sessions?: SessionFilter | null;
  /** Only hits with id > lo and id <= hi (the rows a rebuilding index does not hold yet). */
  idRange?: { lo: number; hi: number } | null;
  /**
   * Only messages with text of their own (the relaxed leg): the index also holds
   * each turn's tool-call JSON, and a turn that is only a tool call (a shell
   * command, a file path) is not what a half-remembered question is about.
   */
  prose?: boolean;
}

export function ftsTable(route: Plan['route']): string {
  return route.kind === 'trigram' ? 'messages_fts_trigram' : 'messages_fts';
}

/**
 * The plan's filters as SQL on a message `m`. `bySource: false` leaves out the
 * hidden-source and cron-pass tests, for callers that apply them with
 * sourceTest() instead.
 */
export function filters(store: Store, plan: Plan, bySource = true): string {
  const parts = [visibleMessage(store.layout, 'm'), `m.role IN (SELECT value FROM json_each(?))`];
  // A set of hidden session ids, built once per query from the source index,
  // rather than a join: joining sessions makes SQLite build a Bloom filter by
  // scanning every session row, and old layouts store large prompts in them.
  if (bySource && !plan.all)
    parts.push(
      `m.session_id NOT IN (SELECT id FROM sessions WHERE source IN ${HIDDEN_SOURCES_SQL})`,
    );
  if (bySource && plan.pass === 'interactive')
    parts.push(
      `m.session_id NOT IN (SELECT id FROM sessions WHERE source IN ${DEMOTED_SOURCES_SQL})`,
    );
  else if (bySource && plan.pass === 'demoted')
    parts.push(`m.session_id IN (SELECT id FROM sessions WHERE source IN ${DEMOTED_SOURCES_SQL})`);
  if (plan.sessions) parts.push(`m.session_id IN (${plan.sessions.sql})`);
  if (plan.idRange) parts.push(`m.id > ${plan.idRange.lo} AND m.id <= ${plan.idRange.hi}`);
  if (plan.prose) parts.push(`m.content <> ''`);
  return parts.join(' AND ');
}

/** Bound parameters of filters(), in order. */
export function filterParams(plan: Plan): unknown[] {
  return [JSON.stringify(plan.roles), ...(plan.sessions?.params ?? [])];
}

export function likeTerms(route: { terms: string[]; combine: 'or' | 'and' }): string {
  const one = `(m.content LIKE ? ESCAPE '\\' OR m.tool_name LIKE ? ESCAPE '\\' OR m.tool_calls LIKE ? ESCAPE '\\')`;
  return route.terms.map(() => one).join(route.combine === 'or' ? ' OR ' : ' AND ');
}

export function likeParams(terms: string[]): string[] {
  return terms.flatMap((t) => {
    const p = likePattern(t);
    return [p, p, p];
  });
}

export function pathOf(route: Route): SearchPath {
  return route.kind;
}

export function normaliseOptions(opts: SearchOptions): {
  limit: number;
  plan: Omit<Plan, 'route'>;
} {
  const roles = (opts.roles ?? DEFAULT_ROLES).map((r) => r.trim()).filter((r) => r.length > 0);
  return {
    limit: Math.max(0, Math.floor(opts.limit ?? 10)),
    plan: {
      roles: roles.length > 0 ? roles : DEFAULT_ROLES,
      sort: opts.sort ?? 'relevance',
      all: opts.all ?? false,
    },
  };
}

/** The trigram index leaves out tool rows (and, v30, subagent sessions): such searches scan instead. */
export function trigramUsable(store: Store, roles: string[], all: boolean): boolean {
  return store.layout.trigram && !roles.includes('tool') && !all;
}
