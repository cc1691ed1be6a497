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
import { storageStamp, walSignature } from './stamps.js';
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
export function storedSignatures(
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

/**
 * The files of `agent` that changed since they were last read, the bytes they
 * hold to read, and how many were stat'ed; counts `files` and `unchanged` into
 * the report. An unchanged file costs one stat and one map lookup: that loop is
 * the whole of an idle pass over 10,000 files.
 */
export function changedFiles(
  agent: Agent,
  files: readonly SourceFile[],
  known: ReadonlyMap<string, Signature>,
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
  for (const file of files) {
    if (agent === 'gemini' && file.format === 'json' && geminiLegacyShadowed(file.path)) continue;
    const st = statSync(file.path, { throwIfNoEntry: false });
    if (st === undefined) continue; // gone between the listing and the stat
    statted++;
    const seen = known.get(file.path);
    // opencode: a write always touches the database or its -wal; the legacy tree, a session file.
    const walMtime =
      file.format === 'sqlite'
        ? walSignature(file.path)
        : file.format === 'storage'
          ? storageStamp(file.path)
          : 0;
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
