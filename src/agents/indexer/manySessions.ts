/**
 * Sources whose one file holds many sessions (the opencode and PraisonAI
 * databases, the agents of AGENTS.md §9, opencode's legacy storage tree): a
 * change mark per session says which to re-derive; each source is one small
 * description of how to read it.
 */
import type Database from 'better-sqlite3';
import { existsSync, type Stats } from 'node:fs';
import type { SourceFile } from '../discover.js';
import { Problems, type Agent, type ConvPatch } from '../model.js';
import { readOpencode, type OpencodeSession } from '../parsers/opencode.js';
import { readOpencodeStorage, storageSignatures } from '../parsers/opencodeLegacy.js';
import { readPraisonaiDb } from '../parsers/praisonaiDb.js';
import { moreDbReader } from '../moreAgents.js';
import { PARSER_VERSION } from './parserVersion.js';
import { oneLine } from './parseFile.js';
import { storageStamp, walSignature } from './stamps.js';
import type { Writer } from './writer.js';
import type { FileRow, Parsed } from './types.js';

/** A source whose one file (a database, a directory tree) holds many sessions. */
interface ManySessions {
  agent: Agent;
  /** The carry key of each session's change mark (kept as it was written, so old indexes read on). */
  key: 'signatures' | 'watermarks';
  /** Added to the file's mtime for the stat check: a change the file's own stat misses. */
  stamp: number;
  /** The sessions whose marks differ from `known`, and every session's mark now. */
  read(
    known: Record<string, string>,
    problems: Problems,
  ): { sessions: OpencodeSession[]; marks: Record<string, string> };
  /** A session to leave to another file (a newer copy elsewhere). */
  skip?(conv: ConvPatch): boolean;
}

/**
 * Re-derives the sessions whose change marks moved, in one transaction; a session
 * gone from the file stays, marked gone (only where this file was its source).
 */
function indexSessions(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
  o: ManySessions,
): number {
  const problems = new Problems();
  const known =
    row && row.parser_version === PARSER_VERSION[o.agent] && row.carry
      ? ((JSON.parse(row.carry) as Record<string, Record<string, string> | undefined>)[o.key] ?? {})
      : {};
  let read: ReturnType<ManySessions['read']>;
  try {
    read = o.read(known, problems);
  } catch (err) {
    problems.add(`unreadable: ${oneLine(err)}`);
    read = { sessions: [], marks: known };
  }
  const parsed: Parsed = {
    file,
    st: { ...st, mtimeMs: st.mtimeMs + o.stamp } as Stats,
    full: true,
    results: [],
    offset: 0,
    nextLine: 0,
    problems: problems.toJSON(),
    carry: { [o.key]: read.marks },
  };
  let n = 0;
  db.transaction(() => {
    for (const s of read.sessions) {
      if (o.skip?.(s.conv)) continue;
      const convId = writer.conversation(o.agent, s.conv, file.path);
      writer.messages(convId, s.messages, true, 0);
      n += s.messages.length;
    }
    const gone = db.prepare(
      `UPDATE conversations SET gone = 1 WHERE agent = ? AND native_id = ? AND source_path = ?`,
    );
    for (const id of Object.keys(known)) if (!(id in read.marks)) gone.run(o.agent, id, file.path);
    writer.file(parsed, null, 0);
    writer.finishStats();
  }).immediate();
  return n;
}

/** opencode keeps everything in one database: signatures per session say which to re-derive. */
export function indexOpencode(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  return indexSessions(db, writer, file, st, row, {
    agent: 'opencode',
    key: 'signatures',
    stamp: walSignature(file.path),
    read: (known, problems) => {
      const r = readOpencode(file.path, known, problems);
      return { sessions: r.sessions, marks: r.signatures };
    },
  });
}

/** PraisonAI's sessions.db: sessions whose `updated_at` changed are re-derived, like opencode's. */
export function indexPraisonaiDb(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  return indexSessions(db, writer, file, st, row, {
    agent: 'praisonai',
    key: 'watermarks',
    stamp: walSignature(file.path),
    read: (known, problems) => {
      const r = readPraisonaiDb(file.path, known, problems);
      return { sessions: r.sessions, marks: r.watermarks };
    },
    // The same session in a JSON file too: the newer copy is the conversation.
    skip: (conv) => writer.newerElsewhere('praisonai', conv, file.path),
  });
}

/** A database of an agent of AGENTS.md §9 (Crush, Goose): a change mark per session. */
export function indexMoreDb(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  const reader = moreDbReader(file.agent);
  return indexSessions(db, writer, file, st, row, {
    agent: file.agent,
    key: 'watermarks',
    stamp: walSignature(file.path),
    read: (known, problems) => {
      if (!reader) {
        problems.add('no reader for this database');
        return { sessions: [], marks: known };
      }
      return reader(file.path, known, problems);
    },
  });
}

/**
 * opencode's legacy `storage/` tree, read only for sessions no opencode database
 * provided (1.2+ imports the tree once and leaves it on disk): a session whose
 * stored copy came from a database that still exists is skipped.
 */
export function indexOpencodeStorage(
  db: Database.Database,
  writer: Writer,
  file: SourceFile,
  st: Stats,
  row: FileRow | undefined,
): number {
  const signatures = storageSignatures(file.path);
  const fromDb = db.prepare(
    `SELECT source_path FROM conversations WHERE agent = 'opencode' AND native_id = ?`,
  );
  return indexSessions(db, writer, file, st, row, {
    agent: 'opencode',
    key: 'signatures',
    stamp: storageStamp(file.path),
    read: (known, problems) => {
      const changed = Object.keys(signatures).filter((id) => {
        if (known[id] === signatures[id]) return false;
        const c = fromDb.get(id) as { source_path: string | null } | undefined;
        return !(c?.source_path && c.source_path !== file.path && existsSync(c.source_path));
      });
      let sessions: OpencodeSession[] = [];
      try {
        sessions = readOpencodeStorage(file.path, changed, problems);
      } catch (err) {
        problems.add(`unreadable: ${oneLine(err)}`);
      }
      return { sessions, marks: signatures };
    },
  });
}
