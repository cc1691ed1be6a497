/**
 * The agent's profiles on disk (STORE.md "Where the store lives"): which exist,
 * which one is sticky (`active_profile`), and which keep their sessions
 * somewhere lookback cannot read (a PostgreSQL backend).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultHome, profilesRoot, type LocateInput } from './locate.js';

/** The agent's rule for profile names. */
export const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface Profile {
  name: string;
  /** The profile's home directory (config.yaml, state.db). */
  home: string;
  /** Its SQLite store (which may not exist). */
  path: string;
  /** Why this profile cannot be read, when it cannot (no store, a PostgreSQL backend). */
  skip?: string;
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
 * Whether the config.yaml in `home` moves the sessions to PostgreSQL
 * (`database: {backend: postgres}`, in flow or block style). Only this key is
 * looked for, so no YAML parser is needed; anything unreadable counts as no.
 */
export function usesPostgres(home: string): boolean {
  const file = join(home, 'config.yaml');
  if (!existsSync(file)) return false;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const isPg = (v: string) => /^["']?postgres(ql)?["']?$/i.test(v.trim());
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\s+#.*$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const m = /^database:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const rest = m[1]!.trim();
    if (rest.startsWith('{')) {
      const b = /(?:^|[{,\s])backend\s*:\s*([^,}]+)/.exec(rest);
      return b !== null && isPg(b[1]!);
    }
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '') continue;
      if (!/^\s/.test(line)) break;
      const b = /^\s+backend\s*:\s*(.+)$/.exec(line);
      if (b) return isPg(b[1]!);
    }
    return false;
  }
  return false;
}

/** Every profile with what stops it being read, for `--all-profiles`. */
export function readableProfiles(input: Omit<LocateInput, 'db' | 'profile'> = {}): Profile[] {
  return allProfiles(input).map((p) => {
    if (usesPostgres(p.home))
      return { ...p, skip: `keeps its sessions in PostgreSQL (${p.home}/config.yaml)` };
    if (!existsSync(p.path)) return { ...p, skip: `no store at ${p.path}` };
    return p;
  });
}
