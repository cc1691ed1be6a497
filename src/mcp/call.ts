/**
 * From `session_search` arguments to lookback's recall functions: the one
 * place that decides which shape a call is (scroll, read, browse, discover),
 * which store it reads and which function answers it. The answers are the
 * objects `lookback recent|search|scroll|read --json` prints, untouched.
 */
import { AGENTS, isAgent, type Agent } from '../agents/model.js';
import { answer, type Skipped, type SourceSet } from '../recall/answer.js';
import type { Call } from '../recall/call.js';
import { HermesSource } from '../recall/hermes.js';
import type { ConversationSource } from '../recall/source.js';
import { parseTarget, TargetError, type Target } from '../recall/target.js';
import { StoreError } from '../store/errors.js';
import type { Json } from '../store/recall.js';
import type { Store } from '../store/store.js';
import { parseWhen } from '../store/time.js';
import type { Filters } from '../store/types.js';
import type { AgentIndex } from './agents.js';
import { splitHostLink, tagHost } from '../hosts/tag.js';
import type { StoreRegistry } from './stores.js';
import type { SessionSearchArgs } from './tool.js';

/** A call that cannot be answered as made; the message says what to change. */
export class ToolError extends Error {}

/** The agent tool's limits: 3 conversations unless asked, never more than 10. */
export const LIMIT_DEFAULT = 3;
export const LIMIT_MAX = 10;

/** The agent whose store lookback reads directly; any other is looked up in lookback's index. */
export const NATIVE_AGENT = 'hermes';

export type { Call };

export interface Plan {
  /** Whose history: `hermes`, another agent's name, `all`; undefined: every source found. */
  agent?: typeof NATIVE_AGENT | Agent | 'all';
  /** The profile whose store answers; undefined for the server's own store. */
  profile?: string;
  call: Call;
}

/** Hermes, one agent lookback indexes, or all; anything else is refused by name. */
function agentOf(value: string | undefined): Plan['agent'] {
  const name = value?.trim().toLowerCase();
  if (!name) return undefined;
  if (name === NATIVE_AGENT || name === 'all' || isAgent(name)) return name;
  throw new ToolError(
    `agent "${value}" not indexed: lookback answers for ${[NATIVE_AGENT, ...AGENTS].join(', ')} or all`,
  );
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
  const agent = agentOf(args.agent);
  let t: Target;
  try {
    t = parseTarget(args.session_id ?? '', {
      profile: args.profile,
      agent: agent === 'all' ? undefined : agent,
      around: args.around_message_id,
      window: args.window,
    });
  } catch (err) {
    if (err instanceof TargetError) throw new ToolError(err.message);
    throw err;
  }
  const named = t.agent ?? agent;
  if (named !== undefined && named !== NATIVE_AGENT && named !== 'all' && t.profile !== undefined)
    throw new ToolError(`profile is for Hermes stores; agent "${named}" has none`);
  const plan = (call: Call): Plan => ({
    ...(named !== undefined ? { agent: named as Plan['agent'] } : {}),
    ...(t.profile !== undefined ? { profile: t.profile } : {}),
    call,
  });
  const hasSession = t.sessionId !== '';
  if (hasSession && t.around !== undefined)
    return plan({
      shape: 'scroll',
      target: t,
      ...(t.window !== undefined ? { window: t.window } : {}),
    });
  if (t.around !== undefined)
    throw new ToolError('around_message_id needs the session_id it belongs to');
  if (hasSession) return plan({ shape: 'read', target: t });
  const limit = clampLimit(args.limit);
  const f = filters(args);
  const query = args.query?.trim() ?? '';
  if (query === '') {
    if (args.detail !== undefined) throw new ToolError('detail is for a query (discover shape)');
    // The agent's browse orders by last activity (pinned conversations are not put first).
    return plan({ shape: 'browse', limit, order: 'activity', ...(f ? { filters: f } : {}) });
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

/** Where answers come from: Hermes stores per profile, and lookback's index of the other agents. */
export interface Sources {
  stores: StoreRegistry;
  agents: AgentIndex;
  /** Another machine's mirror (src/hosts); throws a ToolError for a host never synced. */
  host?: (name: string) => Sources;
  closeHosts?: () => void;
  /** The server was started on one store (--db, --profile, --demo): it alone is the default, as on the command line. */
  narrowed?: boolean;
}

/** One `session_search` call, validated arguments in, the answer's JSON out (or a thrown error). */
export function sessionSearch(args: SessionSearchArgs, from: Sources): Record<string, Json> {
  // Another machine: the same call over its mirror, the answer tagged with it.
  const link = args.session_id ? splitHostLink(args.session_id) : null;
  if (link && args.host !== undefined && args.host.trim() !== link.host)
    throw new ToolError(
      `session_id is a link to host "${link.host}" but host is "${args.host}"; pass one of them`,
    );
  const host = link?.host ?? args.host?.trim();
  if (host !== undefined && host !== '') {
    if (!from.host) throw new ToolError('host: this server reads no other machine');
    const { host: _h, ...rest } = args;
    const local = link ? { ...rest, session_id: link.link } : rest;
    return tagHost(sessionSearch(local, from.host(host)), host, args.agent);
  }
  const plan = planCall(args);
  const hermes = plan.agent === undefined || plan.agent === NATIVE_AGENT || plan.agent === 'all';
  const agents: Agent[] =
    plan.agent === undefined
      ? plan.profile !== undefined || from.narrowed
        ? []
        : from.agents.found()
      : plan.agent === 'all'
        ? [...AGENTS]
        : plan.agent === NATIVE_AGENT
          ? []
          : [plan.agent];
  const sources: ConversationSource[] = [];
  const skipped: Skipped[] = [];
  let store: Store | null = null;
  if (hermes) {
    try {
      store = from.stores.get(plan.profile);
      sources.push(new HermesSource(store));
    } catch (err) {
      // Beside other agents' histories, a missing Hermes store is one line of the answer.
      if (!(err instanceof StoreError) || agents.length === 0 || plan.profile !== undefined)
        throw err;
      skipped.push({ source: 'Hermes', profile: 'default', error: err.message });
    }
  }
  if (agents.length > 0) sources.push(from.agents.source(agents));
  const set: SourceSet = {
    sources,
    skipped,
    openProfile: (name) => new HermesSource(from.stores.get(name)),
  };
  if (!store) return answer(plan.call, set);
  return from.stores.use(plan.profile, () => answer(plan.call, set));
}
