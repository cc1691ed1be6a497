/**
 * A second corpus embedder for the benchmark (a control, never a product
 * substitute): latent semantic analysis. The store's own messages make a
 * tf-idf matrix A (texts × words, the same words as random indexing: stems cut
 * at six letters, CJK as character bigrams, words in fewer than two texts
 * dropped); V is its top-`dims` right singular subspace, found by subspace
 * iteration (Z ← Aᵀ A Z, re-orthonormalised; a few rounds, no dense SVD), and a
 * text's vector is its tf-idf row times V (the "fold-in": for a text of the
 * corpus that is its row of U Σ, the classic LSA document coordinates).
 * A rotation inside the subspace does not change a cosine, so V's basis need
 * not be the singular vectors themselves.
 */
import { normalise, type EmbedRole, type Embedder } from '../../../src/semantic/types.js';
import { words } from './randomIndexing.js';

const DIMS = 128;
const ROUNDS = 4;

/** A sparse tf-idf row: word indexes and weights. */
interface Row {
  at: Int32Array;
  w: Float32Array;
}

export class Lsa implements Embedder {
  readonly id = 'bench:lsa';
  readonly remote = false;
  readonly dims = DIMS;
  readonly fingerprint: string;
  private readonly vocab = new Map<string, number>();
  private readonly idf: Float32Array;
  /** V, words × DIMS, row-major. */
  private readonly v: Float32Array;

  constructor(texts: Iterable<string>) {
    const docs: string[][] = [];
    const df = new Map<string, number>();
    for (const t of texts) {
      const ws = words(t);
      docs.push(ws);
      for (const w of new Set(ws)) df.set(w, (df.get(w) ?? 0) + 1);
    }
    for (const [w, d] of df) if (d >= 2) this.vocab.set(w, this.vocab.size);
    const nw = this.vocab.size;
    this.idf = new Float32Array(nw);
    for (const [w, i] of this.vocab) this.idf[i] = Math.log(docs.length / df.get(w)!);
    const rows = docs.map((ws) => this.row(ws)).filter((r) => r.at.length > 0);
    // Subspace iteration on AᵀA from a fixed pseudo-random start.
    let z = new Float32Array(nw * DIMS);
    let seed = 22;
    for (let i = 0; i < z.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      z[i] = seed / 2 ** 32 - 0.5;
    }
    orthonormalise(z, nw);
    const y = new Float32Array(DIMS);
    for (let round = 0; round < ROUNDS; round++) {
      const next = new Float32Array(nw * DIMS);
      for (const r of rows) {
        // y = r · Z (1 × DIMS), then next += rᵀ y.
        y.fill(0);
        for (let k = 0; k < r.at.length; k++) {
          const o = r.at[k]! * DIMS;
          const w = r.w[k]!;
          for (let j = 0; j < DIMS; j++) y[j] = y[j]! + w * z[o + j]!;
        }
        for (let k = 0; k < r.at.length; k++) {
          const o = r.at[k]! * DIMS;
          const w = r.w[k]!;
          for (let j = 0; j < DIMS; j++) next[o + j] = next[o + j]! + w * y[j]!;
        }
      }
      orthonormalise(next, nw);
      z = next;
    }
    this.v = z;
    this.fingerprint = `bench:lsa:${DIMS}:${docs.length}:${nw}`;
  }

  private row(ws: readonly string[]): Row {
    const tf = new Map<number, number>();
    for (const w of ws) {
      const i = this.vocab.get(w);
      if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
    }
    const at = Int32Array.from(tf.keys());
    const w = Float32Array.from([...tf].map(([i, n]) => (1 + Math.log(n)) * this.idf[i]!));
    let s = 0;
    for (const x of w) s += x * x;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let k = 0; k < w.length; k++) w[k] = w[k]! * inv;
    return { at, w };
  }

  embed(texts: readonly string[], _role?: EmbedRole): Promise<Float32Array[]> {
    return Promise.resolve(
      texts.map((t) => {
        const r = this.row(words(t));
        const out = new Float32Array(DIMS);
        for (let k = 0; k < r.at.length; k++) {
          const o = r.at[k]! * DIMS;
          for (let j = 0; j < DIMS; j++) out[j] = out[j]! + r.w[k]! * this.v[o + j]!;
        }
        let s = 0;
        for (const x of out) s += x * x;
        return s > 0 ? normalise(out, this.id) : out;
      }),
    );
  }
}

/** Modified Gram–Schmidt on the DIMS columns of a rows × DIMS row-major matrix. */
function orthonormalise(m: Float32Array, rows: number): void {
  for (let j = 0; j < DIMS; j++) {
    for (let p = 0; p < j; p++) {
      let d = 0;
      for (let i = 0; i < rows; i++) d += m[i * DIMS + j]! * m[i * DIMS + p]!;
      for (let i = 0; i < rows; i++) m[i * DIMS + j] = m[i * DIMS + j]! - d * m[i * DIMS + p]!;
    }
    let s = 0;
    for (let i = 0; i < rows; i++) s += m[i * DIMS + j]! ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let i = 0; i < rows; i++) m[i * DIMS + j] = m[i * DIMS + j]! * inv;
  }
}
