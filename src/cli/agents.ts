/**
 * `lookback index` and `lookback sources`: the other agents' index itself
 * (loaded only for these commands, through lazy.ts). Recall over the agents'
 * histories (`--agent NAME|all` on recent, search, scroll and read) goes
 * through the recall core like every other source (src/recall).
 */
import { sourceRoots } from '../agents/discover.js';
import { indexAll } from '../agents/indexer.js';
import { indexPath, openIndex, passIsFresh, stampPass } from '../agents/indexDb.js';
import { AGENTS } from '../agents/model.js';
import { progressBar } from '../agents/progress.js';
import { AgentUsageError, parseSourceDirs } from '../agents/sourceDirs.js';
import { sourcesJson, sourcesText } from '../agents/sources.js';
import { agentScope } from '../recall/sources.js';
import { StoreError } from '../store/errors.js';
import { sanitizeLine } from '../text/sanitize.js';
import { inertJson } from './json.js';
import { UsageError } from '../recall/usage.js';
import { SOURCES_FRESH_MS } from '../budgets.js';

export { AgentUsageError };

export interface AgentFlags {
  agent?: string | undefined;
  sourceDir?: string[] | undefined;
  json: boolean;
}

/** Runs `index` or `sources`; returns the exit code. */
export function runAgents(
  cmd: 'index' | 'sources',
  rest: string[],
  flags: AgentFlags,
): Promise<number> {
  return Promise.resolve()
    .then(() => run(cmd, rest, flags))
    .catch((err: unknown) => {
      if (err instanceof AgentUsageError || err instanceof UsageError) throw err;
      const message =
        err instanceof StoreError
          ? err.message
          : `unexpected error: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
      if (flags.json) process.stdout.write(inertJson({ success: false, error: message }) + '\n');
      else process.stderr.write(`lookback: ${sanitizeLine(message)}\n`);
      return 1;
    });
}

function run(cmd: 'index' | 'sources', rest: string[], flags: AgentFlags): number {
  const overrides = parseSourceDirs(flags.sourceDir);
  let agents = [...AGENTS];
  if (flags.agent && flags.agent.trim().toLowerCase() !== 'all') {
    const s = agentScope(flags.agent);
    if (s.agents.length === 0)
      throw new AgentUsageError(`${cmd} covers the other agents; Hermes needs no index`);
    agents = s.agents;
  }
  if (rest.length > 0) throw new AgentUsageError(`${cmd} takes no arguments`);
  const file = indexPath();
  const opened = openIndex(file);
  const db = opened.db;
  try {
    if (opened.rebuilt && opened.rebuilt !== 'missing')
      process.stderr.write(`lookback: index ${opened.rebuilt}; rebuilt from the agents' files\n`);
    // `sources` starts with the incremental pass too (only what changed is read), unless
    // one over the same files ended moments ago: its counts are of what is on disk now,
    // never the "0 conversations" of an index no pass has filled yet.
    const fresh =
      cmd === 'sources' &&
      !opened.rebuilt &&
      Object.keys(overrides).length === 0 &&
      passIsFresh(file, SOURCES_FRESH_MS);
    const bar = progressBar();
    const report = fresh ? null : indexAll(db, { overrides, agents, onProgress: bar.update });
    bar.done();
    if (report && agents.length === AGENTS.length && Object.keys(overrides).length === 0)
      stampPass(file);
    if (cmd === 'sources') {
      const payload = sourcesJson(db, sourceRoots(process.env, overrides), file);
      if (flags.json) process.stdout.write(inertJson(payload) + '\n');
      else process.stdout.write(sourcesText(payload, sanitizeLine) + '\n');
      return 0;
    }
    if (!report) return 0;
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
  } finally {
    db.close();
  }
}
