/**
 * The MCP `stats` tool: the same question and the same JSON as
 * `lookback stats --json` (computeStats), for an agent asked "what did I work
 * on this month, and what did it cost?". Arguments mirror the command line's
 * flags; a bad one is a one-line tool error.
 */
import { UsageError } from '../recall/usage.js';
import type { Json } from '../store/recall.js';
import { agentScope } from '../recall/sources.js';
import { parseWhen } from '../store/time.js';
import { computeStats, type StatsQuery } from './compute.js';

export const STATS_DESCRIPTION = `Numbers of the user's AI-agent history, read-only: activity and token usage across every agent whose history is on this machine (Hermes and its profiles, Claude Code, Codex, Gemini CLI, opencode, PraisonAI, …).

Answers JSON with:
- totals: conversations, messages, tool_calls, active_minutes (five-minute slots with a message), days_active, first_day/last_day, tokens {input, output, cache_read, cache_write, reasoning, total} and cost {usd, recorded_usd, estimated_usd, priced_usd, estimated}, unpriced_models;
- days[], weeks[] (Monday first), months[]: the same counts per period (local dates, time_zone given);
- agents[] (each with a per-day series), profiles[] (Hermes profiles), hosts[];
- models[]: tokens and cost per model, cost_kind = recorded (by the agent/provider), estimated (the agent's estimate), priced (lookback's dated price table), mixed, or "no price" (cost_usd null: never read it as $0);
- folders[]: the busiest working folders;
- token_notes[]: sources that record no tokens (their tokens are unknown, not zero); refused[]: filters a source cannot apply.

Use it for "how much did I use Claude this week?", "which project took most of my time?", "what did my agents cost last month?". All arguments are optional; with none it covers all history.`;

export interface StatsArgs {
  agent?: string;
  profile?: string;
  host?: string;
  since?: string;
  before?: string;
  cwd?: string;
  limit?: number;
}

const STRING_ARGS = ['agent', 'profile', 'host', 'since', 'before', 'cwd'] as const;

export const statsInputSchema = {
  type: 'object' as const,
  properties: {
    agent: {
      type: 'string',
      description:
        'hermes, claude, codex, gemini, opencode, praisonai, qwen, kimi, copilot, aider, crush, goose, cursor, cline, roo, kilo, or all',
    },
    profile: { type: 'string', description: 'one Hermes profile (default: every profile)' },
    host: {
      type: 'string',
      description: 'a machine synced with lookback sync, or "all" (this one and every synced one)',
    },
    since: {
      type: 'string',
      description: 'on or after: 2026-08-01, 2026-08-01T14:30, 7d, 24h, 2w, today, yesterday',
    },
    before: { type: 'string', description: 'before (same forms as since)' },
    cwd: { type: 'string', description: 'only conversations run in this folder or below it' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: 'how many busiest folders (default 10)',
    },
  },
  additionalProperties: false,
};

export const statsOutputSchema = {
  type: 'object' as const,
  properties: {
    success: { type: 'boolean' },
    error: { type: 'string' },
    filters: { type: 'object' },
    time_zone: { type: 'string' },
    week_starts: { type: 'string' },
    totals: { type: 'object' },
    days: { type: 'array' },
    weeks: { type: 'array' },
    months: { type: 'array' },
    agents: { type: 'array' },
    profiles: { type: 'array' },
    hosts: { type: 'array' },
    models: { type: 'array' },
    folders: { type: 'array' },
    token_notes: { type: 'array' },
    pricing: { type: 'object' },
    refused: { type: 'array' },
    notes: { type: 'array' },
  },
  required: ['success'],
  additionalProperties: true,
};

export function parseStatsArgs(
  raw: unknown,
): { ok: true; args: StatsArgs } | { ok: false; error: string } {
  const a = raw ?? {};
  if (typeof a !== 'object' || Array.isArray(a))
    return { ok: false, error: 'arguments must be an object' };
  const args: StatsArgs = {};
  for (const [k, v] of Object.entries(a as Record<string, unknown>)) {
    if ((STRING_ARGS as readonly string[]).includes(k)) {
      if (typeof v !== 'string' || v.trim() === '' || v.length > 4096)
        return { ok: false, error: `${k} must be a non-empty string` };
      args[k as (typeof STRING_ARGS)[number]] = v.trim();
    } else if (k === 'limit') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100)
        return { ok: false, error: 'limit must be a whole number from 1 to 100' };
      args.limit = v;
    } else
      return {
        ok: false,
        error: `unknown argument "${k.slice(0, 40)}" (stats takes ${[...STRING_ARGS, 'limit'].join(', ')})`,
      };
  }
  try {
    if (args.agent !== undefined) agentScope(args.agent);
  } catch (err) {
    return { ok: false, error: (err as Error).message.replace('--agent', 'agent') };
  }
  return { ok: true, args };
}

/** The query `args` ask, `db` being the server's own store when it was started on one. */
export function statsQueryOf(
  args: StatsArgs,
  db?: { path: string; profile: string },
  now = new Date(),
): StatsQuery {
  const q: StatsQuery = {};
  for (const k of ['since', 'before'] as const) {
    const v = args[k];
    if (v === undefined) continue;
    const at = parseWhen(v, now);
    if (at === null)
      throw new UsageError(
        `${k} takes a date (2026-08-01, 2026-08-01T14:30), a span back (7d, 24h, 2w), today or yesterday, not "${v}"`,
      );
    if (k === 'since') q.after = at;
    else q.before = at;
  }
  if (q.after !== undefined && q.before !== undefined && q.after >= q.before)
    throw new UsageError('since must be earlier than before');
  if (args.agent !== undefined) q.agent = args.agent.toLowerCase();
  if (args.profile !== undefined) q.profile = args.profile;
  if (args.host !== undefined) q.host = args.host;
  if (args.cwd !== undefined) q.cwd = args.cwd;
  if (args.limit !== undefined) q.folders = args.limit;
  if (db && args.profile === undefined && args.host === undefined) {
    q.db = db.path;
    q.dbProfile = db.profile;
  }
  return q;
}

export function runStatsTool(
  args: StatsArgs,
  db?: { path: string; profile: string },
  warn?: (line: string) => void,
): Record<string, Json> {
  return computeStats(statsQueryOf(args, db), warn ? { warn } : {});
}
