/**
 * Which store to open, decided once for the command line, the app and the
 * library: `--demo`, else `--db PATH`, else `--profile NAME`, else
 * `$HERMES_HOME` (the agent sets it for the profile it runs in), else the
 * sticky profile in `<root>/active_profile`, else the default profile.
 */
import { hasFiles, sourceRoots } from '../agents/discover.js';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StoreError } from '../store/errors.js';
import { locateStore, profileOfPath, profilesRoot } from '../store/locate.js';
import {
  PROFILE_NAME,
  activeProfile,
  allProfiles,
  findProfile,
  postgresOf,
  type Profile,
} from '../store/profiles.js';
import type { PgTarget } from '../store/postgresConfig.js';
import { syncPostgresProfile } from '../postgres/profiles.js';
import { homedir } from 'node:os';
import { UsageError } from './usage.js';

export interface StoreChoice {
  path: string;
  /** The name `@session:<profile>/<id>` links use (`default`, a profile name, or `demo`). */
  profile: string;
  demo: boolean;
  /** Said once (app status line, CLI stderr): why this store and not another. */
  notice?: string;
  /** The profile keeps its sessions in PostgreSQL: `path` is lookback's mirror, synced just now. */
  postgres?: PgTarget;
  /** No Hermes store here, but other agents' histories: `path` is an empty store, the list is theirs. */
  noHermes?: boolean;
}

export interface ChoiceFlags {
  db?: string | undefined;
  profile?: string | undefined;
  demo?: boolean | undefined;
}

export interface ChoiceOptions {
  /** With no flag and no store on disk, open the demo store (the app) rather than fail (CLI, library). */
  demoWhenMissing?: boolean;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

const DEMO_HINT = '--demo opens a generated demo store';

async function demoChoice(notice: string): Promise<StoreChoice> {
  // The generator and its corpus load only when a demo is asked for.
  const { ensureDemoStore } = await import('./demoStore.js');
  return { path: ensureDemoStore().path, profile: 'demo', demo: true, notice };
}

function names(profiles: Profile[]): string {
  return profiles.map((p) => p.name).join(', ');
}

/**
 * A profile whose sessions live in PostgreSQL: its state.db is absent or stale
 * and never read. Its rows are synced into lookback's mirror, which is opened
 * instead, exactly as a state.db; null for a profile on SQLite.
 */
function postgresChoice(
  profile: string,
  home: string,
  ctx: { env: NodeJS.ProcessEnv; home: string },
  notice?: string,
): StoreChoice | null {
  const target = postgresOf({ name: profile, home }, ctx);
  if (!target) return null;
  const path = syncPostgresProfile(target, ctx);
  return { path, profile, demo: false, postgres: target, ...(notice ? { notice } : {}) };
}

export async function chooseStore(
  flags: ChoiceFlags,
  opts: ChoiceOptions = {},
): Promise<StoreChoice> {
  if (flags.db && flags.profile) throw new UsageError('use either --db or --profile, not both');
  if (flags.demo) return demoChoice('demo store: generated sample conversations');
  const choice = chooseStoreOnDisk(flags, opts);
  if (!choice.demo) return choice;
  // The demo only when no source exists at all: other agents' histories are the person's own.
  const theirs = agentsWithHistory(opts.env ?? process.env);
  if (theirs.length > 0) {
    const { ensureEmptyStore } = await import('./demoStore.js');
    const missing = choice.notice?.match(/^no store at (\S+):/)?.[1] ?? 'the default path';
    return {
      path: ensureEmptyStore().path,
      profile: 'default',
      demo: false,
      noHermes: true,
      notice: `no Hermes store at ${missing}: showing ${theirs.join(', ')} (--demo opens a demo store)`,
    };
  }
  return demoChoice(choice.notice ?? '');
}

/**
 * The agents with at least one history file here (a folder alone is not a history).
 * Each listing stops at its first file: the pass that follows lists them all.
 */
function agentsWithHistory(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const r of sourceRoots(env))
    if (r.exists && !out.has(r.agent) && hasFiles(r)) out.add(r.agent);
  return [...out];
}

/**
 * The same choice without the demo store (the library's): a store on disk, or
 * `demo: true` with a notice when the app should show the demo instead.
 */
export function chooseStoreOnDisk(flags: ChoiceFlags, opts: ChoiceOptions = {}): StoreChoice {
  if (flags.db && flags.profile) throw new UsageError('use either --db or --profile, not both');
  const env = opts.env ?? process.env;
  const home = opts.home ?? homedir();
  const ctx = { env, home };
  if (flags.db) {
    const path = resolve(flags.db);
    if (!existsSync(path)) throw new StoreError(`no store at ${path} (${DEMO_HINT})`, 'not-found');
    const profile = profileOfPath(path, profilesRoot(env, home, process.platform));
    return postgresChoice(profile, dirname(path), ctx) ?? { path, profile, demo: false };
  }
  if (flags.profile !== undefined && flags.profile !== 'default') {
    const name = flags.profile.trim();
    if (!PROFILE_NAME.test(name))
      throw new UsageError(
        `--profile takes a profile name (lower-case letters, digits, - and _), not "${flags.profile}"`,
      );
    const found = findProfile(name, ctx);
    if (!found)
      throw new StoreError(
        `no profile named ${name} (profiles: ${names(allProfiles(ctx))})`,
        'not-found',
      );
    return (
      postgresChoice(name, found.home, ctx) ?? { path: found.path, profile: name, demo: false }
    );
  }
  let notice: string | undefined;
  if (flags.profile === undefined && !env.HERMES_HOME) {
    const sticky = activeProfile(ctx);
    const found = sticky ? findProfile(sticky, ctx) : null;
    if (found) {
      const why = `profile ${found.name} (active_profile; --profile default reads the default one)`;
      return (
        postgresChoice(found.name, found.home, ctx, why) ?? {
          path: found.path,
          profile: found.name,
          demo: false,
          notice: why,
        }
      );
    }
    if (sticky)
      notice = `active_profile names ${sticky}, which does not exist; reading the default profile`;
  }
  const where = locateStore({ env, home });
  const pg = postgresChoice(where.profile, dirname(where.path), ctx, notice);
  if (pg) return pg;
  if (!existsSync(where.path)) {
    if (opts.demoWhenMissing && !flags.profile)
      return {
        path: '',
        profile: 'demo',
        demo: true,
        notice: `no store at ${where.path}: showing the demo store (--db PATH or --profile NAME opens yours)`,
      };
    throw new StoreError(
      `no store at ${where.path} (--db PATH or --profile NAME opens yours; ${DEMO_HINT})`,
      'not-found',
    );
  }
  return { path: where.path, profile: where.profile, demo: false, ...(notice ? { notice } : {}) };
}
