/**
 * The recall subcommands (recent, search, scroll, read, list, overview,
 * messages, pins): flags and arguments into one `Call` (src/recall/call.ts),
 * `answer`, then JSON or text on stdout.
 *
 * Why one file of ~590 lines: one job, parsing one door's input, whose flag
 * readers (intFlag, whenFlag, …) are shared by every subcommand's parse;
 * printing lives in text.ts, sources in src/recall/sources.ts. Split the flag
 * readers out (a parseFlags.ts) when another door needs them.
 */
import { MAX_EXCLUDED } from '../budgets.js';
import { StoreError } from '../store/errors.js';
import type { Store } from '../store/store.js';
import type Database from 'better-sqlite3';
import type { Agent } from '../agents/model.js';
import { listProfiles } from '../store/locate.js';
import { allProfiles, postgresOf } from '../store/profiles.js';
import type { Json } from '../store/recall.js';

import { answer } from '../recall/answer.js';
import type { Call, MessageRange } from '../recall/call.js';
import { listLimit, maxChars, messagesLimit } from '../budgets.js';
import { chooseSources, selectionFor, type Selection } from '../recall/sources.js';
import { parseTarget, TargetError } from '../recall/target.js';
import { progressBar } from '../agents/progress.js';
import { parseSourceDirs, AgentUsageError } from '../agents/sourceDirs.js';
import { parseWhen } from '../store/time.js';
import type { Detail, Filters, Sort } from '../store/types.js';
import { sanitizeLine } from '../text/sanitize.js';
import { folderAndBelow } from '../recall/folder.js';
import { chooseStore } from '../recall/storeChoice.js';
import { inertJson } from './json.js';
import { stderrMayBeTerminal, stdout, writeOut } from './out.js';
import type { Flags } from './flags.js';
import { printText } from './text.js';
import { lazy } from './lazy.js';
import { ANSWERS, SUBCOMMANDS, type Subcommand } from './subcommands.js';
import { loadApp } from './lazyApp.js';
import { UsageError } from '../recall/usage.js';
import { CLI_FRESH_MS } from '../budgets.js';
import { startMark } from './startMarks.js';

export { UsageError };

export type { Flags };

type Recall = Exclude<Subcommand, 'profiles' | 'index' | 'sources' | 'sync' | 'hosts' | 'stats'>;
export type { Recall };

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
  if (flags.here && cwd !== undefined)
    throw new UsageError('--here and --cwd both name a folder; give one');
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
  else if (flags.here) f.cwd = folderAndBelow(process.cwd());
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

/** The sources the flags select (src/recall/sources.ts): every source found, narrowed by the flags. */
async function selection(flags: Flags): Promise<Selection> {
  if (flags.allProfiles && (flags.db || flags.profile || flags.demo))
    throw new UsageError(
      '--all-profiles reads every profile: leave out --db, --profile and --demo',
    );
  if (flags.host !== undefined && (flags.db || flags.demo))
    throw new UsageError('--host reads a synced machine; leave out --db and --demo');
  if (flags.demo) {
    const choice = await chooseStore(flags);
    return { db: choice.path, dbProfile: choice.profile, agent: flags.agent };
  }
  if (flags.db && flags.profile) throw new UsageError('use either --db or --profile, not both');
  return {
    db: flags.db,
    profile: flags.profile,
    agent: flags.agent,
    allProfiles: flags.allProfiles,
    sourceDirs: parseSourceDirs(flags.sourceDir),
    host: flags.host,
  };
}

export { inertJson };

function emit(flags: Flags, kind: Subcommand, payload: Record<string, Json>): void {
  if (flags.json) writeOut(inertJson(payload) + '\n');
  else printText(kind, payload);
}

/** progressBar()'s answer when standard error is not a terminal. */
const NO_BAR: ReturnType<typeof progressBar> = { update: () => {}, done: () => {} };

/** Runs one subcommand (or the app) and returns the exit code. */
export async function runCommand(input: string[], flags: Flags): Promise<number> {
  const [first, ...rest] = input;
  if (flags.http && first !== 'mcp') throw new UsageError('--http is for lookback mcp');
  // --here: this folder or below, for the lists and the app (the folder filter, src/store/filters.ts folderMatch).
  if (flags.here && first !== undefined && !['recent', 'search', 'list'].includes(first))
    throw new UsageError(`--here is for recent, search, list and the app, not ${first}`);
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
  // The answers below write through writeOut (./out.ts); the other commands print on
  // process.stdout, which ends the process quietly when the reader goes (EPIPE).
  if (!(ANSWERS as readonly string[]).includes(cmd)) stdout();
  // `lookback stats` reads every source itself (src/stats), --host included.
  if (cmd === 'stats') {
    const { runStats } = await lazy.stats();
    return runStats(rest, flags);
  }
  // Other machines (src/hosts): `sync` and `hosts`; `--host` on the recall commands picks their sources.
  if (cmd === 'sync' || cmd === 'hosts') {
    const { runHosts, HostUsageError } = await lazy.hosts();
    try {
      return await runHosts(cmd, rest, flags);
    } catch (err) {
      if (err instanceof HostUsageError) throw new UsageError(err.message);
      throw err;
    }
  }
  if (
    flags.host !== undefined &&
    !['recent', 'search', 'scroll', 'read', 'list', 'overview', 'messages'].includes(cmd)
  )
    throw new UsageError(
      `--host is for recent, search, scroll, read, list, overview and messages (and sync), not ${cmd}`,
    );
  if (cmd === 'profiles') {
    const profiles = profileList();
    if (flags.json) process.stdout.write(JSON.stringify({ success: true, profiles }) + '\n');
    else
      for (const p of profiles)
        process.stdout.write(
          `${p.name}\t${'postgres' in p ? `PostgreSQL ${sanitizeLine(p.postgres)}` : p.path}\n`,
        );
    return 0;
  }
  if (cmd === 'index' || cmd === 'sources') return indexCommands(cmd, rest, flags);
  const call = parseArgs(cmd, rest, flags);
  const semantic = cmd === 'search' ? semanticFlags(call, flags) : null;
  const sel = selectionFor(await selection(flags), call);
  let set: ReturnType<typeof chooseSources> | undefined;
  // The bar draws only on a terminal; anything else need not build process.stderr to learn so.
  const bar = stderrMayBeTerminal() ? progressBar() : NO_BAR;
  try {
    set = chooseSources(sel, {
      idleCloseMs: 0,
      agents: {
        freshMs: CLI_FRESH_MS,
        warn: (w) => process.stderr.write(`lookback: ${sanitizeLine(w)}\n`),
        onProgress: bar.update,
        onPassDone: () => bar.done(),
      },
    });
    startMark('cli: sources chosen');
    if (!flags.json)
      for (const n of set.notes) process.stderr.write(`lookback: note: ${sanitizeLine(n)}\n`);
    if (call.shape === 'scroll' && set.sources.every((s) => s.id.kind === 'hermes'))
      if (!/^\d+$/.test(call.target.around ?? ''))
        throw new UsageError(`MESSAGE_ID must be a whole number, not "${call.target.around}"`);
    const payload =
      call.shape === 'discover' && semantic
        ? await semanticAnswer(call, set.sources, semantic, Boolean(flags.json))
        : answer(call, set);
    startMark('cli: answer built');
    for (const s of set.sources)
      for (const w of s.warnings) process.stderr.write(`lookback: warning: ${sanitizeLine(w)}\n`);
    // Refused filters and skipped sources: in the JSON, or one line each on stderr.
    if (!flags.json) {
      for (const r of asLines(payload.refused)) process.stderr.write(`lookback: ${r}\n`);
      for (const r of asLines(payload.skipped))
        process.stderr.write(`lookback: warning: skipped ${r}\n`);
      for (const r of asLines(payload.host_errors))
        process.stderr.write(`lookback: warning: ${r}\n`);
    }
    emit(flags, cmd, payload);
    startMark('cli: written');
    return 0;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // An embedder's failure (EmbedError, by name: the lazy module is another bundle) is one line too.
    const message =
      err instanceof StoreError || (err as Error)?.name === 'EmbedError'
        ? (err as Error).message
        : `unexpected error: ${(err as Error)?.message ?? err}`;
    if (flags.json) writeOut(inertJson({ success: false, error: message }) + '\n');
    else process.stderr.write(`lookback: ${sanitizeLine(message)}\n`);
    return 1;
  } finally {
    bar.done();
    set?.close();
  }
}

/**
 * `lookback profiles`: the profiles with a store on disk, and those that keep
 * their sessions in PostgreSQL (with where, password left out, or why it
 * cannot be reached from the config), never their stale state.db. Nothing connects.
 */
function profileList(): ({ name: string; path: string } | { name: string; postgres: string })[] {
  const onDisk = new Map(listProfiles().map((p) => [p.name, p.path]));
  const out: ({ name: string; path: string } | { name: string; postgres: string })[] = [];
  for (const p of allProfiles()) {
    let where: string | null;
    try {
      where = postgresOf(p)?.endpoint ?? null;
    } catch (err) {
      where = (err as Error).message;
    }
    if (where !== null) out.push({ name: p.name, postgres: where });
    else if (onDisk.has(p.name)) out.push({ name: p.name, path: onDisk.get(p.name)! });
  }
  return out;
}

/** The `refused` and `skipped` notes of an answer as lines. */
function asLines(v: Json | undefined): string[] {
  if (!Array.isArray(v)) return [];
  return v.map((x) =>
    typeof x === 'string'
      ? sanitizeLine(x)
      : x && typeof x === 'object' && !Array.isArray(x)
        ? sanitizeLine(
            `${String(x.profile ?? x.agent ?? x.host ?? '')}${x.host !== undefined && (x.profile ?? x.agent) !== undefined ? ` on ${String(x.host)}` : ''}: ${String(x.error ?? '')}`,
          )
        : '',
  );
}

/**
 * `--mode semantic|hybrid` and its embedder, checked before any store opens;
 * null for the lexical default. Filters the vector leg cannot apply yet are
 * refused in one line, never ignored.
 */
function semanticFlags(
  call: Call,
  flags: Flags,
): { mode: 'semantic' | 'hybrid'; embedder: string } | null {
  const mode = flags.mode?.trim().toLowerCase();
  if (mode === undefined || mode === 'lexical') {
    if (flags.embedder !== undefined)
      throw new UsageError('--embedder is for --mode semantic or hybrid');
    return null;
  }
  if (mode !== 'semantic' && mode !== 'hybrid')
    throw new UsageError(`--mode takes lexical, semantic or hybrid, not "${flags.mode}"`);
  const embedder = flags.embedder ?? process.env.LOOKBACK_EMBEDDER;
  if (!embedder?.trim())
    throw new UsageError(
      `--mode ${mode} needs --embedder (or LOOKBACK_EMBEDDER): model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or openai:MODEL@BASE_URL`,
    );
  if (call.shape === 'discover') {
    const asked = [
      ...Object.keys(call.filters ?? {}).map((k) => (k === 'excludeSessionIds' ? 'exclude' : k)),
      ...(call.sort && call.sort !== 'relevance' ? ['sort'] : []),
      ...(call.roles ? ['roles'] : []),
      ...(call.detail ? ['detail'] : []),
      ...(flags.allProfiles ? ['all-profiles'] : []),
    ];
    if (asked.length > 0)
      throw new UsageError(
        `--mode ${mode} does not take --${asked.join(', --')} yet (the vector leg cannot apply ${asked.length === 1 ? 'it' : 'them'}); refused`,
      );
  }
  return { mode, embedder };
}

/** A 24-cell bar for a share 0..1 and its percentage, as the indexing bar draws it. */
function bar(share: number): string {
  const frac = Math.min(1, Math.max(0, share));
  const full = Math.round(frac * 24);
  return `${'█'.repeat(full)}${'░'.repeat(24 - full)} ${String(Math.round(frac * 100)).padStart(3)}%`;
}

/**
 * The semantic or hybrid answer over the one source the flags name: a Hermes
 * store, or lookback's index of the other agents (`--agent claude`, or every
 * other agent when there is no Hermes store).
 */
async function semanticAnswer(
  call: Extract<Call, { shape: 'discover' }>,
  sources: ReturnType<typeof chooseSources>['sources'],
  semantic: { mode: 'semantic' | 'hybrid'; embedder: string },
  json: boolean,
): Promise<Record<string, Json>> {
  const { semanticSearch, semanticAgentsSearch } = await lazy.semantic();
  // By kind, not instanceof: the lazy module is another bundle's copy of the classes.
  const hermes = sources.filter((s) => s.id.kind === 'hermes') as unknown as { store: Store }[];
  const others = sources.filter((s) => s.id.kind === 'agents' && !s.id.host) as unknown as {
    agents: readonly Agent[];
    indexDb(): Database.Database;
  }[];
  if (sources.length !== 1 || (hermes.length !== 1 && others.length !== 1))
    throw new UsageError(
      `--mode ${semantic.mode} searches one source: name it with --agent hermes (or --db, --profile, --demo) or --agent AGENT for another agent's history${sources.some((s) => s.id.host) ? '; a synced host has no vectors' : ''}`,
    );
  // Embedding progress on a terminal only, one line redrawn (stdout stays the answer).
  let drawn = false;
  try {
    const opts: Parameters<typeof semanticSearch>[2] = {
      mode: semantic.mode,
      embedder: semantic.embedder,
      limit: call.limit,
      all: call.all,
      onProgress: (p) => {
        if (!process.stderr.isTTY) return;
        drawn = true;
        process.stderr.write(
          `\r\u001b[2Kembedding ${bar(p.done / Math.max(1, p.total))} ${p.done}/${p.total} messages (${p.embedded} new, ${Math.round(p.docsPerSecond)}/s) with ${sanitizeLine(p.model)}`,
        );
      },
    };
    const out = hermes[0]
      ? await semanticSearch(hermes[0].store, call.query, opts)
      : await semanticAgentsSearch(others[0]!.indexDb(), others[0]!.agents, call.query, opts);
    // Part of the store embedded: said on stderr too (the JSON has it as embedding_note).
    if (drawn) process.stderr.write('\r\u001b[2K');
    drawn = false;
    if (!json && typeof out.embedding_note === 'string')
      process.stderr.write(`lookback: note: ${sanitizeLine(out.embedding_note)}\n`);
    return out;
  } finally {
    if (drawn) process.stderr.write('\r\u001b[2K');
  }
}

/** Validates a subcommand's arguments before any store is opened; returns the call to make. */
function parseArgs(cmd: Recall, rest: string[], flags: Flags): Call {
  const limit = intFlag('limit', flags.limit, 0);
  const searchOnly = { exclude: flags.exclude, detail: flags.detail };
  if (cmd !== 'search')
    for (const [name, v] of Object.entries({
      ...searchOnly,
      mode: flags.mode,
      embedder: flags.embedder,
    }))
      if (v !== undefined) throw new UsageError(`--${name} is for search only`);
  if (cmd !== 'search' && cmd !== 'recent' && cmd !== 'list')
    for (const name of ['after', 'before', 'source', 'cwd', 'model'] as const)
      if (flags[name] !== undefined)
        throw new UsageError(`--${name} is for search, recent and list only`);
  if (cmd !== 'list' && cmd !== 'messages' && flags.cursor !== undefined)
    throw new UsageError('--cursor is for list and messages only');
  if (cmd !== 'messages')
    for (const name of ['from', 'to', 'fromIndex', 'toIndex', 'maxChars'] as const)
      if (flags[name] !== undefined)
        throw new UsageError(
          `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is for messages only`,
        );
  if (cmd === 'messages' && flags.roles !== undefined) rolesFlag(flags.roles);
  if (flags.allProfiles && cmd !== 'recent' && cmd !== 'search' && cmd !== 'list')
    throw new UsageError(
      `--all-profiles is for recent, search and list; ${cmd} takes a link (@session:PROFILE/ID) to read another profile`,
    );
  const scope = flags.agent?.trim().toLowerCase();
  const given = {
    ...(scope && scope !== 'all' ? { agent: scope } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
  };
  switch (cmd) {
    case 'recent': {
      expectArgs(cmd, rest, 0, '');
      const filters = filtersFrom(flags);
      // The agent's browse orders by last activity; the readable list puts pinned first.
      return {
        shape: 'browse',
        limit: limit ?? 20,
        all: flags.all,
        order: flags.json ? 'activity' : 'pinned-first',
        ...(Object.keys(filters).length > 0 ? { filters } : {}),
      };
    }
    case 'search': {
      if (rest.length === 0) throw new UsageError('search needs a QUERY');
      const sort = sortFlag(flags.sort);
      const roles = rolesFlag(flags.roles);
      const detail = detailFlag(flags.detail);
      const filters = filtersFrom(flags);
      return {
        shape: 'discover',
        query: rest.join(' '),
        limit: limit ?? 10,
        all: flags.all,
        ...(Object.keys(filters).length > 0 ? { filters } : {}),
        ...(sort ? { sort } : {}),
        ...(roles ? { roles } : {}),
        ...(detail ? { detail } : {}),
      };
    }
    case 'scroll': {
      // SESSION_ID MESSAGE_ID, or one anchor that names both (a scroll call, a scroll command).
      if (rest.length !== 1 && rest.length !== 2) expectArgs(cmd, rest, 2, 'SESSION_ID MESSAGE_ID');
      const [sid = '', mid] = rest;
      const window = intFlag('window', flags.window, -Infinity);
      const target = targetOf(sid, { ...given, ...(mid !== undefined ? { around: mid } : {}) });
      if (target.around === undefined)
        throw new UsageError(
          'scroll needs SESSION_ID MESSAGE_ID (or a scroll call copied from lookback)',
        );
      // Only Hermes can answer (a store named without --agent, or --agent hermes): its
      // message ids are numbers. `--db X --agent all` reads the other agents too.
      const hermesOnly =
        scope === 'hermes' || (!scope && Boolean(flags.db || flags.profile || flags.demo));
      if (hermesOnly && !/^\d+$/.test(target.around))
        throw new UsageError(`MESSAGE_ID must be a whole number, not "${target.around}"`);
      return {
        shape: 'scroll',
        target,
        ...(window !== undefined ? { window } : {}),
        ...(flags.all ? { all: true } : {}),
      };
    }
    case 'read': {
      expectArgs(cmd, rest, 1, 'SESSION_ID');
      const [sid = ''] = rest;
      const t = targetOf(sid, given);
      delete t.around;
      return { shape: 'read', target: t, ...(flags.all ? { all: true } : {}) };
    }
    case 'list': {
      expectArgs(cmd, rest, 0, '');
      const filters = filtersFrom(flags);
      if (filters.excludeSessionIds) throw new UsageError('--exclude is for search only');
      return {
        shape: 'list',
        limit: listLimit(limit),
        ...(flags.all ? { all: true } : {}),
        ...(flags.cursor !== undefined ? { cursor: flags.cursor.trim() } : {}),
        ...(Object.keys(filters).length > 0 ? { filters } : {}),
      };
    }
    case 'overview':
    case 'messages': {
      expectArgs(cmd, rest, 1, 'SESSION_ID');
      const t = targetOf(rest[0] ?? '', given);
      if (t.sessionId === '') throw new UsageError(`${cmd} needs a SESSION_ID`);
      delete t.around;
      delete t.window;
      if (cmd === 'overview')
        return { shape: 'overview', target: t, ...(flags.all ? { all: true } : {}) };
      return {
        shape: 'messages',
        target: t,
        range: rangeFrom(flags, limit),
        ...(flags.all ? { all: true } : {}),
      };
    }
  }
}

/** `lookback messages`' range flags, as the session_messages tool's arguments make them. */
function rangeFrom(flags: Flags, limit: number | undefined): MessageRange {
  const fromIndex = intFlag('from-index', flags.fromIndex, 0);
  const toIndex = intFlag('to-index', flags.toIndex, 0);
  if (fromIndex !== undefined && toIndex !== undefined && fromIndex > toIndex)
    throw new UsageError('--from-index must not be after --to-index');
  const roles = rolesFlag(flags.roles);
  const chars = intFlag('max-chars', flags.maxChars, 1);
  const from = textFlag('from', flags.from);
  const to = textFlag('to', flags.to);
  return {
    ...(fromIndex !== undefined ? { fromIndex } : {}),
    ...(toIndex !== undefined ? { toIndex } : {}),
    ...(from !== undefined ? { fromId: from } : {}),
    ...(to !== undefined ? { toId: to } : {}),
    ...(roles ? { roles: [...new Set(roles)] } : {}),
    limit: messagesLimit(limit),
    maxChars: maxChars(chars),
    ...(flags.cursor !== undefined ? { cursor: flags.cursor.trim() } : {}),
  };
}

/** The one anchor parser (src/recall/target.ts); a contradiction is a usage error. */
function targetOf(
  raw: string,
  given: Parameters<typeof parseTarget>[1],
): ReturnType<typeof parseTarget> {
  try {
    return parseTarget(raw, given);
  } catch (err) {
    if (err instanceof TargetError) throw new UsageError(err.message);
    throw err;
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

/** `lookback index` and `lookback sources`: the other agents' index itself (src/cli/agents.ts). */
async function indexCommands(
  cmd: 'index' | 'sources',
  rest: string[],
  flags: Flags,
): Promise<number> {
  if (flags.allProfiles)
    throw new UsageError('--all-profiles reads Hermes profiles; leave out --agent');
  const { runAgents } = await lazy.agents();
  try {
    return await runAgents(cmd, rest, {
      agent: flags.agent,
      sourceDir: flags.sourceDir,
      json: flags.json,
    });
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
  // --here, or LOOKBACK_HERE=1 as the default: the app starts in this folder's view (`.`).
  const here = flags.here === true || process.env.LOOKBACK_HERE === '1';
  return startApp({ ...flags, store, print, here, semantic: lazy.semantic });
}
