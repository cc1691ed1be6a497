import { StoreError } from '../store/errors.js';
import { listProfiles } from '../store/locate.js';
import type { Json } from '../store/recall.js';
import { Store } from '../store/store.js';
import { MAX_EXCLUDED } from '../store/filters.js';
import { parseWhen } from '../store/time.js';
import type { Detail, Filters, Sort } from '../store/types.js';
import { sanitizeLine } from '../text/sanitize.js';
import { Operations, type Answer } from './operations.js';
import { chooseStore } from './storeChoice.js';
import { printText } from './text.js';
import { lazy } from './lazy.js';
import { SUBCOMMANDS, type Subcommand } from './subcommands.js';
import { loadApp } from './lazyApp.js';
import { UsageError } from './usage.js';

export { UsageError };

export interface Flags {
  db?: string | undefined;
  profile?: string | undefined;
  demo: boolean;
  json: boolean;
  /** undefined: not given; "" (bare --print), "anchor", "id" or "link". */
  print?: string | undefined;
  limit?: string | undefined;
  all: boolean;
  allProfiles?: boolean | undefined;
  agent?: string | undefined;
  sourceDir?: string[] | undefined;
  after?: string | undefined;
  before?: string | undefined;
  exclude?: string | undefined;
  detail?: string | undefined;
  source?: string | undefined;
  cwd?: string | undefined;
  model?: string | undefined;
  sort?: string | undefined;
  roles?: string | undefined;
  window?: string | undefined;
  /** `mcp --http [ADDR]`: serve Streamable HTTP instead of stdio. */
  http?: boolean | undefined;
}

type Recall = Exclude<Subcommand, 'profiles' | 'index' | 'sources'>;

/** The roles a message can have in the agent's store. */
const ROLES = ['user', 'assistant', 'tool', 'system'] as const;

function intFlag(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim()))
    throw new UsageError(`--${name} takes a whole number, not "${value}"`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}`);
  return n;
}

function sortFlag(value: string | undefined): Sort | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'relevance' || v === 'newest' || v === 'oldest') return v;
  throw new UsageError(`--sort takes relevance, newest or oldest, not "${value}"`);
}

function rolesFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const roles = value
    .split(',')
    .map((r) => r.trim().toLowerCase())
    .filter((r) => r.length > 0);
  if (roles.length === 0)
    throw new UsageError('--roles needs at least one role, e.g. user,assistant,tool');
  const bad = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (bad.length > 0)
    throw new UsageError(
      `--roles takes ${ROLES.join(', ')} (comma-separated), not "${bad.join(',')}"`,
    );
  return roles;
}

function listFlag(name: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r.length > 0);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one value`);
  return items;
}

function whenFlag(name: string, value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const at = parseWhen(value, now);
  if (at === null)
    throw new UsageError(
      `--${name} takes a date (2026-08-01, 2026-08-01T14:30), a span back (7d, 24h, 2w), today or yesterday, not "${value}"`,
    );
  return at;
}

function textFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`--${name} needs a value`);
  return value.trim();
}

/** The filter flags shared by `search` and `recent`; checked before the store is opened. */
export function filtersFrom(flags: Flags, now = new Date()): Filters {
  const f: Filters = {};
  const sources = listFlag('source', flags.source);
  const after = whenFlag('after', flags.after, now);
  const before = whenFlag('before', flags.before, now);
  const cwd = textFlag('cwd', flags.cwd);
  const model = textFlag('model', flags.model);
  const exclude = listFlag('exclude', flags.exclude);
  if (exclude && exclude.length > MAX_EXCLUDED)
    throw new UsageError(`--exclude takes at most ${MAX_EXCLUDED} session ids`);
  if (after !== undefined && before !== undefined && after >= before)
    throw new UsageError('--after must be earlier than --before');
  if (sources) f.sources = sources;
  if (after !== undefined) f.after = after;
  if (before !== undefined) f.before = before;
  if (cwd) f.cwd = cwd;
  if (model) f.model = model;
  if (exclude) f.excludeSessionIds = exclude;
  return f;
}

function detailFlag(value: string | undefined): Detail | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'adaptive' || v === 'full' || v === 'compact') return v;
  throw new UsageError(`--detail takes adaptive, full or compact, not "${value}"`);
}

/** The store the flags name (storeChoice.ts), opened read-only; its notice said on stderr. */
async function openStore(flags: Flags): Promise<Store> {
  const choice = await chooseStore(flags);
  if (choice.notice && !flags.json)
    process.stderr.write(`lookback: note: ${sanitizeLine(choice.notice)}\n`);
  return Store.open(choice.path, { profile: choice.profile, idleCloseMs: 0 });
}

async function operations(flags: Flags): Promise<Operations> {
  if (flags.allProfiles) {
    if (flags.db || flags.profile || flags.demo)
      throw new UsageError(
        '--all-profiles reads every profile: leave out --db, --profile and --demo',
      );
    return Operations.allProfiles();
  }
  return Operations.one(await openStore(flags));
}

// JSON.stringify escapes C0 controls but leaves C1 controls, bidi overrides and
// line separators raw; a terminal showing `--json` output would act on them.
// Escaping them as \uXXXX keeps the JSON identical once parsed.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** JSON text with every character a terminal could act on written as an escape. */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function emit(flags: Flags, kind: Subcommand, payload: Record<string, Json>): void {
  if (flags.json) process.stdout.write(inertJson(payload) + '\n');
  else printText(kind, payload);
}

/** Runs one subcommand (or the app) and returns the exit code. */
export async function runCommand(input: string[], flags: Flags): Promise<number> {
  const [first, ...rest] = input;
  if (flags.http && first !== 'mcp') throw new UsageError('--http is for lookback mcp');
  if (first === undefined) return runApp(flags);
  if (first === 'mcp') {
    // The MCP server and its SDK load only for this command.
    if (flags.http && rest.length > 1)
      throw new UsageError(`mcp --http takes one address (got ${rest.length} arguments)`);
    if (!flags.http) expectArgs(first, rest, 0, '');
    const { runMcp } = await lazy.mcp();
    return runMcp(flags, rest[0]);
  }
  if (!(SUBCOMMANDS as readonly string[]).includes(first))
    throw new UsageError(`unknown command "${first}" (expected ${SUBCOMMANDS.join(', ')}, mcp)`);
  const cmd = first as Subcommand;
  if (cmd === 'profiles') {
    const profiles = listProfiles();
    if (flags.json) process.stdout.write(JSON.stringify({ success: true, profiles }) + '\n');
    else for (const p of profiles) process.stdout.write(`${p.name}\t${p.path}\n`);
    return 0;
  }
  const others = await otherAgents(cmd, rest, flags);
  if (others !== null) return others;
  const call = parseArgs(cmd as Recall, rest, flags);
  let ops: Operations | undefined;
  try {
    ops = await operations(flags);
    for (const w of ops.warnings) process.stderr.write(`lookback: warning: ${sanitizeLine(w)}\n`);
    emit(flags, cmd, call(ops));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const message =
      err instanceof StoreError
        ? err.message
        : `unexpected error: ${(err as Error)?.message ?? err}`;
    if (flags.json) process.stdout.write(inertJson({ success: false, error: message }) + '\n');
    else process.stderr.write(`lookback: ${sanitizeLine(message)}\n`);
    return 1;
  } finally {
    ops?.close();
  }
}

/** Validates a subcommand's arguments before the store is opened; returns the call to make. */
function parseArgs(cmd: Recall, rest: string[], flags: Flags): (ops: Operations) => Answer {
  const limit = intFlag('limit', flags.limit, 0);
  const searchOnly = { exclude: flags.exclude, detail: flags.detail };
  if (cmd !== 'search')
    for (const [name, v] of Object.entries(searchOnly))
      if (v !== undefined) throw new UsageError(`--${name} is for search only`);
  if (cmd !== 'search' && cmd !== 'recent')
    for (const name of ['after', 'before', 'source', 'cwd', 'model'] as const)
      if (flags[name] !== undefined)
        throw new UsageError(`--${name} is for search and recent only`);
  if (flags.allProfiles && (cmd === 'scroll' || cmd === 'read'))
    throw new UsageError(
      `--all-profiles is for recent and search; ${cmd} takes a link (@session:PROFILE/ID) to read another profile`,
    );
  switch (cmd) {
    case 'recent': {
      expectArgs(cmd, rest, 0, '');
      const filters = filtersFrom(flags);
      return (o) => o.recent({ limit: limit ?? 20, all: flags.all, filters });
    }
    case 'search': {
      if (rest.length === 0) throw new UsageError('search needs a QUERY');
      const query = rest.join(' ');
      const sort = sortFlag(flags.sort);
      const roles = rolesFlag(flags.roles);
      const detail = detailFlag(flags.detail);
      const filters = filtersFrom(flags);
      return (o) =>
        o.search(query, {
          limit: limit ?? 10,
          all: flags.all,
          filters,
          ...(sort ? { sort } : {}),
          ...(roles ? { roles } : {}),
          ...(detail ? { detail } : {}),
        });
    }
    case 'scroll': {
      expectArgs(cmd, rest, 2, 'SESSION_ID MESSAGE_ID');
      const [sid = '', mid = ''] = rest;
      if (!/^\d+$/.test(mid.trim()))
        throw new UsageError(`MESSAGE_ID must be a whole number, not "${mid}"`);
      const window = intFlag('window', flags.window, -Infinity);
      return (o) => o.scroll(sid, Number(mid), window === undefined ? {} : { window });
    }
    case 'read': {
      expectArgs(cmd, rest, 1, 'SESSION_ID');
      const [sid = ''] = rest;
      return (o) => o.read(sid);
    }
  }
}

function expectArgs(cmd: string, rest: string[], n: number, names: string): void {
  if (rest.length !== n)
    throw new UsageError(
      n === 0
        ? `${cmd} takes no arguments`
        : `${cmd} needs ${names} (got ${rest.length} argument${rest.length === 1 ? '' : 's'})`,
    );
}

/**
 * Other agents' histories (src/agents): `index`, `sources`, and `--agent` on the
 * recall commands. Null when neither applies, so the Hermes path (and its JSON,
 * which agents rely on) stays exactly as it was.
 */
async function otherAgents(cmd: Subcommand, rest: string[], flags: Flags): Promise<number | null> {
  const agentsOnly = cmd === 'index' || cmd === 'sources';
  if (!agentsOnly && flags.agent === undefined) {
    if (flags.sourceDir?.length)
      throw new UsageError('--source-dir needs --agent (or lookback index)');
    return null;
  }
  if (flags.allProfiles)
    throw new UsageError('--all-profiles reads Hermes profiles; leave out --agent');
  const recall = agentsOnly ? null : (cmd as Recall);
  // The same argument checks as Hermes; other agents' anchors are not numbers.
  const hermesOnly = flags.agent?.trim().toLowerCase() === 'hermes';
  if (recall)
    parseArgs(recall, recall === 'scroll' && !hermesOnly ? [rest[0] ?? '', '0'] : rest, flags);
  if (recall === 'scroll') expectArgs(cmd, rest, 2, 'SESSION_ID MESSAGE_ID');
  const { runAgents, AgentUsageError } = await lazy.agents();
  const hermes = async (): Promise<Record<string, Json>> => {
    let call: (ops: Operations) => Answer;
    try {
      call = parseArgs(recall!, rest, flags);
    } catch (err) {
      // With --agent all, an anchor that is not a Hermes id just is not in Hermes.
      if (err instanceof UsageError) throw new StoreError(err.message, 'no-message');
      throw err;
    }
    const ops = Operations.one(await openStore(flags));
    try {
      return call(ops);
    } finally {
      ops.close();
    }
  };
  try {
    return await runAgents(
      cmd,
      rest,
      {
        agent: flags.agent,
        sourceDir: flags.sourceDir,
        json: flags.json,
        all: flags.all,
        limit: intFlag('limit', flags.limit, 0),
        sort: sortFlag(flags.sort),
        roles: rolesFlag(flags.roles),
        window: intFlag('window', flags.window, -Infinity),
      },
      hermes,
    );
  } catch (err) {
    if (err instanceof AgentUsageError) throw new UsageError(err.message);
    throw err;
  }
}

const PRINT_MODES = ['anchor', 'id', 'link'] as const;

/** --print's value: null when not given; a bare --print prints the anchor. */
export function printMode(value: string | undefined): 'anchor' | 'id' | 'link' | null {
  if (value === undefined) return null;
  const v = value.trim().toLowerCase();
  if (v === '') return 'anchor';
  if ((PRINT_MODES as readonly string[]).includes(v)) return v as 'anchor' | 'id' | 'link';
  throw new UsageError(`--print takes id, link or anchor, not "${sanitizeLine(value)}"`);
}

async function runApp(flags: Flags): Promise<number> {
  if (flags.allProfiles)
    throw new UsageError('--all-profiles is for recent and search; the app reads one profile');
  const print = printMode(flags.print);
  // `$(lookback --print)` captures stdout: the app then draws on stderr.
  const screen = process.stdout.isTTY || (print !== null && process.stderr.isTTY);
  if (!process.stdin.isTTY || !screen) {
    process.stderr.write(
      'lookback: no terminal here; use the JSON subcommands instead, e.g. `lookback recent --json` or `lookback search "query" --json`\n',
    );
    return 2;
  }
  // Which store: decided here, once, with the same rules as the subcommands (storeChoice.ts).
  const store = await chooseStore(flags, { demoWhenMissing: true });
  const { startApp } = await loadApp();
  return startApp({ ...flags, store, print });
}
