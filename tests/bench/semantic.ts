/**
 * Semantic search's costs (`npm run bench`, section `semantic`; alone:
 * LOOKBACK_BENCH_ONLY=semantic): the vector scan over int8 rows (the stored
 * layout) against the float32 rows of layout 1, interleaved in one run, at
 * 100k and 1M vectors of 256 dims; the size of vectors.db; and a warm hybrid
 * and semantic search end to end (src/semantic/answer.ts) over a generated
 * store of ~100k messages, beside the exact lexical search of the same run.
 * The embedder is a token-hashing one (fast, deterministic): the latencies
 * exclude no step, only the model's own cost for one query, which depends on
 * the model (SEMANTIC.md §5: 1–6 ms for ONNX small models, < 1 ms model2vec).
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import { semanticSearch } from '../../src/semantic/answer.js';
import { embedStore } from '../../src/semantic/hermes.js';
import { normalise, type Embedder } from '../../src/semantic/types.js';
import {
  nearest,
  PREFILTER_FACTOR,
  PREFILTER_MIN,
  quantise,
  VectorDb,
  type VectorMatrix,
} from '../../src/semantic/vectors.js';
import { discover } from '../../src/store/search.js';
import { Store } from '../../src/store/store.js';
import { median } from './stats.js';

const DIMS = 256;

/** Words hashed into 256 buckets with a sign: a stand-in model with the real output shape. */
export class HashEmbedder implements Embedder {
  readonly id = 'hash:256';
  readonly fingerprint = 'hash:256:v1';
  readonly remote = false;
  dims = DIMS;
  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(
      texts.map((t) => {
        const v = new Float32Array(DIMS);
        for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? ['∅']) {
          let h = 2166136261;
          for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
          v[(h >>> 0) % DIMS]! += h & 1 ? 1 : -1;
        }
        if (v.every((x) => x === 0)) v[0] = 1;
        return normalise(v, this.id);
      }),
    );
  }
}

/** Layout 1's scan: float32 rows, the same four-lane dot product. */
function nearestF32(data: Float32Array, n: number, q: Float32Array, k: number): number {
  let best = -Infinity;
  const top: number[] = [];
  for (let r = 0; r < n; r++) {
    const o = r * DIMS;
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    for (let j = 0; j < DIMS; j += 4) {
      a += data[o + j]! * q[j]!;
      b += data[o + j + 1]! * q[j + 1]!;
      c += data[o + j + 2]! * q[j + 2]!;
      e += data[o + j + 3]! * q[j + 3]!;
    }
    const s = a + b + c + e;
    if (top.length < k || s > best) {
      top.push(s);
      if (top.length > k) {
        top.sort((x, y) => y - x);
        top.pop();
      }
      best = top.length === k ? Math.min(...top) : -Infinity;
    }
  }
  return top.length;
}

function randomUnits(n: number, seed: number): Float32Array {
  const out = new Float32Array(n * DIMS);
  let s = seed;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = s / 2 ** 32 - 0.5;
  }
  for (let r = 0; r < n; r++) {
    let l = 0;
    for (let j = 0; j < DIMS; j++) l += out[r * DIMS + j]! ** 2;
    l = Math.sqrt(l);
    for (let j = 0; j < DIMS; j++) out[r * DIMS + j]! /= l;
  }
  return out;
}

export function benchScan(n: number, runs: number): string {
  const f32 = randomUnits(n, n);
  const data = new Int8Array(n * DIMS);
  const scales = new Float32Array(n);
  for (let r = 0; r < n; r++) {
    const { q, scale } = quantise(f32.subarray(r * DIMS, (r + 1) * DIMS));
    data.set(q, r * DIMS);
    scales[r] = scale;
  }
  const m: VectorMatrix = {
    dims: DIMS,
    ids: new Float64Array(n),
    sessions: [],
    data,
    scales,
  };
  // Ten queries; recall of each scan's top 200 against the float32 top 200 (exact cosines).
  const queries = [...Array(10).keys()].map((i) => randomUnits(1, 99 + i));
  const exactTop = (q: Float32Array): Set<number> =>
    new Set(
      [...Array(n).keys()]
        .map((r) => {
          let s = 0;
          for (let j = 0; j < DIMS; j++) s += f32[r * DIMS + j]! * q[j]!;
          return { r, s };
        })
        .sort((x, y) => y.s - x.s)
        .slice(0, 200)
        .map((e) => e.r),
    );
  let overlapFull = 0;
  let overlapPre = 0;
  for (const q of queries) {
    const want = exactTop(q);
    overlapFull += nearest(m, q, 200, true).filter((t) => want.has(t.row)).length / 200 / 10;
    overlapPre += nearest(m, q, 200).filter((t) => want.has(t.row)).length / 200 / 10;
  }
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const q = queries[0]!;
  nearest(m, q, 200);
  nearest(m, q, 200, true);
  nearestF32(f32, n, q, 200);
  for (let i = 0; i < runs; i++) {
    const qi = queries[i % queries.length]!;
    let t = performance.now();
    nearestF32(f32, n, qi, 200);
    a.push(performance.now() - t);
    t = performance.now();
    nearest(m, qi, 200, true);
    b.push(performance.now() - t);
    t = performance.now();
    nearest(m, qi, 200);
    c.push(performance.now() - t);
  }
  const fa = median(a);
  const fb = median(b);
  const fc = median(c);
  const bitsMiB = (n * (DIMS / 8)) / 2 ** 20;
  return `  scan ${n.toLocaleString('en-US')} × ${DIMS} (random unit vectors, 10 queries): float32 ${fa.toFixed(1)} ms (${((n * DIMS * 4) / 2 ** 20).toFixed(0)} MiB); int8 full ${fb.toFixed(1)} ms (${((n * (DIMS + 4)) / 2 ** 20).toFixed(0)} MiB), top-200 recall vs float32 ${(overlapFull * 100).toFixed(1)} %; sign-bit prefilter + int8 rescoring of ${Math.max(PREFILTER_MIN, PREFILTER_FACTOR * 200).toLocaleString('en-US')} ${fc.toFixed(1)} ms (+${bitsMiB.toFixed(1)} MiB of bits; ${(fb / fc).toFixed(1)}× faster than int8 full, ${(fa / fc).toFixed(1)}× float32), top-200 recall vs float32 ${(overlapPre * 100).toFixed(1)} %`;
}

export async function benchSemantic(dir: string, runs: number): Promise<void> {
  console.log('\nsemantic (vectors.db int8, brute force; hash embedder of 256 dims)');
  console.log(benchScan(100_000, runs));
  console.log(benchScan(1_000_000, Math.max(3, Math.floor(runs / 5))));
  mkdirSync(dir, { recursive: true });
  // The generator's target is not its count (100,000 asked gives ~61,000 messages); the line
  // below prints the count. LOOKBACK_BENCH_SEMANTIC_MESSAGES=170000 gives ~100,000.
  const target = Number(process.env.LOOKBACK_BENCH_SEMANTIC_MESSAGES ?? 100_000);
  const path = join(dir, target === 100_000 ? 'semantic-100k.db' : `semantic-${target}.db`);
  if (!existsSync(path))
    generateStore(path, {
      layout: 30,
      // ~25 messages a session as at 100k; a million messages spread over ~40,000 sessions.
      sessions: Math.max(4000, Math.round(target / 42.5)),
      targetMessages: target,
      seed: 22,
    });
  const vpath = join(dir, 'semantic-vectors.db');
  for (const f of [vpath, `${vpath}-wal`, `${vpath}-shm`]) rmSync(f, { force: true });
  const store = Store.open(path);
  const embedder = new HashEmbedder();
  try {
    const vdb = new VectorDb(vpath);
    const t0 = performance.now();
    const p = await embedStore(store, vdb, embedder);
    const s = (performance.now() - t0) / 1000;
    vdb.db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = vdb.bytes(embedder.fingerprint);
    vdb.close();
    console.log(
      `  embed pass (hash embedder): ${p.total.toLocaleString('en-US')} messages, ${p.embedded.toLocaleString('en-US')} texts in ${s.toFixed(1)} s; vectors.db ${(statSync(vpath).size / 2 ** 20).toFixed(1)} MiB (int8 payloads ${(bytes / 2 ** 20).toFixed(1)} MiB; float32 would be ${((p.embedded * DIMS * 4) / 2 ** 20).toFixed(1)} MiB)`,
    );
    const qs = ['job queue in postgres', 'expired certificate renewal', 'flaky ci tests'];
    const opts = { limit: 10, vectorsPath: vpath, embedBudgetMs: 0 } as const;
    const timeIt = async (fn: (q: string) => unknown): Promise<number> => {
      for (const q of qs) await fn(q);
      const xs: number[] = [];
      for (let i = 0; i < runs; i++) {
        const q = qs[i % qs.length]!;
        const t = performance.now();
        await fn(q);
        xs.push(performance.now() - t);
      }
      return median(xs);
    };
    const exact = await timeIt((q) => discover(store, q, { limit: 10, views: false }));
    const relaxed = await timeIt((q) =>
      discover(store, q, { limit: 10, views: false, relaxed: true }),
    );
    const sem = await timeIt((q) =>
      semanticSearch(store, q, { ...opts, mode: 'semantic', embedder }),
    );
    const hyb = await timeIt((q) =>
      semanticSearch(store, q, { ...opts, mode: 'hybrid', embedder }),
    );
    console.log(
      `  warm search at ${p.total.toLocaleString('en-US')} messages (median of ${runs}): exact ${exact.toFixed(1)} ms, relaxed ${relaxed.toFixed(1)} ms, semantic ${sem.toFixed(1)} ms (${(sem / exact).toFixed(1)}× exact), hybrid ${hyb.toFixed(1)} ms (${(hyb / exact).toFixed(1)}× exact)`,
    );
  } finally {
    store.close();
  }
}
