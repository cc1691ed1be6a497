/**
 * The first build leaves each FTS table of the agents' index as one segment
 * (indexDb.ts mergeFts), counted from FTS5's structure record rather than timed:
 * with the fill's incremental shape every query, and every term bm25() counts
 * for its IDF, merges one doclist per segment (29 of them at a million messages).
 * A small FTS5 `hashsize` makes this sample's fill flush many segments, as a
 * large history's does, so the guard fails without the merge. The answers are the
 * same as those of an index built row by row through the triggers (many segments).
 * A later pass that re-reads much of the index merges it again (REWRITE_MERGE).
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { REWRITE_MERGE } from '../../src/budgets.js';
import { GENERATED_QUERIES, generateHistories } from './generate.js';

type Fts = 'messages_fts' | 'messages_fts_trigram';

/**
 * Segments of an FTS5 index, from its structure record (row 10 of `<table>_data`;
 * fts5_index.c fts5StructureDecode: a 4-byte cookie, the V2 mark FF 00 00 01 when
 * present, then SQLite varints, high bits first: levels, segments).
 */
function segments(db: Database.Database, table: Fts): number {
  const b = db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).pluck().get() as Buffer;
  let at = b.subarray(4, 8).equals(Buffer.from([0xff, 0, 0, 1])) ? 8 : 4;
  const varint = (): number => {
    let n = 0;
    for (;;) {
      const c = b[at++]!;
      n = n * 128 + (c & 0x7f);
      if (!(c & 0x80)) return n;
    }
  };
  varint(); // levels
  return varint();
}

let dir: string;
let home: string;
const env = () => ({ HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' });

/** An index of the sample, its FTS tables flushing every 16 KB of terms. */
function build(name: string, rowByRow: boolean): string {
  const file = join(dir, name);
  const { db } = openIndex(file);
  for (const t of ['messages_fts', 'messages_fts_trigram'])
    db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('hashsize', 16384)`);
  // A `sources` row makes the pass index through the triggers, a commit per batch
  // (indexDb.ts deferFtsIfFirst), as every pass after the first one does.
  if (rowByRow) db.exec(`INSERT INTO sources (agent) VALUES ('claude')`);
  // And without the merge a pass that writes much of the index now does (REWRITE_MERGE):
  // the shape of an index that grew a little at a time, or was written before it.
  const saved = REWRITE_MERGE.messages;
  if (rowByRow) REWRITE_MERGE.messages = Infinity;
  try {
    indexAll(db, { env: env() });
  } finally {
    REWRITE_MERGE.messages = saved;
  }
  db.close();
  return file;
}

let merged: string;
let rowByRow: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-fts-merged-'));
  home = join(dir, 'home');
  generateHistories(home, 40, 4000);
  merged = build('merged.db', false);
  rowByRow = build('row-by-row.db', true);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a first build leaves each FTS table one segment; the row-by-row build has many', () => {
  const a = new Database(merged, { readonly: true });
  const b = new Database(rowByRow, { readonly: true });
  try {
    // The counter itself can see many segments: the triggers' build is not merged.
    expect(segments(b, 'messages_fts')).toBeGreaterThan(3);
    expect(segments(a, 'messages_fts')).toBe(1);
    expect(segments(a, 'messages_fts_trigram')).toBe(1);
    expect(a.prepare(`SELECT count(*) FROM messages`).pluck().get()).toBeGreaterThan(3000);
  } finally {
    a.close();
    b.close();
  }
});

it('answers the same searches, snippets and ranks included, as the unmerged index', () => {
  const a = new Database(merged, { readonly: true });
  const b = new Database(rowByRow, { readonly: true });
  try {
    for (const q of GENERATED_QUERIES) {
      const x = searchAgentsJson(a, q, AGENTS, { limit: 10, all: false });
      // A phrase may not occur in so small a sample; every other query finds something.
      if (!q.startsWith('"')) expect((x.results as unknown[]).length, q).toBeGreaterThan(0);
      expect(x, q).toEqual(searchAgentsJson(b, q, AGENTS, { limit: 10, all: false }));
    }
  } finally {
    a.close();
    b.close();
  }
});

it('a pass that re-reads much of the index (a parser version bump) merges it again; a small one does not', () => {
  const file = join(dir, 'rewritten.db');
  copyFileSync(rowByRow, file);
  const db = new Database(file);
  try {
    const many = segments(db, 'messages_fts');
    expect(many).toBeGreaterThan(3);
    // A small writing pass: one conversation's file read again, a few dozen messages.
    db.prepare(
      `UPDATE files SET parser_version = 0 WHERE path = (SELECT min(path) FROM files WHERE agent = 'claude')`,
    ).run();
    const small = indexAll(db, { env: env() });
    expect(small.parsed).toBe(1);
    expect(small.messages).toBeLessThan(REWRITE_MERGE.messages);
    expect(segments(db, 'messages_fts')).toBeGreaterThanOrEqual(many);
    // Every file read again, as after a parser version bump: merged into one segment.
    db.exec(`UPDATE files SET parser_version = 0`);
    const all = indexAll(db, { env: env() });
    expect(all.messages).toBeGreaterThan(3000);
    expect(segments(db, 'messages_fts')).toBe(1);
    expect(segments(db, 'messages_fts_trigram')).toBe(1);
    expect(db.prepare(`PRAGMA integrity_check`).pluck().get()).toBe('ok');
    // FTS5's own check; against the messages too for the word index (the trigram
    // index holds only the rows with CJK, so that comparison does not apply to it).
    db.exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)`);
    db.exec(
      `INSERT INTO messages_fts_trigram (messages_fts_trigram, rank) VALUES ('integrity-check', 0)`,
    );
  } finally {
    db.close();
  }
  // The answers are those of the index built once.
  const a = new Database(merged, { readonly: true });
  const b = new Database(file, { readonly: true });
  try {
    for (const q of GENERATED_QUERIES)
      expect(searchAgentsJson(b, q, AGENTS, { limit: 10, all: false }), q).toEqual(
        searchAgentsJson(a, q, AGENTS, { limit: 10, all: false }),
      );
  } finally {
    a.close();
    b.close();
  }
});
