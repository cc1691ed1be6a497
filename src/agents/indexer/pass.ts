/**
 * One pass over every agent's sources: list and stat the files, skip the
 * unchanged ones, parse the rest (a Codex thread as one, a database source per
 * session), write them in batches of one transaction each, and mark files that
 * vanished as gone.
 */
import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { listFiles, sourceRoots } from '../discover.js';
import { applyCodexTitles } from '../codexTitles.js';
import { AGENTS, type Agent } from '../model.js';
import { parseFile } from './parseFile.js';
import { Writer, write } from './writer.js';
import {
  indexMoreDb,
  indexOpencode,
  indexOpencodeStorage,
  indexPraisonaiDb,
} from './manySessions.js';
import { changedFiles, unchangedTest } from './changed.js';
import { hasSameStat } from '../rankExt.js';
import type { IndexOptions, IndexReport, Parsed } from './types.js';
import { BATCH_FILES, BATCH_MESSAGES, SOURCE_STAMP_MS } from '../../budgets.js';

export function pass(db: Database.Database, opts: IndexOptions): IndexReport {
  const env = opts.env ?? process.env;
  const agents = opts.agents ?? AGENTS;
  const roots = sourceRoots(env, opts.overrides).filter((r) => agents.includes(r.agent));
  const report: IndexReport = {
    roots,
    files: 0,
    parsed: 0,
    unchanged: 0,
    bytesRead: 0,
    messages: 0,
    ms: 0,
  };
  const writer = new Writer(db);
  const getFile = db.prepare(`SELECT * FROM files WHERE path = ?`);
  const setSource = db.prepare(
    `INSERT INTO sources (agent, last_indexed_at, roots) VALUES (?, ?, ?)
     ON CONFLICT (agent) DO UPDATE SET last_indexed_at = excluded.last_indexed_at, roots = excluded.roots`,
  );
  // With the extension, one statement per agent; else every stored signature, read once.
  const testFor = unchangedTest(db, agents, getFile, hasSameStat(db));
  const sources = new Map(
    (
      db.prepare(`SELECT agent, last_indexed_at, roots FROM sources`).all() as {
        agent: string;
        last_indexed_at: number;
        roots: string;
      }[]
    ).map((r) => [r.agent, r]),
  );

  for (const agent of agents) {
    const agentRoots = roots.filter((r) => r.agent === agent);
    const files = agentRoots.flatMap((r) => listFiles(r));
    const test = testFor(agent, files);
    const { work, bytesTotal, statted } = changedFiles(agent, files, test, report, getFile);
    let filesDone = 0;
    let bytesDone = 0;
    let batch: Parsed[] = [];
    let batchMessages = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const items = batch;
      db.transaction(() => {
        const written = new Set<number>();
        for (const p of items) {
          const id = write(writer, p);
          if (id !== null) written.add(id);
        }
        // Once per batch, not per file: the pairs come from one scan.
        if (agent === 'claude') writer.linkCopies('claude', written);
        writer.finishStats();
      }).immediate();
      batch = [];
      batchMessages = 0;
    };
    for (const { file, st, row, chain, forceFull } of work) {
      if (file.format === 'storage') {
        flush();
        report.messages += indexOpencodeStorage(db, writer, file, st, row);
      } else if (file.format === 'sqlite') {
        flush();
        report.messages +=
          agent === 'opencode'
            ? indexOpencode(db, writer, file, st, row)
            : agent === 'praisonai'
              ? indexPraisonaiDb(db, writer, file, st, row)
              : indexMoreDb(db, writer, file, st, row);
      } else {
        const p = parseFile(file, st, row, chain, forceFull);
        batch.push(p);
        const n = p.results.reduce((a, r) => a + r.messages.length, 0);
        batchMessages += n;
        report.messages += n;
        bytesDone += p.full ? st.size : st.size - (row?.byte_offset ?? 0);
        if (batch.length >= BATCH_FILES || batchMessages >= BATCH_MESSAGES) flush();
      }
      report.parsed++;
      filesDone++;
      opts.onProgress?.({
        agent,
        filesDone,
        filesTotal: work.length,
        bytesDone,
        bytesTotal,
        messages: report.messages,
      });
    }
    flush();
    report.bytesRead += bytesDone;
    if (agent === 'codex') applyCodexTitles(db, agentRoots, work.length > 0);
    // A pass that found nothing new writes nothing (the app watches data_version and
    // would otherwise reload every pass); `last indexed` is refreshed once a minute.
    const rootsJson = JSON.stringify(agentRoots);
    const last = sources.get(agent);
    const quiet =
      work.length === 0 &&
      last !== undefined &&
      last.roots === rootsJson &&
      Date.now() - last.last_indexed_at < SOURCE_STAMP_MS &&
      test.stored() === statted;
    if (!quiet)
      db.transaction(() => {
        markGone(db, agent, new Set(files.map((f) => f.path)));
        setSource.run(agent, Date.now(), rootsJson);
      }).immediate();
  }
  return report;
}

/** Files no longer listed and no longer on disk: forget the file, keep the conversation flagged gone. */
function markGone(db: Database.Database, agent: Agent, seen: Set<string>): void {
  const rows = db.prepare(`SELECT path, conv_id FROM files WHERE agent = ?`).all(agent) as {
    path: string;
    conv_id: number | null;
  }[];
  const del = db.prepare(`DELETE FROM files WHERE path = ?`);
  const others = db.prepare(`SELECT count(*) AS n FROM files WHERE conv_id = ?`);
  const gone = db.prepare(`UPDATE conversations SET gone = 1 WHERE id = ?`);
  for (const r of rows) {
    if (seen.has(r.path) || existsSync(r.path)) continue;
    del.run(r.path);
    if (r.conv_id !== null && (others.get(r.conv_id) as { n: number }).n === 0) gone.run(r.conv_id);
    if (r.conv_id === null)
      // A database (opencode, PraisonAI sessions.db) holds many conversations.
      db.prepare(`UPDATE conversations SET gone = 1 WHERE agent = ? AND source_path = ?`).run(
        agent,
        r.path,
      );
  }
}
