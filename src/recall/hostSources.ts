/**
 * Other machines as sources of the recall core: a synced host's Hermes
 * profiles (its mirrored `state.db` files) and its agents (the host's own
 * derived index over the mirrored histories), each carrying `host`, so every
 * row and answer says which machine it came from. Nothing here contacts the
 * host: a query reads the mirror `lookback sync --host` keeps. A host never
 * synced is one `skipped` line; a host whose last sync failed still answers
 * from what was read, with one `host_errors` line saying when that was.
 *
 *   hostSources('all', { scope: { hermes: true, agents: 'found' } })
 *     → { sources: ConversationSource[], skipped, hostErrors }
 */
import { join } from 'node:path';
import { sourceRoots } from '../agents/discover.js';
import { AGENTS, type Agent } from '../agents/model.js';
import { AgentsSource, type AgentsSourceOptions } from './agents.js';
import { HermesSource } from './hermes.js';
import type { ConversationSource } from './source.js';
import { HostUsageError, checkHostName, hostEnv, mirrorHome } from '../hosts/paths.js';
import { shellLine } from '../text/shell.js';
import { knownHosts, readState } from '../hosts/sync.js';

/** A host whose mirror answers, but whose last sync failed: said once beside the answer. */
export interface HostError {
  host: string;
  error: string;
}

/** A host that gives no source (never synced): one line of the answer. */
export interface HostSkipped {
  source: string;
  host: string;
  error: string;
}

export interface HostPick {
  /** Only this Hermes profile of each host. */
  profile?: string | undefined;
  /** Hermes (every mirrored profile) and which agents: named ones, or those whose histories were mirrored. */
  scope: { hermes: boolean; agents: readonly Agent[] | 'found' };
}

export interface HostContext {
  env?: NodeJS.ProcessEnv;
  /** Let a mirrored store's connection go after this many idle ms (0: never). */
  idleCloseMs?: number;
  agents?: AgentsSourceOptions;
}

export interface HostSet {
  sources: ConversationSource[];
  skipped: HostSkipped[];
  hostErrors: HostError[];
}

/** The hosts `value` names: one ssh destination, or `all` (every host synced at least once). */
export function hostNames(value: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const v = value.trim();
  if (v === 'all') {
    const names = knownHosts(env).map((s) => s.host);
    if (names.length === 0)
      throw new HostUsageError(
        'no host synced yet: lookback sync --host NAME (an ssh destination)',
      );
    return names;
  }
  return [checkHostName(v)];
}

/** The profile a mirrored store path is (`.hermes/state.db` is default). */
export function profileOfStore(rel: string): string {
  return /^\.hermes\/profiles\/([^/]+)\/state\.db$/.exec(rel)?.[1] ?? 'default';
}

/** The agents whose histories were mirrored from `host`. */
function agentsMirrored(host: string, env: NodeJS.ProcessEnv): Agent[] {
  const found = new Set<Agent>();
  for (const r of sourceRoots(hostEnv(host, env))) if (r.exists) found.add(r.agent);
  return AGENTS.filter((a) => found.has(a));
}

/** The sources of the hosts `value` names, as `pick` narrows them. */
export function hostSources(value: string, pick: HostPick, ctx: HostContext = {}): HostSet {
  const env = ctx.env ?? process.env;
  const out: HostSet = { sources: [], skipped: [], hostErrors: [] };
  for (const host of hostNames(value, env)) {
    const state = readState(host, env);
    if (!state) {
      out.skipped.push({
        source: `host ${host}`,
        host,
        error: `never synced; run lookback sync --host ${host}`,
      });
      continue;
    }
    if (state.last_error)
      out.hostErrors.push({
        host,
        error: `last sync failed (${state.last_error}); showing what was read ${state.last_ok_at ?? 'never'}`,
      });
    const home = mirrorHome(host, env);
    let profiles = 0;
    if (pick.scope.hermes)
      for (const rel of Object.keys(state.hermes).sort()) {
        const profile = profileOfStore(rel);
        if (pick.profile !== undefined && pick.profile !== profile) continue;
        profiles++;
        out.sources.push(
          new HermesSource(
            {
              path: join(home, rel),
              profile,
              ...(ctx.idleCloseMs !== undefined ? { idleCloseMs: ctx.idleCloseMs } : {}),
            },
            { host },
          ),
        );
      }
    if (pick.profile !== undefined && pick.scope.hermes && profiles === 0)
      out.skipped.push({
        source: `host ${host}`,
        host,
        error: `holds no Hermes profile named ${pick.profile}`,
      });
    const agents =
      pick.profile !== undefined && pick.scope.agents === 'found'
        ? []
        : pick.scope.agents === 'found'
          ? agentsMirrored(host, env)
          : [...pick.scope.agents];
    if (agents.length > 0)
      out.sources.push(new AgentsSource(agents, { ...ctx.agents, env: hostEnv(host, env), host }));
  }
  return out;
}

/** The command that scrolls to a hit of `host` from this machine. */
export function hostScrollCommand(
  host: string,
  sessionId: string,
  messageId: string,
  owner: { agent: string; profile?: string },
): string {
  const who =
    owner.agent !== 'hermes'
      ? ['--agent', owner.agent]
      : owner.profile && owner.profile !== 'default'
        ? ['--profile', owner.profile]
        : [];
  return shellLine(['lookback', 'scroll', '--host', host, ...who, sessionId, messageId]);
}
