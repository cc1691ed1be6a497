/**
 * `lookback stats` and the MCP `stats` tool: which sources a question reads
 * (the same defaults as every door: every Hermes profile and every agent whose
 * history is here; `--agent`, `--profile`, `--db`, `--host` narrow it), each
 * read into rows (hermes.ts, agents.ts) and summed (sum.ts). A filter a source
 * cannot apply is refused for that source in one line, never ignored.
 */
import { homedir } from 'node:os';
import { type Agent } from '../agents/model.js';
import { UsageError } from '../recall/usage.js';
import { hostEnv, checkHostName } from '../hosts/paths.js';
import { knownHosts, readState } from '../hosts/sync.js';
import { openableProfile, readableProfiles } from '../postgres/profiles.js';
import { agentScope, agentsFound } from '../recall/sources.js';
import { findProfile } from '../store/profiles.js';
import type { Json } from '../store/recall.js';
import { isoTime } from '../store/time.js';
import { agentRows, NO_TOKENS, recordsTokens } from './agents.js';
import { hermesHasCwd, hermesRows } from './hermes.js';
import type { ActivityRow, StatsFilters, TokenNote, UsageRow } from './model.js';
import { sumStats } from './sum.js';

export interface StatsQuery extends StatsFilters {
  agent?: string;
  profile?: string;
  /** A host synced with `lookback sync`, or `all` (this machine and every synced host). */
  host?: string;
  /** One Hermes store file instead of the profiles (`--db`, `--demo`), named `dbProfile`. */
  db?: string;
  dbProfile?: string;
  folders?: number;
}

export interface StatsContext {
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Said once (stderr, the MCP log). */
  warn?: (line: string) => void;
}

/** This machine, in the per-host columns. */
export const LOCAL_HOST = 'local';

export function computeStats(q: StatsQuery, ctx: StatsContext = {}): Record<string, Json> {
  const env = ctx.env ?? process.env;
  const home = ctx.home ?? (env.HOME || homedir());
  const warn = ctx.warn ?? (() => {});
  const scope = agentScope(q.agent);
  if (q.profile !== undefined && !scope.hermes)
    throw new UsageError(`--profile names a Hermes profile; ${q.agent} has none`);
  if (q.db !== undefined && q.profile !== undefined)
    throw new UsageError('use either --db or --profile, not both');
  const hosts: { host: string; env: NodeJS.ProcessEnv; home: string }[] = [];
  if (q.host === undefined) hosts.push({ host: LOCAL_HOST, env, home });
  else {
    if (q.db !== undefined)
      throw new UsageError('--host reads a synced machine; leave out --db and --demo');
    const names =
      q.host.trim() === 'all'
        ? [LOCAL_HOST, ...knownHosts(env).map((h) => h.host)]
        : [checkHostName(q.host.trim())];
    for (const h of names) {
      if (h === LOCAL_HOST) hosts.push({ host: h, env, home });
      else {
        if (!readState(h, env))
          throw new UsageError(
            `host ${h} has not been synced: run lookback sync --host ${h} first`,
          );
        const e = hostEnv(h, env);
        hosts.push({ host: h, env: e, home: e.HOME! });
      }
    }
  }
  const f: StatsFilters = {};
  if (q.after !== undefined) f.after = q.after;
  if (q.before !== undefined) f.before = q.before;
  if (q.cwd !== undefined) f.cwd = q.cwd;
  const activity: ActivityRow[] = [];
  const usage: UsageRow[] = [];
  const notes: string[] = [];
  const refused: string[] = [];
  const tokenNotes: TokenNote[] = [];
  const narrowed = q.db !== undefined || q.profile !== undefined;
  let read = 0;
  for (const h of hosts) {
    const where = { env: h.env, home: h.home };
    if (scope.hermes) {
      const stores: { name: string; path: string }[] = [];
      if (q.db !== undefined) stores.push({ name: q.dbProfile ?? 'default', path: q.db });
      else if (q.profile !== undefined) {
        const found = findProfile(q.profile, where);
        if (!found) throw new UsageError(`no Hermes profile named "${q.profile}"`);
        const p = openableProfile(found, where);
        if (p.skip) throw new UsageError(p.skip);
        stores.push({ name: p.name, path: p.path });
      } else
        for (const p of readableProfiles(where)) {
          if (!p.skip) stores.push({ name: p.name, path: p.path });
          // A default profile that was never used is no news; any other is.
          else if (p.name !== 'default' || p.postgres)
            notes.push(`${hostPrefix(h.host)}Hermes profile ${p.name} skipped: ${p.skip}`);
        }
      for (const s of stores) {
        const label = `${hostPrefix(h.host)}Hermes ${s.name}`;
        if (f.cwd !== undefined && !hermesHasCwd(s.path)) {
          refused.push(`cwd: ${label} records no working folder; refused`);
          continue;
        }
        const r = hermesRows(s.path, s.name, h.host, f);
        read++;
        activity.push(...r.activity);
        usage.push(...r.usage);
        if (r.sessionsWithTokens === 0)
          tokenNotes.push({
            agent: 'hermes',
            profile: s.name,
            host: h.host,
            note:
              r.activity.length === 0
                ? 'no activity in range'
                : 'no session in range records tokens',
          });
      }
    }
    let agents: Agent[] = [];
    if (scope.named) agents = scope.agents;
    else if (!narrowed) agents = agentsFound(h.env);
    if (agents.length > 0) {
      const r = agentRows(agents, h.env, h.host, f, (line) => warn(`${hostPrefix(h.host)}${line}`));
      read++;
      activity.push(...r.activity);
      usage.push(...r.usage);
      const active = new Set(r.activity.map((a) => a.agent));
      const counted = new Set(r.usage.map((u) => u.agent));
      for (const a of agents) {
        if (counted.has(a) || (!active.has(a) && scope.agents.length > 1)) continue;
        tokenNotes.push({
          agent: a,
          profile: null,
          host: h.host,
          note: recordsTokens(a)
            ? active.has(a)
              ? 'no usage records in range'
              : 'no activity in range'
            : (NO_TOKENS[a] ?? 'tokens not read by lookback stats for this agent'),
        });
      }
    }
  }
  const query: Record<string, Json> = {
    filters: {
      agent: q.agent ?? null,
      profile: q.profile ?? null,
      host: q.host ?? null,
      after: q.after !== undefined ? isoTime(q.after) : null,
      before: q.before !== undefined ? isoTime(q.before) : null,
      cwd: q.cwd ?? null,
    },
  };
  if (read === 0 && refused.length > 0) throw new UsageError(refused.join('; '));
  return sumStats({
    activity,
    usage,
    tokenNotes,
    notes,
    refused,
    query,
    env,
    ...(q.folders !== undefined ? { folders: q.folders } : {}),
  });
}

const hostPrefix = (host: string) => (host === LOCAL_HOST ? '' : `${host}: `);
