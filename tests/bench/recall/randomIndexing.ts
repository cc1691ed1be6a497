/**
 * A corpus embedder for the benchmark (a control, never a product
 * substitute): random indexing, a cheap streaming relative of LSA. Each word
 * gets a fixed sparse random vector; a word's meaning is the sum of the random
 * vectors of the words it shares messages with; a text is the IDF-weighted sum
 * of its words' meanings, with the corpus's common direction taken out. Words
 * used in the same conversations end up close, so "ssl" finds "certificate"
 * when the history itself uses them together. CJK text counts as character
 * bigrams. Trained on the store's own messages, nothing else.
 */
import { normalise, type EmbedRole, type Embedder } from '../../../src/semantic/types.js';

const DIMS = 256;
const NONZERO = 8;

function hash(s: string, seed: number): number {
  let h = 2166136261 ^ seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const CJK = /[\u4E00-\u9FFF\u3400-\u4DBF\u3040-\u309F\u30A0-\u30FF\uAC00-\uD7AF]/u;

export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (!CJK.test(w)) {
      if (w.length > 1 && w.length < 30) out.push(w.length > 5 ? w.slice(0, 6) : w);
      continue;
    }
    const chars = Array.from(w);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    if (chars.length === 1) out.push(w);
  }
  return out;
}

export class RandomIndexing implements Embedder {
  readonly id = 'bench:random-indexing';
  readonly remote = false;
  readonly dims = DIMS;
  readonly fingerprint: string;
  private readonly ctx = new Map<string, Float32Array>();
  private readonly idf = new Map<string, number>();
  private readonly mean = new Float32Array(DIMS);

  constructor(texts: Iterable<string>) {
    const df = new Map<string, number>();
    const docs: string[][] = [];
    for (const t of texts) {
      const ws = [...new Set(words(t))];
      docs.push(ws);
      for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
    }
    const n = docs.length;
    for (const [w, d] of df) this.idf.set(w, Math.log(1 + n / d));
    const sum = new Float32Array(DIMS);
    for (const ws of docs) {
      sum.fill(0);
      for (const w of ws) this.index(w, sum, this.idf.get(w)!);
      for (const w of ws) {
        let c = this.ctx.get(w);
        if (!c) this.ctx.set(w, (c = new Float32Array(DIMS)));
        for (let j = 0; j < DIMS; j++) c[j] = c[j]! + sum[j]!;
      }
    }
    for (const c of this.ctx.values()) {
      let s = 0;
      for (const x of c) s += x * x;
      const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
      for (let j = 0; j < DIMS; j++) c[j] = c[j]! * inv;
    }
    // The common direction every text shares (frequent words): taken out of every vector.
    let m = 0;
    for (const ws of docs.slice(0, 5000)) {
      const v = this.raw(ws);
      if (v) {
        for (let j = 0; j < DIMS; j++) this.mean[j] = this.mean[j]! + v[j]!;
        m++;
      }
    }
    for (let j = 0; j < DIMS; j++) this.mean[j] = this.mean[j]! / Math.max(1, m);
    this.fingerprint = `bench:ri:${n}:${df.size}`;
  }

  private index(w: string, into: Float32Array, weight: number): void {
    for (let k = 0; k < NONZERO; k++) {
      const h = hash(w, k);
      into[h % DIMS] = into[h % DIMS]! + ((h >>> 16) & 1 ? weight : -weight);
    }
  }

  private raw(ws: readonly string[]): Float32Array | null {
    const v = new Float32Array(DIMS);
    let any = false;
    for (const w of ws) {
      const c = this.ctx.get(w);
      if (!c) continue;
      const idf = this.idf.get(w)!;
      for (let j = 0; j < DIMS; j++) v[j] = v[j]! + idf * c[j]!;
      any = true;
    }
    if (!any) return null;
    return normalise(v, this.id);
  }

  embed(texts: readonly string[], _role?: EmbedRole): Promise<Float32Array[]> {
    return Promise.resolve(
      texts.map((t) => {
        const v = this.raw(words(t));
        if (!v) return new Float32Array(DIMS);
        for (let j = 0; j < DIMS; j++) v[j] = v[j]! - this.mean[j]!;
        let s = 0;
        for (const x of v) s += x * x;
        return s > 0 ? normalise(v, this.id) : v;
      }),
    );
  }
}
