/**
 * The same default set of sources at every door: every source found on this
 * machine (the Hermes store the store choice picks, and lookback's index of
 * every other agent whose history folder exists); `--db`, `--profile` and
 * `--agent` narrow it, `--all-profiles` reads every Hermes profile. A Hermes
 * store that is missing while other agents' histories exist is one note, not
 * the end of the answer; with no source at all the store choice's own error
 * stands ("no store at …").
 */
import { homedir } from 'node:os';
import { sourceRoots, type Overrides } from '../agents/discover.js';
import { AGENTS, isAgent, type Agent } from '../agents/model.js';
import { chooseStoreOnDisk } from './storeChoice.js';
import { UsageError } from './usage.js';
import { StoreError } from '../store/errors.js';
import { HostUsageError } from '../hosts/paths.js';
import { hostSources } from './hostSources.js';
import { openableProfile, readableProfiles } from '../postgres/profiles.js';
import { allProfiles, findProfile } from '../store/profiles.js';
import { AgentsSource, type AgentsSourceOptions } from './agents.js';
import type { SourceSet, Skipped } from './answer.js';
import type { Call } from './call.js';
import { HermesSource } from './hermes.js';
import { sourceName } from '../ids/ref.js';
import type { ConversationSource } from './source.js';

export const AGENT_NAMES = ['hermes', ...AGENTS] as const;

export interface Selection {
  db?: string | undefined;
  /** With `db`: the profile name its links use (the demo store's is `demo`). */
  dbProfile?: string | undefined;
  profile?: string | undefined;
  /** hermes, an agent's name, or all; undefined: every source found. */
  agent?: string | undefined;
  allProfiles?: boolean | undefined;
  sourceDirs?: Overrides | undefined;
  /** Another machine synced with `lookback sync --host` (an ssh destination), or `all`: its sources instead of this machine's. */
  host?: string | undefined;
}

export interface Context {
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Options for the agents' index (how fresh a pass may be, where warnings go). */
  agents?: AgentsSourceOptions;
  /** Let a store's connection go after this many idle ms (0: never, for one-shot commands). */
  idleCloseMs?: number;
}

/** What `--agent` (or the tool's `agent`) selects. */
export type AgentScope = { hermes: boolean; agents: Agent[]; named: boolean };

export function agentScope(value: string | undefined): AgentScope {
  if (value === undefined || value.trim() === '')
    return { hermes: true, agents: [...AGENTS], named: false };
  const v = value.trim().toLowerCase();
  if (v === 'all') return { hermes: true, agents: [...AGENTS], named: true };
  if (v === 'hermes') return { hermes: true, agents: [], named: true };
  if (isAgent(v)) return { hermes: false, agents: [v], named: true };
  throw new UsageError(`--agent takes ${AGENT_NAMES.join(', ')} or all, not "${value}"`);
}

/** The agents whose history folders exist here (an --source-dir counts as found). */
export function agentsFound(env: NodeJS.ProcessEnv, overrides: Overrides = {}): Agent[] {
  const found = new Set<Agent>();
  for (const r of sourceRoots(env, overrides)) if (r.exists) found.add(r.agent);
  return AGENTS.filter((a) => found.has(a));
}

/** Opens another profile's store for a link that names it (scroll, read). */
export function profileOpener(ctx: Context): (name: string) => ConversationSource | null {
  const where = { env: ctx.env ?? process.env, home: ctx.home ?? homedir() };
  return (name) => {
    const found = name === 'default' ? allProfiles(where)[0] : findProfile(name, where);
    if (!found) return null;
    // A profile on PostgreSQL is read from its mirror, synced first.
    const p = openableProfile(found, where);
    if (p.postgres && p.skip) throw new StoreError(p.skip, 'not-found');
    return new HermesSource({ path: p.path, profile: p.name, idleCloseMs: 0 });
  };
}

/** `sel` for `call`: a scroll or read of a link that names its machine reads that machine. */
export function selectionFor(sel: Selection, call: Call): Selection {
  if ((call.shape === 'scroll' || call.shape === 'read') && call.target.host && !sel.host)
    return { ...sel, host: call.target.host };
  return sel;
}

/** The sources of a host a link names, for a call whose set does not hold them. */
export function hostOpener(ctx: Context): NonNullable<SourceSet['openHost']> {
  return (host) => {
    try {
      return hostSources(
        host,
        { scope: { hermes: true, agents: 'found' } },
        { env: ctx.env ?? process.env, ...(ctx.agents ? { agents: ctx.agents } : {}) },
      );
    } catch (err) {
      if (err instanceof HostUsageError) throw new StoreError(err.message, 'not-found');
      throw err;
    }
  };
}

/** `--host NAME|all`: the sources of synced machines (src/recall/hostSources.ts), narrowed as on this one. */
function chooseHostSources(
  sel: Selection & { host: string },
  ctx: Context,
): SourceSet & { notes: string[]; close(): void } {
  if (sel.db) throw new UsageError('--host reads a synced machine; leave out --db');
  const scope = agentScope(sel.agent);
  if (sel.profile !== undefined && scope.named && !scope.hermes)
    throw new UsageError(`--profile is for Hermes stores; --agent ${sel.agent} has none`);
  let picked: ReturnType<typeof hostSources>;
  try {
    picked = hostSources(
      sel.host,
      {
        profile: sel.profile,
        scope: { hermes: scope.hermes, agents: scope.named ? scope.agents : 'found' },
      },
      {
        env: ctx.env ?? process.env,
        ...(ctx.idleCloseMs !== undefined ? { idleCloseMs: ctx.idleCloseMs } : {}),
        ...(ctx.agents ? { agents: ctx.agents } : {}),
      },
    );
  } catch (err) {
    if (err instanceof HostUsageError) throw new UsageError(err.message);
    throw err;
  }
  const { sources, skipped, hostErrors } = picked;
  return {
    sources,
    skipped,
    hostErrors,
    notes: [],
    openHost: hostOpener(ctx),
    tagAgent: scope.named,
    close() {
      for (const s of sources) s.close();
    },
  };
}

/** The sources a door reads for `sel`, with notes to say once (stderr, the MCP log). */
export function chooseSources(
  sel: Selection,
  ctx: Context = {},
): SourceSet & { notes: string[]; close(): void } {
  if (sel.host !== undefined && sel.host.trim() !== '')
    return chooseHostSources({ ...sel, host: sel.host }, ctx);
  const env = ctx.env ?? process.env;
  // An environment given without a home names its home in HOME (as a child process would see it).
  const home = ctx.home ?? (ctx.env?.HOME || homedir());
  const agentEnv = ctx.home && !ctx.env ? { ...env, HOME: ctx.home } : env;
  const scope = agentScope(sel.agent);
  const idle = ctx.idleCloseMs !== undefined ? { idleCloseMs: ctx.idleCloseMs } : {};
  const sources: ConversationSource[] = [];
  const skipped: Skipped[] = [];
  const notes: string[] = [];
  const narrowed = Boolean(sel.db || sel.profile || sel.allProfiles);
  if (sel.allProfiles && scope.named)
    throw new UsageError('--all-profiles reads Hermes profiles; leave out --agent');
  let agents: Agent[] = [];
  if (scope.named) agents = scope.agents;
  else if (!narrowed) agents = agentsFound(agentEnv, sel.sourceDirs);
  if (scope.hermes) {
    if (sel.allProfiles) {
      for (const p of readableProfiles({ env, home })) {
        if (p.skip)
          skipped.push({
            source: sourceName({ kind: 'hermes', profile: p.name }),
            profile: p.name,
            error: p.skip,
          });
        else sources.push(new HermesSource({ path: p.path, profile: p.name, ...idle }));
      }
    } else {
      try {
        const choice = sel.db
          ? chooseStoreOnDisk({ db: sel.db }, { env, home })
          : chooseStoreOnDisk({ profile: sel.profile }, { env, home });
        if (choice.notice) notes.push(choice.notice);
        sources.push(
          new HermesSource({
            ...idle,
            path: choice.path,
            profile: sel.db && sel.dbProfile ? sel.dbProfile : choice.profile,
          }),
        );
      } catch (err) {
        // With other agents' histories beside it, a missing Hermes store is one line of the answer.
        if (!(err instanceof StoreError) || narrowed || agents.length === 0) throw err;
        skipped.push({ source: 'Hermes', profile: sel.profile ?? 'default', error: err.message });
      }
    }
  }
  if (agents.length > 0)
    sources.push(
      new AgentsSource(agents, {
        env: agentEnv,
        ...(sel.sourceDirs ? { overrides: sel.sourceDirs } : {}),
        ...ctx.agents,
      }),
    );
  return {
    sources,
    skipped,
    notes,
    openProfile: profileOpener({ env, home }),
    openHost: hostOpener(ctx),
    tagAgent: scope.named,
    close() {
      for (const s of sources) s.close();
    },
  };
}
