import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';

export interface LocateInput {
  db?: string | undefined;
  profile?: string | undefined;
  env?: NodeJS.ProcessEnv;
  home?: string;
  platform?: NodeJS.Platform;
}

export interface Located {
  path: string;
  /** The name an `@session:<profile>/<id>` link uses; `default` for the default profile. */
  profile: string;
  how: 'flag' | 'profile' | 'env' | 'default';
}

/** The agent's home directory for the default profile (STORE.md "Where the store lives"). */
export function defaultHome(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform,
): string {
  if (env.HERMES_HOME) return resolve(env.HERMES_HOME);
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'hermes');
  return join(home, '.hermes');
}

/** Where named profiles live: ~/.hermes, unless HERMES_HOME points outside it. */
export function profilesRoot(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform,
): string {
  const standard =
    platform === 'win32' && env.LOCALAPPDATA
      ? join(env.LOCALAPPDATA, 'hermes')
      : join(home, '.hermes');
  if (!env.HERMES_HOME) return standard;
  const h = resolve(env.HERMES_HOME);
  return h === standard || h.startsWith(standard + sep) ? standard : h;
}

export function locateStore(input: LocateInput): Located {
  const env = input.env ?? process.env;
  const home = input.home ?? homedir();
  const platform = input.platform ?? process.platform;
  const root = profilesRoot(env, home, platform);
  if (input.db) {
    const path = resolve(input.db);
    return { path, profile: profileOfPath(path, root), how: 'flag' };
  }
  if (input.profile && input.profile !== 'default') {
    return {
      path: join(root, 'profiles', input.profile, 'state.db'),
      profile: input.profile,
      how: 'profile',
    };
  }
  const path = join(defaultHome(env, home, platform), 'state.db');
  return { path, profile: profileOfPath(path, root), how: env.HERMES_HOME ? 'env' : 'default' };
}

/** `<root>/profiles/NAME/state.db` belongs to profile NAME; anything else to `default`. */
export function profileOfPath(path: string, root: string): string {
  const prefix = join(root, 'profiles') + sep;
  if (!path.startsWith(prefix)) return 'default';
  const rest = path.slice(prefix.length).split(sep);
  return rest.length === 2 && rest[0] ? rest[0] : 'default';
}

export interface ProfileEntry {
  name: string;
  path: string;
}

/** Profiles that have a store on disk, the default one first. */
export function listProfiles(input: Omit<LocateInput, 'db' | 'profile'> = {}): ProfileEntry[] {
  const env = input.env ?? process.env;
  const home = input.home ?? homedir();
  const platform = input.platform ?? process.platform;
  const out: ProfileEntry[] = [];
  const def = join(defaultHome(env, home, platform), 'state.db');
  if (existsSync(def)) out.push({ name: 'default', path: def });
  const dir = join(profilesRoot(env, home, platform), 'profiles');
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    // No profiles directory: only the default profile exists.
  }
  for (const name of names) {
    const path = join(dir, name, 'state.db');
    if (existsSync(path) && path !== def) out.push({ name, path });
  }
  return out;
}
