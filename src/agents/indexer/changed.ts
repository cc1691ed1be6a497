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

/**
 * The files of `agent` that changed since they were last read, the bytes they
 * hold to read, and how many were stat'ed; counts `files` and `unchanged` into
 * the report. `statRows` reads every stored row of the agent at once (a query per
 * file cost 80 ms of a 150 ms pass over 10,000 unchanged files).
 */
export function changedFiles(
  agent: Agent,
  files: readonly SourceFile[],
  report: IndexReport,
  stmts: { statRows: Database.Statement; getFile: Database.Statement },
): { work: Work[]; bytesTotal: number; statted: number } {
  const { statRows, getFile } = stmts;
  const work: Work[] = [];
  const chains = agent === 'codex' ? codexChains(files) : new Map<string, SourceFile[]>();
  // Threads with a changed segment: read again as one, from their newest file.
  const changedChains = new Map<string, boolean>();
  let bytesTotal = 0;
  let statted = 0;
  const known = new Map(
    (
      statRows.all(agent) as Pick<
        FileRow,
        'path' | 'dev' | 'ino' | 'size' | 'mtime_ms' | 'parser_version'
      >[]
    ).map((r) => [r.path, r]),
  );
  for (const file of files) {
    if (file.agent === 'gemini' && geminiLegacyShadowed(file.path)) continue;
    let st: Stats;
    try {
      st = statSync(file.path);
    } catch {
      continue; // gone between the listing and the stat
    }
    report.files++;
    statted++;
    const seenRow = known.get(file.path);
    // opencode: a write always touches the database or its -wal; the legacy tree, a session file.
    const walMtime =
      file.format === 'sqlite'
        ? walSignature(file.path)
        : file.format === 'storage'
          ? storageStamp(file.path)
          : 0;
    if (
      seenRow &&
      seenRow.parser_version === PARSER_VERSION[agent] &&
      seenRow.dev === st.dev &&
      seenRow.ino === st.ino &&
      seenRow.size === st.size &&
      seenRow.mtime_ms === st.mtimeMs + walMtime
    ) {
      report.unchanged++;
      continue;
    }
    const thread = chains.size > 0 ? codexFileId(file.path) : null;
    const chain = thread !== null ? chains.get(thread) : undefined;
    if (thread !== null && chain) {
      const last = chain[chain.length - 1]!;
      changedChains.set(thread, (changedChains.get(thread) ?? false) || file !== last);
      continue;
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
  for (const [thread, forceFull] of changedChains) {
    const chain = chains.get(thread)!;
    const last = chain[chain.length - 1]!;
    let st: Stats;
    try {
      st = statSync(last.path);
    } catch {
      continue;
    }
    const row = getFile.get(last.path) as FileRow | undefined;
    work.push({ file: last, st, row, chain, forceFull });
    bytesTotal += st.size;
  }
  return { work, bytesTotal, statted };
}
