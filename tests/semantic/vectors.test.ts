/**
 * The embed pass and the semantic leg over a real Hermes store: vectors keyed
 * by text, so a second pass and a re-linked store embed nothing again; the
 * nearest conversation is the one whose words the query shares.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { generateStore } from '../../src/demo/generate.js';
import { HYBRID_K, SEMANTIC_WEIGHT, hybridRrf, rrf } from '../../src/semantic/fuse.js';
import { embedStore, semanticConversations, storeMatrix } from '../../src/semantic/hermes.js';
import { Model2Vec } from '../../src/semantic/model2vec.js';
import { VectorDb, nearest, quantise } from '../../src/semantic/vectors.js';
import { Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/fixtures.js';
import { writeTinyModel } from './tinyModel.js';

function storeWithNeedle(path: string): string {
  generateStore(path, { layout: 30, sessions: 30, seed: 3 });
  const db = new Database(path);
  const id = insertSession(db, { source: 'cli', title: 'needle' });
  insertMessage(db, { session_id: id, role: 'user', content: 'cat dog cat dog' });
  insertMessage(db, { session_id: id, role: 'assistant', content: 'dog cat.' });
  db.close();
  return id;
}

describe('vectors.db and the semantic leg', () => {
  it('embeds once, resumes, and finds the nearest conversation', async () => {
    const dir = tempDir();
    const needle = storeWithNeedle(join(dir, 'state.db'));
    const model = Model2Vec.load(writeTinyModel(join(dir, 'm')));
    const store = Store.open(join(dir, 'state.db'));
    const vdb = new VectorDb(join(dir, 'cache', 'vectors.db'));
    try {
      const seen: number[] = [];
      const first = await embedStore(store, vdb, model, (p) => seen.push(p.done));
      expect(first.done).toBe(first.total);
      expect(first.embedded).toBeGreaterThan(0);
      expect(first.embedded).toBeLessThanOrEqual(first.total);
      expect(seen.at(-1)).toBe(first.total);
      // Nothing new: nothing embedded.
      expect((await embedStore(store, vdb, model)).embedded).toBe(0);
      // The units gone (a rebuilt index, new ids): re-linked by text hash, nothing embedded.
      vdb.db.exec(`DELETE FROM units`);
      const again = await embedStore(store, vdb, model);
      expect(again.embedded).toBe(0);
      expect(again.done).toBe(first.total);
      const m = storeMatrix(store, vdb, model.fingerprint);
      expect(m.ids.length).toBe(first.total);
      const [q] = await model.embed(['Dog cat'], 'query');
      const hits = semanticConversations(store, m, q!, 5);
      expect(hits[0]!.root).toBe(needle);
      expect(hits[0]!.cos).toBeGreaterThan(0.9);
      expect(new Set(hits.map((h) => h.root)).size).toBe(hits.length);
      // Another embedder's vectors are never mixed in.
      expect(storeMatrix(store, vdb, 'other:fp').ids.length).toBe(0);
    } finally {
      vdb.close();
      store.close();
    }
  });

  it('nearest() is the brute-force top k over int8 rows, best first', () => {
    const dims = 3;
    const rows = [
      [1, 0, 0],
      [0, 1, 0],
      [0.6, 0.8, 0],
      [0, 0, 1],
      [0.8, 0.6, 0],
    ].map((r) => quantise(Float32Array.from(r)));
    const m = {
      dims,
      ids: Float64Array.from(rows.map((_, i) => i + 10)),
      sessions: rows.map((_, i) => `s${i}`),
      data: Int8Array.from(rows.flatMap((r) => [...r.q])),
      scales: Float32Array.from(rows.map((r) => r.scale)),
    };
    const top = nearest(m, Float32Array.from([1, 0, 0]), 3);
    expect(top.map((t) => t.row)).toEqual([0, 4, 2]);
    expect(top[1]!.cos).toBeCloseTo(0.8, 2);
  });

  it('int8 keeps the cosine within 0.01 and upgrades a float32 vectors.db in place', () => {
    let seed = 7;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5;
    const unit = (n: number): Float32Array => {
      const v = Float32Array.from({ length: n }, rnd);
      const l = Math.hypot(...v);
      return v.map((x) => x / l);
    };
    for (let t = 0; t < 50; t++) {
      const a = unit(256);
      const b = unit(256);
      const exact = a.reduce((s, x, i) => s + x * b[i]!, 0);
      const { q, scale } = quantise(b);
      const approx = a.reduce((s, x, i) => s + x * q[i]!, 0) * scale;
      expect(Math.abs(approx - exact)).toBeLessThan(0.01);
      expect(Math.abs(q.reduce((s, x) => s + x * x, 0) * scale * scale - 1)).toBeLessThan(1e-6);
    }
    // A layout-1 file (float32 BLOBs, no scale): quantised on open, its units kept.
    const path = join(tempDir(), 'vectors.db');
    const old = new Database(path);
    const v = unit(8);
    old.exec(`CREATE TABLE vectors (fingerprint TEXT NOT NULL, hash BLOB NOT NULL, dims INTEGER NOT NULL,
      vec BLOB NOT NULL, PRIMARY KEY (fingerprint, hash)) WITHOUT ROWID;
      CREATE TABLE units (store TEXT NOT NULL, message_id INTEGER NOT NULL, session_id TEXT NOT NULL,
      hash BLOB NOT NULL, PRIMARY KEY (store, message_id)) WITHOUT ROWID;`);
    const h = Buffer.alloc(32, 1);
    old.prepare(`INSERT INTO vectors VALUES ('fp', ?, 8, ?)`).run(h, Buffer.from(v.buffer));
    old.prepare(`INSERT INTO units VALUES ('s', 1, 'sess', ?)`).run(h);
    old.close();
    const vdb = new VectorDb(path);
    try {
      const m = vdb.matrix('s', 'fp');
      expect(m.data).toBeInstanceOf(Int8Array);
      expect(m.data.length).toBe(8);
      expect(nearest(m, v, 1)[0]!.cos).toBeCloseTo(1, 3);
      expect(vdb.bytes('fp')).toBe(8 + 8);
    } finally {
      vdb.close();
    }
  });

  it('RRF sums 1/(60+rank); the RRF hybrid keeps exact hits first', () => {
    const lex = ['a', 'b', 'c'].map((key, i) => ({ key, item: key, exact: i === 0 }));
    const sem = ['c', 'd', 'a'].map((key) => ({ key, item: key }));
    const f = rrf(lex, sem);
    expect(f.map((x) => x.key)).toEqual(['a', 'c', 'b', 'd']);
    expect(f[0]!.fused).toBeCloseTo(1 / 61 + 1 / 63, 9);
    expect(f[1]).toMatchObject({ lexical_rank: 3, semantic_rank: 1 });
    const h = hybridRrf(
      lex.map((l) => ({ ...l, exact: l.key === 'b' })),
      sem,
      3,
    );
    expect(h.map((x) => x.key)).toEqual(['b', 'a', 'c']);
    // Hybrid's weighted fusion: a lexical #2 stays above a conversation only the semantic leg found
    // (plain RRF would put the semantic #1 first: 1/61 > 1/62).
    const lex2 = ['x', 'y'].map((key) => ({ key, item: key, exact: false }));
    const sem2 = [{ key: 'z', item: 'z' }];
    expect(rrf(lex2, sem2).map((f) => f.key)).toEqual(['x', 'z', 'y']);
    const w = hybridRrf(lex2, sem2, 3);
    expect(w.map((f) => f.key)).toEqual(['x', 'y', 'z']);
    expect(w[2]!.fused).toBeCloseTo(SEMANTIC_WEIGHT / (HYBRID_K + 1), 9);
  });
});
