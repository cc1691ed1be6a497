/**
 * lookback's own vector data, `vectors.db` in the cache folder (never in an
 * agent's store, and apart from agents.db, which is rebuilt when its layout
 * changes). A vector is keyed by the embedder's fingerprint and the sha256 of
 * the text it embeds, so a rebuilt index or a re-read store re-links its
 * messages to vectors already made instead of embedding them again. Units map
 * a store's message ids to those hashes.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** Characters of a message that are embedded (cass cuts at 2,000): the head says what it is about. */
export const EMBED_CHARS = 2000;

/** The text a message is embedded as: NFC, whitespace folded, its head only. */
export function canonical(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim().slice(0, EMBED_CHARS);
}

export function textHash(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The layout of vectors.db. 2: int8 vectors, each with its scale (1 was
 * float32; its vectors are quantised in place on open, nothing re-embedded).
 */
const LAYOUT = 2;

/**
 * A unit vector as int8 (x ≈ q × scale), the canonical copy (SEMANTIC.md
 * §6.4): a quarter of float32's size. Values are spread over ±127 by the
 * largest component; the scale is chosen so the dequantised vector has unit
 * length again, so a dot product with a unit query stays a cosine.
 */
export function quantise(v: Float32Array): { q: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const q = new Int8Array(v.length);
  if (max === 0) return { q, scale: 0 };
  let s = 0;
  for (let i = 0; i < v.length; i++) {
    const x = Math.round((v[i]! / max) * 127);
    q[i] = x;
    s += x * x;
  }
  return { q, scale: 1 / Math.sqrt(s) };
}

/** vectors.db's size and time and its WAL's size: any write by any process changes one. */
export function fileStamp(path: string): string {
  const one = (p: string): string => {
    try {
      const st = statSync(p);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return '-';
    }
  };
  // The WAL by size only: opening a connection touches its time, a write grows it.
  let wal = '-';
  try {
    wal = String(statSync(`${path}-wal`).size);
  } catch {
    // no WAL: nothing written since the last checkpoint
  }
  return `${one(path)}/${wal}`;
}

/** Units counted per vectors.db and store, with the stamp they were counted at. */
const unitCounts = new Map<string, { stamp: string; count: number }>();

export class VectorDb {
  readonly db: Database.Database;
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    const layout = this.db.pragma('user_version', { simple: true }) as number;
    const hasVectors =
      this.db
        .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vectors'`)
        .get() !== undefined;
    if (hasVectors && layout < LAYOUT) this.upgrade();
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS vectors (
        fingerprint TEXT NOT NULL, hash BLOB NOT NULL, dims INTEGER NOT NULL,
        scale REAL NOT NULL, vec BLOB NOT NULL,
        PRIMARY KEY (fingerprint, hash)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS units (
        store TEXT NOT NULL, message_id INTEGER NOT NULL, session_id TEXT NOT NULL, hash BLOB NOT NULL,
        PRIMARY KEY (store, message_id)) WITHOUT ROWID;`);
    // Only when it differs: a write on every open would change the file a warm search checks.
    if (layout !== LAYOUT) this.db.pragma(`user_version = ${LAYOUT}`);
  }
  /** Layout 1 (float32 BLOBs) to int8 and a scale, row by row in one transaction. */
  private upgrade(): void {
    const rows = this.db.prepare(`SELECT fingerprint, hash, dims, vec FROM vectors`).all() as {
      fingerprint: string;
      hash: Buffer;
      dims: number;
      vec: Buffer;
    }[];
    this.db.transaction(() => {
      this.db.exec(`DROP TABLE vectors;
        CREATE TABLE vectors (
          fingerprint TEXT NOT NULL, hash BLOB NOT NULL, dims INTEGER NOT NULL,
          scale REAL NOT NULL, vec BLOB NOT NULL,
          PRIMARY KEY (fingerprint, hash)) WITHOUT ROWID;`);
      const ins = this.db.prepare(
        `INSERT INTO vectors (fingerprint, hash, dims, scale, vec) VALUES (?, ?, ?, ?, ?)`,
      );
      for (const r of rows) {
        if (r.vec.byteLength !== r.dims * 4) continue;
        const f = new Float32Array(
          r.vec.buffer.slice(r.vec.byteOffset, r.vec.byteOffset + r.vec.byteLength),
        );
        const { q, scale } = quantise(f);
        ins.run(r.fingerprint, r.hash, r.dims, scale, Buffer.from(q.buffer));
      }
    })();
  }
  close(): void {
    this.db.close();
  }
  /** The highest message id of `store` already linked: the embed pass goes on from there. */
  lastUnit(store: string): number {
    return (
      (this.db.prepare(`SELECT max(message_id) FROM units WHERE store = ?`).pluck().get(store) as
        number | null) ?? 0
    );
  }
  /**
   * Messages of `store` linked to a text hash (each has a vector, or had one of
   * another model). Kept per process while the file is unchanged (its stamp):
   * counting 100k units was most of a warm search (87 of ~200 ms at 61k under load).
   */
  unitCount(store: string): number {
    const key = `${this.path}\n${store}`;
    const stamp = fileStamp(this.path);
    const known = unitCounts.get(key);
    if (known && known.stamp === stamp) return known.count;
    const count = this.db
      .prepare(`SELECT count(*) FROM units WHERE store = ?`)
      .pluck()
      .get(store) as number;
    unitCounts.set(key, { stamp, count });
    return count;
  }
  /** The text hash each of `ids` of `store` is linked to (a hit is checked against its message's text). */
  unitHashes(store: string, ids: readonly number[]): Map<number, Buffer> {
    const rows = this.db
      .prepare(
        `SELECT message_id AS id, hash FROM units WHERE store = ? AND message_id IN (SELECT value FROM json_each(?))`,
      )
      .all(store, JSON.stringify(ids)) as { id: number; hash: Buffer }[];
    return new Map(rows.map((r) => [r.id, r.hash]));
  }
  /** Forgets every unit of `store` (its ids now name other messages); the vectors stay. */
  dropUnits(store: string): void {
    this.db.prepare(`DELETE FROM units WHERE store = ?`).run(store);
  }
  hasVector(fingerprint: string, hash: Buffer): boolean {
    return (
      this.db
        .prepare(`SELECT 1 FROM vectors WHERE fingerprint = ? AND hash = ?`)
        .get(fingerprint, hash) !== undefined
    );
  }
  addUnits(store: string, rows: readonly { id: number; session_id: string; hash: Buffer }[]): void {
    const ins = this.db.prepare(
      `INSERT OR REPLACE INTO units (store, message_id, session_id, hash) VALUES (?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const r of rows) ins.run(store, r.id, r.session_id, r.hash);
    })();
  }
  addVectors(fingerprint: string, rows: readonly { hash: Buffer; vec: Float32Array }[]): void {
    const ins = this.db.prepare(
      `INSERT OR REPLACE INTO vectors (fingerprint, hash, dims, scale, vec) VALUES (?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const r of rows) {
        const { q, scale } = quantise(r.vec);
        ins.run(fingerprint, r.hash, r.vec.length, scale, Buffer.from(q.buffer));
      }
    })();
  }
  /** Units of `store` and how many of them have a vector of `fingerprint`. */
  coverage(store: string, fingerprint: string): { units: number; embedded: number } {
    const r = this.db
      .prepare(
        `SELECT count(*) AS units, count(v.hash) AS embedded FROM units u
         LEFT JOIN vectors v ON v.fingerprint = ? AND v.hash = u.hash WHERE u.store = ?`,
      )
      .get(fingerprint, store) as { units: number; embedded: number };
    return r;
  }
  /** Bytes of the vectors of `fingerprint` (int8 payloads and their scales). */
  bytes(fingerprint: string): number {
    return (
      (this.db
        .prepare(`SELECT sum(length(vec)) + 8 * count(*) FROM vectors WHERE fingerprint = ?`)
        .pluck()
        .get(fingerprint) as number | null) ?? 0
    );
  }
  /** Every embedded unit of `store`: ids, sessions and one int8 matrix, row i for ids[i]. */
  matrix(store: string, fingerprint: string): VectorMatrix {
    const rows = this.db
      .prepare(
        `SELECT u.message_id AS id, u.session_id AS sid, v.dims AS dims, v.scale AS scale, v.vec AS vec
         FROM units u JOIN vectors v ON v.fingerprint = ? AND v.hash = u.hash
         WHERE u.store = ? ORDER BY u.message_id`,
      )
      .all(fingerprint, store) as {
      id: number;
      sid: string;
      dims: number;
      scale: number;
      vec: Buffer;
    }[];
    const dims = rows[0]?.dims ?? 0;
    const data = new Int8Array(rows.length * dims);
    const scales = new Float32Array(rows.length);
    const ids = new Float64Array(rows.length);
    const sessions: string[] = [];
    rows.forEach((r, i) => {
      data.set(new Int8Array(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength), i * dims);
      scales[i] = r.scale;
      ids[i] = r.id;
      sessions.push(r.sid);
    });
    return { dims, ids, sessions, data, scales };
  }
}

export interface VectorMatrix {
  dims: number;
  ids: Float64Array;
  sessions: string[];
  /** Row i is `data[i*dims .. (i+1)*dims]` × `scales[i]`. */
  data: Int8Array;
  scales: Float32Array;
}

/** Row `o..o+dims` of `data` dotted with `q`, four lanes at a time (V8 keeps them in registers). */
function dot(data: Int8Array, o: number, q: Float32Array, dims: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let e = 0;
  let j = 0;
  for (; j + 3 < dims; j += 4) {
    a += data[o + j]! * q[j]!;
    b += data[o + j + 1]! * q[j + 1]!;
    c += data[o + j + 2]! * q[j + 2]!;
    e += data[o + j + 3]! * q[j + 3]!;
  }
  for (; j < dims; j++) a += data[o + j]! * q[j]!;
  return a + b + c + e;
}

/** Row `r`'s cosine to the unit vector `q`. */
export function rowCosine(m: VectorMatrix, r: number, q: Float32Array): number {
  return dot(m.data, r * m.dims, q, m.dims) * m.scales[r]!;
}

/**
 * Rows a binary prefilter keeps for int8 rescoring: at least this many, or
 * PREFILTER_FACTOR × k if more. The sign bits of a 256-dim vector are 32 bytes;
 * comparing them (XOR and popcount) costs ~1/30 of an int8 dot product, so the
 * scan reads the packed bits of every row and the int8 rows of a few thousand.
 * Chosen on the benchmarks (tests/bench/semantic.ts reports top-200 recall
 * against exact cosine at 100k and 1M rows).
 */
export const PREFILTER_MIN = 4000;
export const PREFILTER_FACTOR = 20;
/** Below this many rows the plain int8 scan is as fast as the prefilter and exact. */
export const PREFILTER_FROM = 20_000;

/** Each row's sign bits, 8 to a byte: bit i of byte b set when component 8b+i > 0. */
export function signBits(m: VectorMatrix): Uint8Array {
  const cached = bitsOf.get(m);
  if (cached) return cached;
  const { dims, data } = m;
  const n = m.ids.length;
  const bytes = (dims + 7) >>> 3;
  const bits = new Uint8Array(n * bytes);
  for (let r = 0; r < n; r++) {
    const o = r * dims;
    const b0 = r * bytes;
    for (let j = 0; j < dims; j++) if (data[o + j]! > 0) bits[b0 + (j >>> 3)]! |= 1 << (j & 7);
  }
  bitsOf.set(m, bits);
  return bits;
}
/** Computed on the first scan of a matrix and kept with it (the matrix is read once per process). */
const bitsOf = new WeakMap<VectorMatrix, Uint8Array>();

/** Buckets of the prefilter's score histogram: the cut is found to 1/HIST of the score range. */
const HIST = 4096;

/**
 * The rows whose sign vectors score best against the query itself (not its
 * signs: each row is scored as Σ ±q_j, the sign its bit says, so the query
 * keeps its magnitudes and only the rows are one bit a dimension). Per query,
 * a table per byte of the row gives the sum for all 256 values of that byte,
 * so a 256-dim row costs 32 look-ups. At least `want` rows are kept: a
 * histogram of the scores gives the cut, so nothing is sorted; rows tied at
 * the cut are taken in row order up to `want`.
 */
export function binaryCandidates(m: VectorMatrix, q: Float32Array, want: number): Int32Array {
  const bits = signBits(m);
  const { dims } = m;
  const bytes = (dims + 7) >>> 3;
  const n = m.ids.length;
  const table = new Float32Array(bytes * 256);
  let range = 0;
  for (let b = 0; b < bytes; b++) {
    for (let v = 0; v < 256; v++) {
      let s = 0;
      for (let i = 0; i < 8 && 8 * b + i < dims; i++)
        s += (v >>> i) & 1 ? q[8 * b + i]! : -q[8 * b + i]!;
      table[b * 256 + v] = s;
    }
  }
  for (let j = 0; j < dims; j++) range += Math.abs(q[j]!);
  const score = new Float32Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    const o = r * bytes;
    for (let b = 0; b < bytes; b++) s += table[(b << 8) | bits[o + b]!]!;
    score[r] = s;
  }
  // Scores lie in [-range, range]: bucket them, best bucket first.
  const hist = new Uint32Array(HIST);
  const per = (HIST - 1) / (2 * range || 1);
  const bucket = (s: number): number =>
    Math.min(HIST - 1, Math.max(0, Math.floor((range - s) * per)));
  for (let r = 0; r < n; r++) hist[bucket(score[r]!)]!++;
  let cut = 0;
  let count = 0;
  for (; cut < HIST; cut++) {
    count += hist[cut]!;
    if (count >= want) break;
  }
  if (cut >= HIST) return Int32Array.from({ length: n }, (_, r) => r);
  // Every row above the cut, then rows at the cut in order until `want`: sparse vectors (many
  // zero components, so many equal sign rows) would otherwise put most rows in one bucket.
  const above = count - hist[Math.min(cut, HIST - 1)]!;
  const out = new Int32Array(Math.min(count, Math.max(want, above)));
  let i = 0;
  let atCut = out.length - above;
  for (let r = 0; r < n && i < out.length; r++) {
    const b = bucket(score[r]!);
    if (b < cut || (b === cut && atCut-- > 0)) out[i++] = r;
  }
  return out;
}

/**
 * The `k` rows most similar to `q` (unit vectors: the dot product is the
 * cosine), best first. Over PREFILTER_FROM rows, only the binary prefilter's
 * candidates are scored in int8 (`exact` forces the full scan, for measuring).
 */
export function nearest(
  m: VectorMatrix,
  q: Float32Array,
  k: number,
  exact = false,
): { row: number; cos: number }[] {
  const { dims, data, scales } = m;
  const n = m.ids.length;
  if (q.length !== dims) return [];
  const want = Math.max(PREFILTER_MIN, PREFILTER_FACTOR * k);
  const rows = !exact && n >= PREFILTER_FROM && want < n ? binaryCandidates(m, q, want) : null;
  const count = rows ? rows.length : n;
  // A bounded min-heap would be faster at large k; k is small next to n.
  const top: { row: number; cos: number }[] = [];
  let floor = -Infinity;
  for (let i = 0; i < count; i++) {
    const r = rows ? rows[i]! : i;
    const s = dot(data, r * dims, q, dims) * scales[r]!;
    if (top.length < k) {
      top.push({ row: r, cos: s });
      if (top.length === k) {
        top.sort((a, b) => b.cos - a.cos);
        floor = top[k - 1]!.cos;
      }
    } else if (s > floor) {
      let j = k - 1;
      while (j > 0 && top[j - 1]!.cos < s) j--;
      top.splice(j, 0, { row: r, cos: s });
      top.pop();
      floor = top[k - 1]!.cos;
    }
  }
  return top.sort((a, b) => b.cos - a.cos);
}
