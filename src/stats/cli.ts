/**
 * `lookback stats [FILTERS] [--json]`: the flags checked before anything is
 * read (a bad date, an unknown agent, an option stats has no use for: one line,
 * exit 2), then computeStats, then the JSON or the drawing.
 */
import type { Flags } from '../cli/flags.js';
import { inertJson } from '../cli/json.js';
import { chooseStore } from '../recall/storeChoice.js';
import { UsageError } from '../recall/usage.js';
import { agentScope } from '../recall/sources.js';
import { parseWhen } from '../store/time.js';
import { sanitizeLine } from '../text/sanitize.js';
import { computeStats, type StatsQuery } from './compute.js';
import { renderStats } from './render.js';

/** Options of the other commands that mean nothing to stats: refused, never ignored. */
const NOT_FOR_STATS: (keyof Flags)[] = [
  'all',
  'allProfiles',
  'sort',
  'roles',
  'window',
  'exclude',
  'detail',
  'source',
  'model',
  'print',
  'sourceDir',
];

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function when(name: string, value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const at = parseWhen(value, now);
  if (at === null)
    throw new UsageError(
      `--${name} takes a date (2026-08-01, 2026-08-01T14:30), a span back (7d, 24h, 2w), today or yesterday, not "${value}"`,
    );
  return at;
}

/** The question the flags ask; throws UsageError on bad input. */
export async function statsQuery(
  rest: string[],
  flags: Flags,
  now = new Date(),
): Promise<StatsQuery> {
  if (rest.length > 0)
    throw new UsageError(`stats takes no arguments, only options (got "${rest[0]}")`);
  for (const name of NOT_FOR_STATS) {
    const v = flags[name];
    if (v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0))
      throw new UsageError(`--${kebab(name)} is not an option of stats`);
  }
  if (flags.since !== undefined && flags.after !== undefined)
    throw new UsageError('--since and --after are the same option: give one');
  agentScope(flags.agent); // an unknown agent: one line, before anything is read
  const q: StatsQuery = {};
  const after = when(
    flags.since !== undefined ? 'since' : 'after',
    flags.since ?? flags.after,
    now,
  );
  const before = when('before', flags.before, now);
  if (after !== undefined && before !== undefined && after >= before)
    throw new UsageError('--since/--after must be earlier than --before');
  if (after !== undefined) q.after = after;
  if (before !== undefined) q.before = before;
  if (flags.cwd !== undefined) {
    if (flags.cwd.trim() === '') throw new UsageError('--cwd needs a value');
    q.cwd = flags.cwd.trim();
  }
  if (flags.agent !== undefined) q.agent = flags.agent.trim().toLowerCase();
  if (flags.profile !== undefined) q.profile = flags.profile.trim();
  if (flags.host !== undefined) q.host = flags.host.trim();
  if (flags.limit !== undefined) {
    if (!/^\d+$/.test(flags.limit.trim()) || Number(flags.limit) < 1)
      throw new UsageError(
        `--limit (busiest folders) takes a whole number of at least 1, not "${flags.limit}"`,
      );
    q.folders = Number(flags.limit);
  }
  if (flags.demo || flags.db) {
    if (flags.profile) throw new UsageError('use either --db/--demo or --profile, not both');
    const choice = await chooseStore(flags);
    q.db = choice.path;
    q.dbProfile = choice.profile;
  }
  return q;
}

export async function runStats(rest: string[], flags: Flags): Promise<number> {
  const q = await statsQuery(rest, flags);
  const warn = (line: string) => process.stderr.write(`lookback: ${sanitizeLine(line)}\n`);
  const json = computeStats(q, { warn });
  if (flags.json) {
    process.stdout.write(inertJson(json) + '\n');
    return 0;
  }
  const tty = process.stdout.isTTY === true;
  const color = tty && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
  const width = tty ? (process.stdout.columns ?? 80) : 80;
  process.stdout.write(renderStats(json, { width, color }));
  for (const r of json.refused as string[]) warn(r);
  return 0;
}
