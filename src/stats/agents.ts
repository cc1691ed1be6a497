/**
 * The other agents as stats rows. Activity comes from lookback's index (brought
 * up to date first, as every command does): messages in five-minute slots, a
 * subagent's messages counted in its parent's conversation, a fork's copy of
 * its parent's lines not counted again. Tokens come from the agents' own usage
 * records (usage/*.ts), cached per file (usageCache.ts) and de-duplicated
 * across files by each format's key.
 */
import Database from 'better-sqlite3';
import { basename } from 'node:path';
import { indexPath } from '../agents/indexDb.js';
import { FLAG, type Agent } from '../agents/model.js';
import { AgentsSource } from '../recall/agents.js';
import { SLOT_SECONDS, type ActivityRow, type StatsFilters, type UsageRow } from './model.js';
import { claudeUsage } from './usage/claude.js';
import { codexUsage } from './usage/codex.js';
import { geminiUsage } from './usage/gemini.js';
import { opencodeUsage } from './usage/opencode.js';
import type { UsageRecord } from './usage/record.js';
import { openUsage, recordsOf, refresh, type UsageFile } from './usageCache.js';

/** The agents whose files record tokens, and the reader of each file. */
type Reader = Pick<UsageFile, 'read' | 'load' | 'with'>;
const text = (read: (t: string) => UsageRecord[]): Reader => ({ read });

const READERS: Partial<Record<Agent, (path: string) => Reader | null>> = {
  claude: (p) => (p.endsWith('.jsonl') ? text(claudeUsage) : null),
  codex: (p) => (p.endsWith('.jsonl') ? text(codexUsage) : null),
  gemini: (p) =>
    p.endsWith('.jsonl')
      ? text((t) => geminiUsage(t, false))
      : p.endsWith('.json')
        ? text((t) => geminiUsage(t, true))
        : null,
  opencode: (p) => (p.endsWith('.db') ? { load: opencodeUsage, with: [`${p}-wal`] } : null),
};

/** Why an agent shows no tokens, in one clause. */
export const NO_TOKENS: Partial<Record<Agent, string>> = {
  praisonai: 'records no token counts',
  aider: 'records no token counts per call',
};

export function recordsTokens(agent: string): boolean {
  return agent in READERS;
}

export interface AgentRows {
  activity: ActivityRow[];
  usage: UsageRow[];
  filesRead: number;
}

interface FileConv {
  path: string;
  agent: Agent;
  conv: string | null;
  cwd: string | null;
}

export function agentRows(
  agents: readonly Agent[],
  env: NodeJS.ProcessEnv,
  host: string,
  f: StatsFilters,
  warn: (line: string) => void,
): AgentRows {
  if (agents.length === 0) return { activity: [], usage: [], filesRead: 0 };
  // An incremental pass over what changed, as every command starts (recall/agents.ts).
  const source = new AgentsSource(agents, { env, freshMs: 3000, warn });
  source.begin();
  source.close();
  const db = new Database(indexPath(env), { readonly: true, fileMustExist: true });
  try {
    const list = agents.map(() => '?').join(', ');
    const range: unknown[] = [];
    let when = '';
    if (f.after !== undefined) {
      when += ' AND m.created_at >= ?';
      range.push(f.after * 1000);
    }
    if (f.before !== undefined) {
      when += ' AND m.created_at < ?';
      range.push(f.before * 1000);
    }
    const folder = f.cwd !== undefined ? ` AND (c.cwd = ? OR substr(c.cwd, 1, length(?)) = ?)` : '';
    const prefix = f.cwd !== undefined ? f.cwd.replace(/\/$/, '') + '/' : '';
    const folderArgs = f.cwd !== undefined ? [f.cwd, prefix, prefix] : [];
    const rows = db
      .prepare(
        `SELECT c.agent AS agent,
           CASE WHEN c.parent_kind = 'subagent' AND c.parent_native_id IS NOT NULL
             THEN c.parent_native_id ELSE c.native_id END AS conv,
           c.cwd AS cwd, CAST(m.created_at / ${SLOT_SECONDS * 1000} AS INTEGER) AS slot,
           sum(m.role IN ('user', 'assistant')) AS messages, sum(m.role = 'tool') AS tools
         FROM messages m JOIN conversations c ON c.id = m.conv_id
         WHERE c.agent IN (${list}) AND c.gone = 0 AND (m.flags & ${FLAG.copied}) = 0
           AND m.created_at IS NOT NULL${when}${folder}
         GROUP BY m.conv_id, slot`,
      )
      .all(...agents, ...range, ...folderArgs) as Omit<ActivityRow, 'profile' | 'host'>[];
    const activity = rows.map((r) => ({ ...r, profile: null, host }));
    const files = db
      .prepare(
        `SELECT f.path AS path, f.agent AS agent,
           CASE WHEN c.parent_kind = 'subagent' AND c.parent_native_id IS NOT NULL
             THEN c.parent_native_id ELSE c.native_id END AS conv, c.cwd AS cwd
         FROM files f LEFT JOIN conversations c ON c.id = f.conv_id
         WHERE f.agent IN (${list})`,
      )
      .all(...agents) as FileConv[];
    // A database (opencode) holds many sessions: its records name theirs.
    const sessionOf = db.prepare(
      `SELECT native_id AS conv, cwd FROM conversations WHERE agent = ? AND native_id = ?`,
    );
    const inFolder = (c: string | null) =>
      f.cwd === undefined || (c !== null && (c === f.cwd || c.startsWith(prefix)));
    const wanted: (UsageFile & FileConv)[] = [];
    for (const file of files) {
      const reader = READERS[file.agent]?.(file.path);
      if (reader) wanted.push({ ...file, ...reader });
    }
    const cache = openUsage(env);
    try {
      const filesRead = refresh(cache, wanted, f.after);
      const byPath = new Map(wanted.map((w) => [w.path, w]));
      const usage: UsageRow[] = [];
      for (const r of recordsOf(cache, [...byPath.keys()], f.after, f.before)) {
        const file = byPath.get(r.path)!;
        let conv = file.conv;
        let cwd = file.cwd;
        if (conv === null) {
          const session = /^opencode:(.*):[^:]*$/.exec(r.key)?.[1];
          const found = session
            ? (sessionOf.get(file.agent, session) as
                { conv: string; cwd: string | null } | undefined)
            : undefined;
          conv = found?.conv ?? session ?? basename(r.path);
          cwd = found?.cwd ?? null;
        }
        if (!inFolder(cwd)) continue;
        usage.push({
          agent: file.agent,
          profile: null,
          host,
          model: r.model,
          at: r.at,
          conv,
          cwd,
          input: r.input,
          output: r.output,
          cacheRead: r.cacheRead,
          cacheWrite: r.cacheWrite,
          reasoning: r.reasoning,
          cost: r.cost,
          // The only agent recording a cost per call (opencode) computes it from its own price list.
          costKind: r.cost === null ? null : 'estimated',
        });
      }
      return { activity, usage, filesRead };
    } finally {
      cache.close();
    }
  } finally {
    db.close();
  }
}
