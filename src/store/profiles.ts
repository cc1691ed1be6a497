/**
 * The agent's profiles on disk (STORE.md "Where the store lives"): which exist,
 * which one is sticky (`active_profile`), and which keep their sessions in
 * PostgreSQL (read through lookback's mirror, src/postgres/profiles.ts).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from './errors.js';
import { defaultHome, profilesRoot, type LocateInput } from './locate.js';
import { PgConfigError, postgresConfig, postgresTarget, type PgTarget } from './postgresConfig.js';

/** The agent's rule for profile names. */
export const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface Profile {
  name: string;
  /** The profile's home directory (config.yaml, state.db). */
  home: string;
  /** Its SQLite store (which may not exist). */
  path: string;
  /** Why this profile cannot be read, when it cannot (no store, an unreachable database). */
  skip?: string;
  /** Set when the profile keeps its sessions in PostgreSQL: `path` is then lookback's mirror. */
  postgres?: PgTarget;
}

interface Where {
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
}

function where(input: Omit<LocateInput, 'db' | 'profile'>): Where {
  return {
    env: input.env ?? process.env,
    home: input.home ?? homedir(),
    platform: input.platform ?? process.platform,
  };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The default profile and every `<root>/profiles/NAME` directory with a valid name, default first. */
export function allProfiles(input: Omit<LocateInput, 'db' | 'profile'> = {}): Profile[] {
  const w = where(input);
  const defHome = defaultHome(w.env, w.home, w.platform);
  const out: Profile[] = [{ name: 'default', home: defHome, path: join(defHome, 'state.db') }];
  const dir = join(profilesRoot(w.env, w.home, w.platform), 'profiles');
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    // No profiles directory: only the default profile exists.
  }
  for (const name of names) {
    const home = join(dir, name);
    if (name === 'default' || !PROFILE_NAME.test(name) || !isDir(home) || home === defHome)
      continue;
    out.push({ name, home, path: join(home, 'state.db') });
  }
  return out;
}

/** The named profile, or null when it has no directory. */
export function findProfile(
  name: string,
  input: Omit<LocateInput, 'db' | 'profile'> = {},
): Profile | null {
  return allProfiles(input).find((p) => p.name === name) ?? null;
}

/**
 * The sticky profile named in `<root>/active_profile`, or null when there is
 * none (or it says `default`, or holds something that is not a profile name).
 */
export function activeProfile(input: Omit<LocateInput, 'db' | 'profile'> = {}): string | null {
  const w = where(input);
  const file = join(profilesRoot(w.env, w.home, w.platform), 'active_profile');
  let name: string;
  try {
    name = readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
  return name !== 'default' && PROFILE_NAME.test(name) ? name : null;
}

/**
 * Whether the config.yaml in `home` moves the sessions off `state.db`
 * (`database: {backend: postgres}`, in flow or block style; anything but
 * absent or `sqlite`). Anything unreadable counts as no.
 */
export function usesPostgres(home: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return postgresConfig(home, env) !== null;
}

/**
 * The PostgreSQL target of a profile, or null when it is on SQLite. Throws a
 * StoreError (one line) when its config cannot be followed (no URL, another
 * backend). `$HERMES_DATABASE_URL` counts only for the process's own home.
 */
export function postgresOf(
  p: Pick<Profile, 'name' | 'home'>,
  input: Omit<LocateInput, 'db' | 'profile'> = {},
): PgTarget | null {
  const w = where(input);
  const own = p.home === defaultHome(w.env, w.home, w.platform);
  try {
    return postgresTarget(p.name, p.home, w.env, own);
  } catch (err) {
    if (err instanceof PgConfigError) throw new StoreError(err.message, 'not-found');
    throw err;
  }
}
