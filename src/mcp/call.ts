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
import { splitHostLink } from '../ids/ref.js';
import { chooseSources } from '../recall/sources.js';
import { UsageError } from '../recall/usage.js';
import type { StoreRegistry } from './stores.js';
import type { SessionSearchArgs } from './tool.js';
import { MCP_LIMIT_DEFAULT, MCP_LIMIT_MAX } from '../budgets.js';

/** A call that cannot be answered as made; the message says what to change. */
export class ToolError extends Error {}

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
export function agentOf(value: string | undefined): Plan['agent'] {
  const name = value?.trim().toLowerCase();
  if (!name) return undefined;
  if (name === NATIVE_AGENT || name === 'all' || isAgent(name)) return name;
  throw new ToolError(
    `agent "${value}" not indexed: lookback answers for ${[NATIVE_AGENT, ...AGENTS].join(', ')} or all`,
  );
}

/** A point in time for after/before, as the CLI's --after/--before read it. */
export function when(name: 'after' | 'before', value: string, now: Date): number {
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
  return Math.max(1, Math.min(limit ?? MCP_LIMIT_DEFAULT, MCP_LIMIT_MAX));
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
      host: args.host,
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
  /** Where the sources of other machines say what went wrong once (the server's log). */
  warn?: (line: string) => void;
  /** The server was started on one store (--db, --profile, --demo): it alone is the default, as on the command line. */
  narrowed?: boolean;
  /** The embedding model a search by meaning uses (--embedder or LOOKBACK_EMBEDDER); none: lexical only. */
  embedder?: string;
}

/**
 * One `session_search` call, validated arguments in, the answer's JSON out (or
 * a thrown error). The agent-facing anchor forms the recall core does not know
 * (a title link, around_message_id=0) are turned into plain arguments first;
 * a scroll whose anchor is not in the session is recovered after.
 */
export function sessionSearch(args: SessionSearchArgs, from: Sources): Record<string, Json> {
  // Another machine: its sources (src/recall/hostSources.ts), chosen by the core as on the command line.
  const link = args.session_id ? splitHostLink(args.session_id) : null;
  const host = link?.host ?? args.host?.trim();
  if (host !== undefined && host !== '') return onHost(args, host, from);
  const { args: plain, titleMatches } = resolveAnchorForms(args, from);
  // Rows say whose they are when the caller named an agent (hermes too), as on the command line.
  const tagAgent = (args.agent ?? '').trim() !== '';
  const out = withScrollRecovery(plain, (a) => answerPlain(a, from, tagAgent));
  return titleMatches.length > 0
    ? {
        ...out,
        title_matches: titleMatches,
        message_title: `${titleMatches.length + 1} conversations have this title; this is the newest. Pass one of title_matches as session_id for another.`,
      }
    : out;
}

/** A call answered from the mirrors of other machines (`host=NAME|all`, or a link naming its host). */
function onHost(args: SessionSearchArgs, host: string, from: Sources): Record<string, Json> {
  const plan = planCall(args);
  const tagAgent = (args.agent ?? '').trim() !== '';
  return onHostSet(
    { host: args.host?.trim() || host, profile: plan.profile, agent: args.agent },
    from,
    (set) => withScrollRecovery(args, (a) => answer(planCall(a).call, { ...set, tagAgent })),
  );
}

/** A reading tool's call on another machine's sources, chosen by the core as on the command line. */
function onHostScope(
  scope: Scope,
  host: string,
  from: Sources,
  build: (s: { agent?: Plan['agent']; profile?: string }) => Call,
): Record<string, Json> {
  const agent = agentOf(scope.agent);
  const profile = scope.profile?.trim() || undefined;
  const s = { ...(agent !== undefined ? { agent } : {}), ...(profile ? { profile } : {}) };
  const tagAgent = (scope.agent ?? '').trim() !== '';
  return onHostSet({ host, profile, agent: scope.agent }, from, (set) =>
    answer(build(s), { ...set, tagAgent }),
  );
}

/** The sources of a host (or every host) a call names, held open for `run` and closed after. */
function onHostSet<T>(
  pick: { host: string; profile: string | undefined; agent: string | undefined },
  from: Sources,
  run: (set: ReturnType<typeof chooseSources>) => T,
): T {
  let set: ReturnType<typeof chooseSources>;
  try {
    set = chooseSources(pick, {
      agents: { freshMs: 0, ...(from.warn ? { warn: from.warn } : {}) },
    });
  } catch (err) {
    // The command line's words (--host) as the tool's argument names (host).
    if (err instanceof UsageError)
      throw new ToolError(err.message.replace(/--(host|agent|profile)\b/g, '$1'));
    throw err;
  }
  try {
    return run(set);
  } finally {
    set.close();
  }
}

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

/** Hermes-only calls (no agent, or hermes): where a title link and around_message_id=0 mean something. */
function hermesOnly(args: SessionSearchArgs): boolean {
  const a = args.agent?.trim().toLowerCase();
  return a === undefined || a === '' || a === NATIVE_AGENT;
}

/**
 * The anchor forms an agent sends that the recall core does not take, as plain
 * arguments: a title link resolved to the newest session with that title (in
 * the profile it names, or the call's), and around_message_id=0 (Hermes ids
 * start at 1; models write 0 for "no anchor") left out.
 */
function resolveAnchorForms(
  args: SessionSearchArgs,
  from: Sources,
): { args: SessionSearchArgs; titleMatches: string[] } {
  let out = args;
  let titleMatches: string[] = [];
  const titled = args.session_id !== undefined ? titleLink(args.session_id) : null;
  if (titled) {
    if (!hermesOnly(args))
      throw new ToolError(
        `a title link is resolved in Hermes stores; for agent "${args.agent}" pass the session id (find it with query=)`,
      );
    const profile = titled.profile ?? args.profile?.trim();
    if (
      titled.profile !== undefined &&
      args.profile !== undefined &&
      args.profile.trim() !== titled.profile
    )
      throw new ToolError(
        `session_id is a link to profile "${titled.profile}" but profile is "${args.profile}"; pass one of them`,
      );
    const found = from.stores.use(profile || undefined, (store) =>
      resolveTitle(store, titled.title),
    );
    titleMatches = found.others;
    out = {
      ...out,
      session_id: found.sessionId,
      ...(profile ? { profile } : {}),
      agent: NATIVE_AGENT,
    };
  }
  const around = out.around_message_id;
  if (hermesOnly(out) && around !== undefined && (around === 0 || String(around).trim() === '0')) {
    const { around_message_id: _zero, ...rest } = out;
    out = rest;
  }
  return { args: out, titleMatches };
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

/**
 * A scroll whose anchor is not in the session (a stale id, another session's id,
 * a made-up one) is answered with a bounded read of the session and a
 * `scroll_recovery` block saying what happened and what to do, instead of an
 * error the model can only give up on. A session that does not exist is still
 * an error.
 */
function withScrollRecovery(
  args: SessionSearchArgs,
  run: (args: SessionSearchArgs) => Record<string, Json>,
): Record<string, Json> {
  try {
    return run(args);
  } catch (err) {
    if (!(err instanceof StoreError && err.code === 'no-message')) throw err;
    if (args.around_message_id === undefined || !args.session_id) throw err;
    const { around_message_id: requested, window: _w, ...readArgs } = args;
    // A whole scroll call pasted as session_id carries its anchor inside: read its session.
    const read = run({ ...readArgs, ...sessionOnly(args.session_id, args.profile) });
    return {
      ...read,
      scroll_recovery: {
        requested_around_message_id: requested,
        reason: err.message,
        hint: 'The anchor is not a message of this session; this is a bounded read of the session instead. Scroll again with around_message_id set to one of the ids below.',
      },
    };
  }
}

/** The session (and profile) a session_id argument names, without any anchor a pasted call carries. */
function sessionOnly(
  sessionId: string,
  profile?: string,
): { session_id: string; profile?: string } {
  try {
    const t = parseTarget(sessionId, { ...(profile !== undefined ? { profile } : {}) });
    const p = t.profile ?? profile;
    return { session_id: t.sessionId || sessionId, ...(p !== undefined ? { profile: p } : {}) };
  } catch {
    return { session_id: sessionId, ...(profile !== undefined ? { profile } : {}) };
  }
}

/** Plain arguments through the recall core. */
function answerPlain(
  args: SessionSearchArgs,
  from: Sources,
  tagAgent: boolean,
): Record<string, Json> {
  const plan = planCall(args);
  return ask(plan.call, from, plan, tagAgent);
}

/**
 * Asks the recall core over the sources a call selects: without agent and
 * profile every source found (the server's Hermes store and every other
 * agent's history here); agent= and profile= narrow, as on the command line.
 */
export function ask(
  call: Call,
  from: Sources,
  scope: { agent?: Plan['agent']; profile?: string },
  tagAgent: boolean,
): Record<string, Json> {
  const hermes = scope.agent === undefined || scope.agent === NATIVE_AGENT || scope.agent === 'all';
  const agents: Agent[] =
    scope.agent === undefined
      ? scope.profile !== undefined || from.narrowed
        ? []
        : from.agents.found()
      : scope.agent === 'all'
        ? [...AGENTS]
        : scope.agent === NATIVE_AGENT
          ? []
          : [scope.agent];
  const sources: ConversationSource[] = [];
  const skipped: Skipped[] = [];
  let store: Store | null = null;
  if (hermes) {
    try {
      store = from.stores.get(scope.profile);
      sources.push(new HermesSource(store));
    } catch (err) {
      // Beside other agents' histories, a missing Hermes store is one line of the answer.
      if (!(err instanceof StoreError) || agents.length === 0 || scope.profile !== undefined)
        throw err;
      skipped.push({ source: 'Hermes', profile: 'default', error: err.message });
    }
  }
  if (agents.length > 0) sources.push(from.agents.source(agents));
  const set: SourceSet = {
    sources,
    skipped,
    openProfile: (name) => new HermesSource(from.stores.get(name)),
    tagAgent,
  };
  if (!store) return answer(call, set);
  return from.stores.use(scope.profile, () => answer(call, set));
}

/** The agent, profile and host arguments every tool takes. */
export interface Scope {
  agent?: string | undefined;
  profile?: string | undefined;
  host?: string | undefined;
}

/**
 * A tool's call on the sources its scope names: another machine's mirror when
 * it names a host (the answer tagged with it, as the command line's --host
 * does), else this machine's; `build` turns the scope into the call.
 */
export function onScope(
  scope: Scope,
  from: Sources,
  build: (s: { agent?: Plan['agent']; profile?: string }) => Call,
): Record<string, Json> {
  const host = scope.host?.trim();
  if (host !== undefined && host !== '') return onHostScope(scope, host, from, build);
  const agent = agentOf(scope.agent);
  const profile = scope.profile?.trim() || undefined;
  if (agent !== undefined && agent !== NATIVE_AGENT && agent !== 'all' && profile !== undefined)
    throw new ToolError(`profile is for Hermes stores; agent "${agent}" has none`);
  const s = { ...(agent !== undefined ? { agent } : {}), ...(profile ? { profile } : {}) };
  return ask(build(s), from, s, (scope.agent ?? '').trim() !== '');
}
