/**
 * From `session_search` arguments to lookback's recall functions: the one
 * place that decides which shape a call is (scroll, read, browse, discover),
 * which store it reads and which function answers it. The answers are the
 * objects `lookback recent|search|scroll|read --json` prints, untouched.
 */
import { AGENTS, isAgent, type Agent } from '../agents/model.js';
import { parseAnchor } from '../anchors/parse.js';
import { readJson, recentJson, scrollJson, searchJson, type Json } from '../store/recall.js';
import { StoreError } from '../store/errors.js';
import type { Store } from '../store/store.js';
import { parseWhen } from '../store/time.js';
import type { Detail, Filters, Sort } from '../store/types.js';
import type { AgentIndex } from './agents.js';
import type { StoreRegistry } from './stores.js';
import type { SessionSearchArgs } from './tool.js';

/** A call that cannot be answered as made; the message says what to change. */
export class ToolError extends Error {}

/** The agent tool's limits: 3 conversations unless asked, never more than 10. */
export const LIMIT_DEFAULT = 3;
export const LIMIT_MAX = 10;

/** The agent whose store lookback reads directly; any other is looked up in lookback's index. */
export const NATIVE_AGENT = 'hermes';

export type Call =
  /** Hermes message ids are integers; other agents' anchors may be strings. */
  | { shape: 'scroll'; sessionId: string; aroundId: number | string; window?: number }
  | { shape: 'read'; sessionId: string }
  | { shape: 'browse'; limit: number; filters?: Filters }
  | {
      shape: 'discover';
      query: string;
      limit: number;
      sort?: Sort;
      roles?: string[];
      detail?: Detail;
      filters?: Filters;
    };

export interface Plan {
  /** Whose history: `hermes` or another agent's name. */
  agent: typeof NATIVE_AGENT | Agent;
  /** The profile whose store answers; undefined for the server's own store. */
  profile?: string;
  /** The conversation's title, when the call named it so: resolved to a session id in its store. */
  title?: string;
  call: Call;
}

const WITH_PROFILE = /^@session:[^/\s]+\//;
/** `@session:"<title>"` or `@session:<profile>/"<title>"`, as the agent's desktop composer inserts it. */
const TITLE_LINK = /^@session:(?:([^/\s"]+)\/)?"((?:[^"\\]|\\.)+)"$/;

/** The title a link names, JSON escapes read; null when it is not a title link. */
export function titleLink(raw: string): { profile?: string; title: string } | null {
  const m = TITLE_LINK.exec(raw.trim());
  if (!m) return null;
  let title: string;
  try {
    title = JSON.parse(`"${m[2]}"`) as string;
  } catch {
    title = m[2]!;
  }
  title = title.trim();
  if (title === '') return null;
  return { ...(m[1] ? { profile: m[1] } : {}), title };
}

/** `around_message_id=0` (or "0"): models write it for "no anchor"; Hermes message ids start at 1. */
function noAnchor(id: number | string): boolean {
  return id === 0 || (typeof id === 'string' && id.trim() === '0');
}

/** What `session_id` names: a plain id, or a pasted link or scroll call. */
interface Target {
  sessionId?: string;
  /** `@session:"<title>"`: the conversation is named by its title, resolved in the store. */
  title?: string;
  profile?: string;
  /** The agent a pasted agent anchor names. */
  agent?: string;
  aroundId?: number | string;
  window?: number;
}

function target(args: SessionSearchArgs): Target {
  const raw = args.session_id?.trim();
  const out: Target = {};
  if (args.profile !== undefined) out.profile = args.profile.trim();
  if (args.around_message_id !== undefined) out.aroundId = args.around_message_id;
  if (args.window !== undefined) out.window = args.window;
  if (!raw) return out;
  const titled = titleLink(raw);
  if (titled) {
    if (titled.profile !== undefined) {
      if (out.profile !== undefined && out.profile !== titled.profile)
        throw new ToolError(
          `session_id is a link to profile "${titled.profile}" but profile is "${out.profile}"; pass one of them`,
        );
      out.profile = titled.profile;
    }
    out.title = titled.title;
    return out;
  }
  const anchor = parseAnchor(raw);
  if (anchor?.kind === 'link') {
    out.sessionId = anchor.sessionId;
    // `@session:<id>` names no profile: the call's own profile (or the server's) stands.
    if (WITH_PROFILE.test(raw)) {
      if (out.profile !== undefined && out.profile !== anchor.profile)
        throw new ToolError(
          `session_id is a link to profile "${anchor.profile}" but profile is "${out.profile}"; pass one of them`,
        );
      out.profile = anchor.profile;
    }
  } else if (anchor?.kind === 'scroll') {
    out.sessionId = anchor.sessionId;
    if (out.aroundId !== undefined && String(out.aroundId) !== String(anchor.messageId))
      throw new ToolError(
        `session_id is a scroll call around message ${anchor.messageId} but around_message_id is ${out.aroundId}; pass one of them`,
      );
    out.aroundId = anchor.messageId;
    if (out.window === undefined && anchor.window !== undefined) out.window = anchor.window;
  } else if (anchor?.kind === 'agentMessage' || anchor?.kind === 'agentSession') {
    // Another agent's copied call or command pasted whole: it names the agent too.
    out.sessionId = anchor.sessionId;
    out.agent = anchor.agent;
    if (anchor.kind === 'agentMessage') {
      if (out.aroundId !== undefined && String(out.aroundId) !== anchor.anchor)
        throw new ToolError(
          `session_id is an anchor at message ${anchor.anchor} but around_message_id is ${out.aroundId}; pass one of them`,
        );
      out.aroundId = anchor.anchor;
    }
  } else {
    out.sessionId = anchor?.kind === 'sessionId' ? anchor.sessionId : raw;
  }
  return out;
}

/** Hermes, or one agent lookback indexes; anything else is refused by name. */
function agentOf(value: string | undefined): Plan['agent'] {
  const name = value?.trim().toLowerCase() || NATIVE_AGENT;
  if (name === NATIVE_AGENT || isAgent(name)) return name;
  throw new ToolError(
    `agent "${value}" not indexed: lookback answers for ${[NATIVE_AGENT, ...AGENTS].join(', ')} (one per call)`,
  );
}

/** A Hermes message id: the schema lets other agents' string anchors through. */
function hermesMessageId(id: number | string): number {
  if (typeof id === 'number') return id;
  if (/^\d+$/.test(id.trim())) return Number(id.trim());
  throw new ToolError(`around_message_id of a Hermes session is a whole number, not "${id}"`);
}

/** A point in time for after/before, as the CLI's --after/--before read it. */
function when(name: 'after' | 'before', value: string, now: Date): number {
  const at = parseWhen(value, now);
  if (at === null)
    throw new ToolError(
      `${name} takes a date (2026-08-01, 2026-08-01T14:30), a span back (7d, 24h, 2w), today or yesterday, not "${value}"`,
    );
  return at;
}

/** The browse/discover filters the call asks for; undefined when none. */
function filters(args: SessionSearchArgs, now = new Date()): Filters | undefined {
  const f: Filters = {};
  if (args.after !== undefined) f.after = when('after', args.after, now);
  if (args.before !== undefined) f.before = when('before', args.before, now);
  if (f.after !== undefined && f.before !== undefined && f.after >= f.before)
    throw new ToolError('after must be earlier than before');
  const excluded = (args.exclude_session_ids ?? []).map((id) => id.trim()).filter(Boolean);
  if (excluded.length > 0) f.excludeSessionIds = excluded;
  return Object.keys(f).length > 0 ? f : undefined;
}

function clampLimit(limit: number | undefined): number {
  return Math.max(1, Math.min(limit ?? LIMIT_DEFAULT, LIMIT_MAX));
}

function roles(filter: string | undefined): string[] | undefined {
  const list = (filter ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r.length > 0);
  return list.length > 0 ? list : undefined;
}

/**
 * Which shape a call is, in the agent tool's order: an anchor (session_id +
 * around_message_id) scrolls, a session_id alone reads, no query browses,
 * a query discovers.
 */
export function planCall(args: SessionSearchArgs): Plan {
  const t = target(args);
  const agent = agentOf(t.agent ?? args.agent);
  if (t.agent !== undefined && args.agent !== undefined && agentOf(args.agent) !== agent)
    throw new ToolError(
      `session_id is an anchor in ${t.agent}'s history but agent is "${args.agent}"; pass one of them`,
    );
  // Hermes ids start at 1, so 0 is "no anchor"; other agents' ordinals may start at 0.
  if (agent === NATIVE_AGENT && t.aroundId !== undefined && noAnchor(t.aroundId)) delete t.aroundId;
  const where = t.profile ? { profile: t.profile } : {};
  const plan = (call: Call): Plan => ({
    agent,
    ...where,
    ...(t.title ? { title: t.title } : {}),
    call,
  });
  // A title stands for a session id, resolved once the store is open.
  if (t.title !== undefined) t.sessionId = '';
  if (t.sessionId !== undefined && t.aroundId !== undefined)
    return plan({
      shape: 'scroll',
      sessionId: t.sessionId,
      aroundId: t.aroundId,
      ...(t.window !== undefined ? { window: t.window } : {}),
    });
  if (t.aroundId !== undefined)
    throw new ToolError('around_message_id needs the session_id it belongs to');
  if (t.sessionId !== undefined) return plan({ shape: 'read', sessionId: t.sessionId });
  const limit = clampLimit(args.limit);
  const f = filters(args);
  const query = args.query?.trim() ?? '';
  if (query === '') {
    if (args.detail !== undefined) throw new ToolError('detail is for a query (discover shape)');
    return plan({ shape: 'browse', limit, ...(f ? { filters: f } : {}) });
  }
  const r = roles(args.role_filter);
  return plan({
    shape: 'discover',
    query,
    limit,
    ...(args.sort ? { sort: args.sort } : {}),
    ...(r ? { roles: r } : {}),
    ...(args.detail ? { detail: args.detail } : {}),
    ...(f ? { filters: f } : {}),
  });
}

/** Answers a planned call from one Hermes store, with the CLI's functions and shapes. */
export function answerFromStore(store: Store, call: Call): Record<string, Json> {
  switch (call.shape) {
    case 'scroll':
      return scrollJson(store, call.sessionId, hermesMessageId(call.aroundId), call.window);
    case 'read':
      return readJson(store, call.sessionId);
    case 'browse':
      return recentJson(store, {
        limit: call.limit,
        ...(call.filters ? { filters: call.filters } : {}),
      });
    case 'discover':
      return searchJson(store, call.query, {
        limit: call.limit,
        ...(call.sort ? { sort: call.sort } : {}),
        ...(call.roles ? { roles: call.roles } : {}),
        ...(call.detail ? { detail: call.detail } : {}),
        ...(call.filters ? { filters: call.filters } : {}),
      });
  }
}

/** Where answers come from: Hermes stores per profile, and lookback's index of the other agents. */
export interface Sources {
  stores: StoreRegistry;
  agents: AgentIndex;
}

/** One `session_search` call, validated arguments in, the answer's JSON out (or a thrown error). */
export function sessionSearch(args: SessionSearchArgs, from: Sources): Record<string, Json> {
  const plan = planCall(args);
  if (plan.agent !== NATIVE_AGENT) {
    if (plan.profile !== undefined)
      throw new ToolError(`profile is for Hermes stores; agent "${plan.agent}" has none`);
    for (const name of ['detail', 'after', 'before', 'exclude_session_ids'] as const)
      if (args[name] !== undefined)
        throw new ToolError(
          `${name} is for Hermes stores; lookback's index of "${plan.agent}" does not apply it yet`,
        );
    if (plan.title !== undefined)
      throw new ToolError(
        `a title link is resolved in Hermes stores; for agent "${plan.agent}" pass the session id (find it with query=)`,
      );
    const agent = plan.agent;
    return withScrollRecovery(plan.call, (call) => from.agents.answer(agent, call));
  }
  return from.stores.use(plan.profile, (store) => {
    const call =
      plan.title !== undefined ? byTitle(plan.call, resolveTitle(store, plan.title)) : plan.call;
    return withScrollRecovery(call, (c) => answerFromStore(store, c));
  });
}

/** The session a title names: the most recently started conversation with exactly that title. */
export function resolveTitle(store: Store, title: string): { sessionId: string; others: string[] } {
  const rows = store.read(() => {
    try {
      return store
        .stmt(
          `SELECT id FROM sessions WHERE title IS NOT NULL AND lower(trim(title)) = lower(?) ORDER BY started_at DESC, id DESC LIMIT 6`,
        )
        .all(title) as { id: string }[];
    } catch {
      throw new ToolError('this store keeps no session titles; pass the session id');
    }
  });
  if (rows.length === 0)
    throw new ToolError(
      `no conversation titled "${title}"; search for it with query="${title.replace(/"/g, "'")}"`,
    );
  return { sessionId: rows[0]!.id, others: rows.slice(1).map((r) => r.id) };
}

function byTitle(
  call: Call,
  found: { sessionId: string; others: string[] },
): Call & { titleMatches?: string[] } {
  if (call.shape !== 'scroll' && call.shape !== 'read') return call;
  return {
    ...call,
    sessionId: found.sessionId,
    ...(found.others.length > 0 ? { titleMatches: found.others } : {}),
  };
}

/**
 * A scroll whose anchor is not in the session (a stale id, another session's id,
 * a made-up one) is answered with a bounded read of the session and a
 * `scroll_recovery` block saying what happened and what to do, instead of an
 * error the model can only give up on. A session that does not exist is still
 * an error.
 */
function withScrollRecovery(
  call: Call & { titleMatches?: string[] },
  answer: (call: Call) => Record<string, Json>,
): Record<string, Json> {
  const mark = (out: Record<string, Json>) =>
    call.titleMatches
      ? {
          ...out,
          title_matches: call.titleMatches,
          message_title: `${call.titleMatches.length + 1} conversations have this title; this is the newest. Pass one of title_matches as session_id for another.`,
        }
      : out;
  if (call.shape !== 'scroll') return mark(answer(call));
  try {
    return mark(answer(call));
  } catch (err) {
    const reason = anchorProblem(err);
    if (reason === null) throw err;
    const read = answer({ shape: 'read', sessionId: call.sessionId });
    return mark({
      ...read,
      scroll_recovery: {
        requested_around_message_id: call.aroundId,
        reason,
        hint: 'The anchor is not a message of this session; this is a bounded read of the session instead. Scroll again with around_message_id set to one of the ids below.',
      },
    });
  }
}

/** Why a scroll's anchor failed, when that is the failure; null for any other error. */
function anchorProblem(err: unknown): string | null {
  if (err instanceof StoreError && err.code === 'no-message') return err.message;
  if (err instanceof ToolError && /around_message_id/.test(err.message)) return err.message;
  return null;
}
