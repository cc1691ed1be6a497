/**
 * Profiles made openable: a profile on SQLite as it is, a profile on
 * PostgreSQL synced into lookback's mirror (src/mirror/hermes.ts), whose path
 * is then opened exactly as a state.db. This is where the command line, the
 * library, MCP and the app choose a profile's store file; everything past that
 * point reads the mirror like any SQLite profile.
 */
import { LIVE_SYNC_MS } from '../budgets.js';
import { existsSync } from 'node:fs';
import { lookbackCacheDir } from '../paths.js';
import { StoreError } from '../store/errors.js';
import type { LocateInput } from '../store/locate.js';
import type { PgTarget } from '../store/postgresConfig.js';
import { allProfiles, postgresOf, type Profile } from '../store/profiles.js';
import { syncBlocking } from './run.js';

/**
 * When each mirror was last synced in this process: a burst of calls (an agent's
 * MCP calls, a link opened right after a search) syncs once a LIVE_SYNC_MS, the
 * cadence at which the app notices a change anyway.
 */
const recent = new Map<string, { at: number; path: string }>();

type Where = Omit<LocateInput, 'db' | 'profile'>;

/**
 * Brings a PostgreSQL profile's mirror up to date (cost proportional to what
 * changed) and returns the file to open. Throws a StoreError naming the
 * profile (unreachable server, refused login, no schema).
 */
export function syncPostgresProfile(target: PgTarget, input: Where = {}): string {
  const cacheDir = lookbackCacheDir(input.env ?? process.env);
  const key = `${cacheDir}\n${target.url}\n${target.candidates.join(',')}`;
  const last = recent.get(key);
  if (last && Date.now() - last.at < LIVE_SYNC_MS) return last.path;
  try {
    const path = syncBlocking(target, cacheDir).mirror;
    recent.set(key, { at: Date.now(), path });
    return path;
  } catch (err) {
    recent.delete(key);
    throw new StoreError((err as Error).message, 'io');
  }
}

/** A profile made openable: a SQLite profile as it is, a PostgreSQL one synced into its mirror. */
export function openableProfile(p: Profile, input: Where = {}): Profile {
  let target: PgTarget | null;
  try {
    target = postgresOf(p, input);
  } catch (err) {
    return { ...p, skip: (err as Error).message };
  }
  if (target) {
    try {
      return { ...p, path: syncPostgresProfile(target, input), postgres: target };
    } catch (err) {
      return { ...p, postgres: target, skip: (err as Error).message };
    }
  }
  if (!existsSync(p.path)) return { ...p, skip: `no store at ${p.path}` };
  return p;
}

/** Every profile with what stops it being read, for `--all-profiles`; PostgreSQL ones synced. */
export function readableProfiles(input: Where = {}): Profile[] {
  return allProfiles(input).map((p) => openableProfile(p, input));
}
