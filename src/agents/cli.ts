/**
 * The command line over other agents' histories: `lookback index`, `lookback
 * sources`, and `--agent NAME|all` on recent, search, scroll and read. Kept apart
 * from src/cli/commands.ts, which only hands these over.
 */
import { inertJson } from '../cli/commands.js';
import { printText } from '../cli/text.js';
import { hookFailure, hookPayload } from '../cli/answerHook.js';
import { StoreError } from '../store/errors.js';
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';
import { sourceRoots, type Overrides } from './discover.js';
import { indexAll } from './indexer.js';
import { indexPath, openIndex, passIsFresh, stampPass } from './indexDb.js';
import { AGENTS, isAgent, type Agent } from './model.js';
import { progressBar } from './progress.js';
import { readAgentsJson, recentAgentsJson, scrollAgentsJson, searchAgentsJson } from './recall.js';
import { sourcesJson, sourcesText } from './sources.js';

export const AGENT_NAMES = ['hermes', ...AGENTS] as const;

/** A pass that ended this recently (by any process, over every agent) is not repeated. */
const CLI_FRESH_MS = 3_000;

export class AgentUsageError extends Error {}

export interface AgentFlags {
  agent?: string | undefined;
  sourceDir?: string[] | undefined;
  json: boolean;
  all: boolean;
  limit?: number | undefined;
  sort?: 'relevance' | 'newest' | 'oldest' | undefined;
  roles?: string[] | undefined;
  window?: number | undefined;
}

/** What `--agent` selects: Hermes, some indexed agents, or both. */
export function agentSelection(value: string | undefined): { hermes: boolean; agents: Agent[] } {
  const v = (value ?? 'hermes').trim().toLowerCase();
  if (v === 'all') return { hermes: true, agents: [...AGENTS] };
  if (v === 'hermes') return { hermes: true, agents: [] };
  if (isAgent(v)) return { hermes: false, agents: [v] };
  throw new AgentUsageError(`--agent takes ${AGENT_NAMES.join(', ')} or all, not "${value}"`);
}

export function parseSourceDirs(values: string[] | undefined): Overrides {
  const out: Overrides = {};
  for (const v of values ?? []) {
    const eq = v.indexOf('=');
    const name = eq > 0 ? v.slice(0, eq).trim().toLowerCase() : '';
    const path = eq > 0 ? v.slice(eq + 1) : '';
    if (!isAgent(name) || !path)
      throw new AgentUsageError(
        `--source-dir takes AGENT=PATH with AGENT one of ${AGENTS.join(', ')}, not "${v}"`,
      );
    out[name] = path;
  }
  return out;
}

type Payload = Record<string, Json>;

/** Answers one command from the index (and Hermes, through `hermes`, when selected). */
export function runAgents(
  cmd: string,
  rest: string[],
  flags: AgentFlags,
  hermes: () => Promise<Payload>,
): Promise<number> {
  return run(cmd, rest, flags, hermes).catch((err: unknown) => {
    if (err instanceof AgentUsageError) throw err;
    const message =
      err instanceof StoreError
        ? err.message
        : `unexpected error: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
    if (hookFailure(message)) return 1;
    if (flags.json) process.stdout.write(inertJson({ success: false, error: message }) + '\n');
    else process.stderr.write(`lookback: ${sanitizeLine(message)}\n`);
    return 1;
  });
}

async function run(
  cmd: string,
  rest: string[],
  flags: AgentFlags,
  hermes: () => Promise<Payload>,
): Promise<number> {
  const overrides = parseSourceDirs(flags.sourceDir);
  const file = indexPath();
  const sel =
    cmd === 'index' || cmd === 'sources'
      ? { hermes: false, agents: [...AGENTS] }
      : agentSelection(flags.agent);
  if (cmd === 'index' || cmd === 'sources') {
    if (flags.agent && flags.agent !== 'all') {
      const s = agentSelection(flags.agent);
      if (s.agents.length === 0)
        throw new AgentUsageError(`${cmd} covers the other agents; Hermes needs no index`);
      sel.agents = s.agents;
    }
    if (rest.length > 0) throw new AgentUsageError(`${cmd} takes no arguments`);
  }
  const opened = sel.agents.length > 0 ? openIndex(file) : null;
  const db = opened?.db ?? null;
  try {
    if (opened?.rebuilt && opened.rebuilt !== 'missing')
      process.stderr.write(`lookback: index ${opened.rebuilt}; rebuilt from the agents' files\n`);
    if (cmd === 'sources') {
      const payload = sourcesJson(db!, sourceRoots(process.env, overrides), file);
      if (flags.json) process.stdout.write(inertJson(payload) + '\n');
      else process.stdout.write(sourcesText(payload, sanitizeLine) + '\n');
      return 0;
    }
    // Every answer starts with an incremental pass (only what changed is read),
    // unless a pass over the same files ended moments ago (the open app runs one
    // every second or so); `lookback index` always runs it.
    const fresh =
      cmd !== 'index' &&
      !opened?.rebuilt &&
      Object.keys(overrides).length === 0 &&
      passIsFresh(file, CLI_FRESH_MS);
    if (db && !fresh) {
      const bar = progressBar();
      const report = indexAll(db, { overrides, agents: sel.agents, onProgress: bar.update });
      bar.done();
      if (sel.agents.length === AGENTS.length && Object.keys(overrides).length === 0)
        stampPass(file);
      if (cmd === 'index') {
        const summary = {
          success: true,
          index: file,
          files: report.files,
          parsed: report.parsed,
          unchanged: report.unchanged,
          messages: report.messages,
          bytes_read: report.bytesRead,
          ms: Math.round(report.ms),
        };
        if (flags.json) process.stdout.write(JSON.stringify(summary) + '\n');
        else
          process.stdout.write(
            `indexed ${report.parsed} of ${report.files} files (${report.unchanged} unchanged), ${report.messages} messages, ${(report.bytesRead / 1048576).toFixed(1)} MB in ${(report.ms / 1000).toFixed(1)} s → ${sanitizeLine(file)}\n`,
          );
        return 0;
      }
    }
    const payload = await answer(cmd, rest, flags, sel, db, hermes);
    emit(cmd, payload, flags.json);
    return 0;
  } finally {
    db?.close();
  }
}

function tagHermes(p: Payload): Payload {
  const tag = (x: Json) =>
    x && typeof x === 'object' && !Array.isArray(x) ? { ...x, agent: 'hermes' } : x;
  const out: Payload = { ...p };
  if (Array.isArray(p.results)) out.results = p.results.map(tag);
  if (p.session_meta) out.session_meta = tag(p.session_meta);
  return out;
}

async function hermesOrNull(
  hermes: () => Promise<Payload>,
  alone: boolean,
): Promise<Payload | null> {
  if (alone) return tagHermes(await hermes());
  try {
    return tagHermes(await hermes());
  } catch (err) {
    // With --agent all, a missing Hermes store leaves the other agents' answer.
    if (err instanceof StoreError) {
      process.stderr.write(`lookback: warning: Hermes skipped: ${sanitizeLine(err.message)}\n`);
      return null;
    }
    throw err;
  }
}

async function answer(
  cmd: string,
  rest: string[],
  flags: AgentFlags,
  sel: { hermes: boolean; agents: Agent[] },
  db: import('better-sqlite3').Database | null,
  hermes: () => Promise<Payload>,
): Promise<Payload> {
  if (!db) return tagHermes(await hermes());
  const limit = flags.limit;
  switch (cmd) {
    case 'recent': {
      const ours = recentAgentsJson(db, sel.agents, { limit: limit ?? 20, all: flags.all });
      const h = sel.hermes ? await hermesOrNull(hermes, false) : null;
      if (!h) return ours;
      const merged = [...(h.results as Payload[]), ...(ours.results as Payload[])]
        .sort((a, b) => Number(b.last_active ?? 0) - Number(a.last_active ?? 0))
        .slice(0, limit ?? 20);
      return {
        ...ours,
        results: merged,
        count: merged.length,
        message: `Showing ${merged.length} most recent sessions. Pass a query= to search, or session_id+around_message_id to scroll.`,
      };
    }
    case 'search': {
      const q = rest.join(' ');
      const ours = searchAgentsJson(db, q, sel.agents, {
        limit: limit ?? 10,
        all: flags.all,
        ...(flags.sort ? { sort: flags.sort } : {}),
        ...(flags.roles ? { roles: flags.roles } : {}),
      });
      const h = sel.hermes ? await hermesOrNull(hermes, false) : null;
      if (!h || !Array.isArray(h.results) || h.results.length === 0) return ours;
      const a = h.results as Payload[];
      const b = (ours.results ?? []) as Payload[];
      // Scores of two indexes do not compare: take turns for relevance, merge by time otherwise.
      let merged: Payload[] = [];
      if (!flags.sort || flags.sort === 'relevance')
        for (let i = 0; i < Math.max(a.length, b.length); i++)
          merged.push(...[a[i], b[i]].filter((x): x is Payload => !!x));
      else {
        const dir = flags.sort === 'newest' ? -1 : 1;
        merged = [...a, ...b].sort((x, y) => dir * String(x.when).localeCompare(String(y.when)));
      }
      merged = merged.slice(0, limit ?? 10);
      return { ...h, results: merged, count: merged.length, sessions_searched: merged.length };
    }
    case 'scroll':
    case 'read': {
      const [sid = '', anchor = ''] = rest;
      try {
        return cmd === 'scroll'
          ? scrollAgentsJson(db, sel.agents, sid, anchor, flags.window)
          : readAgentsJson(db, sel.agents, sid);
      } catch (err) {
        if (sel.hermes && err instanceof StoreError) return tagHermes(await hermes());
        throw err;
      }
    }
    default:
      throw new AgentUsageError(`unknown command "${cmd}"`);
  }
}

function emit(cmd: string, answer: Payload, json: boolean): void {
  const p = hookPayload(cmd, answer);
  if (!p) return;
  if (json) {
    process.stdout.write(inertJson(p) + '\n');
    return;
  }
  if (cmd !== 'search') {
    // recent, scroll and read print like Hermes answers; the shared printer sanitizes.
    printText(cmd, p);
    return;
  }
  const results = (p.results ?? []) as Payload[];
  if (results.length === 0)
    process.stdout.write(`${sanitizeLine(String(p.message ?? 'No matching sessions found.'))}\n`);
  for (const r of results) {
    const agent = String(r.agent ?? 'hermes');
    process.stdout.write(
      `${sanitizeLine(String(r.title ?? '') || '(untitled)')} · ${agent} · ${sanitizeLine(String(r.when ?? ''))}\n` +
        `  ${sanitizeLine(String(r.snippet ?? ''))}\n` +
        `  lookback scroll --agent ${agent} ${JSON.stringify(sanitizeLine(String(r.session_id)))} ${sanitizeLine(String(r.match_message_id))}\n\n`,
    );
  }
}
