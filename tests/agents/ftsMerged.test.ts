/**
 * The first build leaves each FTS table of the agents' index as one segment
 * (indexDb.ts mergeFts), counted from FTS5's structure record rather than timed:
 * with the fill's incremental shape every query, and every term bm25() counts
 * for its IDF, merges one doclist per segment (29 of them at a million messages).
 * A small FTS5 `hashsize` makes this sample's fill flush many segments, as a
 * large history's does, so the guard fails without the merge. The answers are the
 * same as those of an index built row by row through the triggers (many segments).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
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
  indexAll(db, { env: env() });
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
