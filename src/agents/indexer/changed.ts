/**
 * The unchanged test of a pass: which of an agent's listed files need reading
 * (stat against the stored `files` row, with the change signals of stamps.ts),
 * a Codex thread with any changed segment read again as one from its newest file.
 */
import type Database from 'better-sqlite3';
import { statSync, type Stats } from 'node:fs';
import type { SourceFile } from '../discover.js';
import type { Agent } from '../model.js';
import { codexFileId } from '../parsers/codex.js';
import { geminiLegacyShadowed } from '../parsers/gemini.js';
import { PARSER_VERSION } from './parserVersion.js';
import { codexChains } from './codexChains.js';
import { statIsSignal, storageStamp, walSignature } from './stamps.js';
import type { FileRow, IndexReport } from './types.js';

/** One file to read in this pass (`chain`: every file of its Codex thread, oldest first). */
export interface Work {
  file: SourceFile;
  st: Stats;
  row: FileRow | undefined;
  chain?: SourceFile[];
  forceFull?: boolean;
}

/** What the unchanged test needs of a stored `files` row: dev, ino, size, mtime_ms, parser_version. */
export type Signature = readonly [number, number, number, number, number];

/**
 * Every stored file signature of the agents asked for, by agent and path, in one
 * statement per pass (a query per agent scanned the table eleven times, and row
 * objects cost more to build than these arrays).
 */
function storedSignatures(
  db: Database.Database,
  agents: readonly Agent[],
): Map<Agent, Map<string, Signature>> {
  const out = new Map<Agent, Map<string, Signature>>(agents.map((a) => [a, new Map()]));
  const rows = db
    .prepare(`SELECT agent, path, dev, ino, size, mtime_ms, parser_version FROM files`)
    .raw(true)
    .all() as [Agent, string, number, number, number, number, number][];
  for (const r of rows) out.get(r[0])?.set(r[1], [r[2], r[3], r[4], r[5], r[6]]);
  return out;
}

/** What the unchanged test compares a listed file with: its stored signature, or none. */
export type Known = (path: string) => Signature | undefined;

/** One agent's unchanged test: its stored signatures, the files found unchanged already, its stored count. */
export interface AgentTest {
  known: Known;
  /** 1 where sameByStat found the listed file unchanged; null without the extension. */
  same: Uint8Array | null;
  /** How many files of the agent the index holds (the quiet test's count). */
  stored: () => number;
}

/**
 * The unchanged test of one pass, per agent: with the extension (hasSameStat),
 * one statement per agent (sameByStat) and a stored row read only for what it
 * leaves; without it, every stored signature read once for every agent.
 */
export function unchangedTest(
  db: Database.Database,
  agents: readonly Agent[],
  getFile: Database.Statement,
  native: boolean,
): (agent: Agent, files: readonly SourceFile[]) => AgentTest {
  if (!native) {
    const stored = storedSignatures(db, agents);
    return (agent) => {
      const map = stored.get(agent)!;
      return { known: (path) => map.get(path), same: null, stored: () => map.size };
    };
  }
  const sameStmt = db.prepare(SAME_BY_STAT_SQL).pluck();
  const count = db.prepare(`SELECT count(*) FROM files WHERE agent = ?`).pluck();
  return (agent, files) => ({
    known: knownByRow(getFile, agent),
    same: sameByStat(sameStmt, agent, files),
    stored: () => count.get(agent) as number,
  });
}

/**
 * One stored row's signature, read when asked (the few files the native test
 * leaves); a row of another agent is none, as in the per-agent map.
 */
function knownByRow(getFile: Database.Statement, agent: Agent): Known {
  return (path) => {
    const row = getFile.get(path) as (FileRow & { agent: string }) | undefined;
    return row && row.agent === agent
      ? [row.dev, row.ino, row.size, row.mtime_ms, row.parser_version]
      : undefined;
  };
}

/**
 * The listed files that native/filestat.c found unchanged (1) in one statement:
 * each file whose own stat is its whole change signal (statIsSignal) joined to its
 * stored row and stat'ed in C. Only the others come back to JavaScript. The same
 * test as changedFiles' own, field for field (tests/agents/sameStat.test.ts).
 */
function sameByStat(
  stmt: Database.Statement,
  agent: Agent,
  files: readonly SourceFile[],
): Uint8Array {
  const same = new Uint8Array(files.length);
  const paths: string[] = [];
  const at: number[] = [];
  files.forEach((f, i) => {
    if (!statIsSignal(f.format)) return;
    paths.push(f.path);
    at.push(i);
  });
  if (paths.length === 0) return same;
  for (const i of at) same[i] = 1;
  const differ = stmt.all(JSON.stringify(paths), agent, PARSER_VERSION[agent]) as number[];
  for (const k of differ) same[at[k]!] = 0;
  return same;
}

/** The statement sameByStat runs: the keys (list positions) of the files not shown unchanged. */
export const SAME_BY_STAT_SQL = `
  SELECT j.key FROM json_each(?) j
  LEFT JOIN files f ON f.path = j.value AND f.agent = ?
  WHERE f.path IS NULL OR f.parser_version IS NOT ?
     OR lookback_same_stat(j.value, f.dev, f.ino, f.size, f.mtime_ms) IS NOT 1`;

/**
 * The files of `agent` that changed since they were last read, the bytes they
 * hold to read, and how many were stat'ed; counts `files` and `unchanged` into
 * the report. An unchanged file costs one stat and one map lookup, or nothing here
 * when sameByStat already found it unchanged (`same`): that loop and that
 * statement are the whole of an idle pass over 10,000 files.
 */
export function changedFiles(
  agent: Agent,
  files: readonly SourceFile[],
  { known, same }: Pick<AgentTest, 'known' | 'same'>,
  report: IndexReport,
  getFile: Database.Statement,
): { work: Work[]; bytesTotal: number; statted: number } {
  const work: Work[] = [];
  const version = PARSER_VERSION[agent];
  // A Codex thread's files, grouped only once one of them changed (a regex per file otherwise).
  let chains: Map<string, SourceFile[]> | null = null;
  // Threads with a changed segment: read again as one, from their newest file.
  const changedChains = new Map<string, boolean>();
  let bytesTotal = 0;
  let statted = 0;
  let unchanged = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (agent === 'gemini' && file.format === 'json' && geminiLegacyShadowed(file.path)) continue;
    if (same !== null && same[i] === 1) {
      // Stat'ed in C and equal to its row (sameByStat): no Stats object, no row read.
      statted++;
      unchanged++;
      continue;
    }
    const st = statSync(file.path, { throwIfNoEntry: false });
    if (st === undefined) continue; // gone between the listing and the stat
    statted++;
    const seen = known(file.path);
    // opencode: a write always touches the database or its -wal; the legacy tree, a session file.
    const walMtime = statIsSignal(file.format)
      ? 0
      : file.format === 'sqlite'
        ? walSignature(file.path)
        : storageStamp(file.path);
    if (
      seen !== undefined &&
      seen[4] === version &&
      seen[0] === st.dev &&
      seen[1] === st.ino &&
      seen[2] === st.size &&
      seen[3] === st.mtimeMs + walMtime
    ) {
      unchanged++;
      continue;
    }
    if (agent === 'codex') {
      chains ??= codexChains(files);
      const thread = chains.size > 0 ? codexFileId(file.path) : null;
      const chain = thread !== null ? chains.get(thread) : undefined;
      if (thread !== null && chain) {
        const last = chain[chain.length - 1]!;
        changedChains.set(thread, (changedChains.get(thread) ?? false) || file !== last);
        continue;
      }
    }
    const row = getFile.get(file.path) as FileRow | undefined;
    work.push({ file, st, row });
    bytesTotal +=
      (file.format === 'jsonl' || file.format === 'md') &&
      row &&
      row.ino === st.ino &&
      st.size >= row.size
        ? st.size - row.byte_offset
        : st.size;
  }
  report.files += statted;
  report.unchanged += unchanged;
  for (const [thread, forceFull] of changedChains) {
    const chain = chains!.get(thread)!;
    const last = chain[chain.length - 1]!;
    const st = statSync(last.path, { throwIfNoEntry: false });
    if (st === undefined) continue;
    const row = getFile.get(last.path) as FileRow | undefined;
    work.push({ file: last, st, row, chain, forceFull });
    bytesTotal += st.size;
  }
  return { work, bytesTotal, statted };
}
