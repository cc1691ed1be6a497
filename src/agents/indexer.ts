/**
 * One indexing pass: stat every known and newly listed source file, parse only
 * what changed (from the saved byte offset when the file only grew), and write the
 * results in one transaction per batch of files, so a crash leaves the previous
 * state. Sessions whose files vanished stay, marked `gone` (AGENTS.md rule 3).
 */
import type Database from 'better-sqlite3';
import { deferFtsIfFirst, fillFts, mergeFtsStepwise, refreshTermDocs } from './indexDb.js';
import { REWRITE_MERGE } from '../budgets.js';
import { pass } from './indexer/pass.js';
import type { IndexOptions, IndexReport } from './indexer/types.js';

// The parts live in src/agents/indexer/ (reading a file, the writer, the pass,
// sources with many sessions); the names callers use are re-exported here.
export type { IndexOptions, IndexReport, Progress } from './indexer/types.js';
export { PARSER_VERSION } from './indexer/parserVersion.js';

/**
 * Runs one pass over every agent's sources (or the ones asked for). Writes take
 * the lock up front (BEGIN IMMEDIATE), so two lookback processes indexing at once
 * wait for each other instead of failing on a stale read snapshot.
 */
export function indexAll(db: Database.Database, opts: IndexOptions = {}): IndexReport {
  const t0 = performance.now();
  // A first build (an empty index) fills the FTS tables once at the end, not per row;
  // a first build that stopped part way is carried on the same way.
  const deferred = deferFtsIfFirst(db);
  let report: IndexReport;
  try {
    report = pass(db, opts);
  } catch (err) {
    if (deferred)
      try {
        fillFts(db); // what was written is searchable; the next pass carries on
      } catch {
        /* the next pass fills them */
      }
    throw err;
  }
  if (deferred) fillFts(db);
  else if (report.messages >= REWRITE_MERGE.messages && rewroteMuch(db, report.messages))
    mergeFtsStepwise(db, REWRITE_MERGE.pages);
  // Only a pass that wrote: an idle pass reads nothing more (tests/agents/idleCost.test.ts).
  if (deferred || report.messages > 0) refreshTermDocs(db);
  report.ms = performance.now() - t0;
  return report;
}

/** Whether a pass's messages are a large share of the index (REWRITE_MERGE): counted only after a large pass. */
function rewroteMuch(db: Database.Database, messages: number): boolean {
  const total = db.prepare(`SELECT count(*) FROM messages`).pluck().get() as number;
  return messages >= total * REWRITE_MERGE.share;
}
