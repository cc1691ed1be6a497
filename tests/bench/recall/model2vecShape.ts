/**
 * Throughput of the model2vec path on a model of the real shape: a WordPiece
 * vocabulary of the corpus's 30,000 most frequent words (plus their `##`
 * endings) and a random 256-dimension float32 matrix, written as a real
 * model2vec folder and loaded by src/semantic/model2vec.ts. Speed does not
 * depend on the weights; quality would, so this embedder is timed, never scored.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embedStore } from '../../../src/semantic/hermes.js';
import { Model2Vec } from '../../../src/semantic/model2vec.js';
import { VectorDb } from '../../../src/semantic/vectors.js';
import type { Store } from '../../../src/store/store.js';

const VOCAB = 30_000;
const DIMS = 256;

export async function model2vecThroughput(store: Store, dir: string): Promise<string> {
  const counts = new Map<string, number>();
  for (const t of store
    .stmt(
      `SELECT content FROM messages WHERE role IN ('user','assistant') AND content <> '' LIMIT 20000`,
    )
    .pluck()
    .iterate() as Iterable<string>)
    for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
      counts.set(w, (counts.get(w) ?? 0) + 1);
  const words = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, VOCAB - 200)
    .map(([w]) => w);
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', ...words];
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') vocab.push(`##${c}`, c);
  const uniq = [...new Set(vocab)];
  const model = join(dir, 'm2v-shape');
  mkdirSync(model, { recursive: true });
  writeFileSync(
    join(model, 'tokenizer.json'),
    JSON.stringify({
      normalizer: { type: 'BertNormalizer', lowercase: true },
      model: {
        type: 'WordPiece',
        unk_token: '[UNK]',
        continuing_subword_prefix: '##',
        vocab: Object.fromEntries(uniq.map((w, i) => [w, i])),
      },
    }),
  );
  const data = Buffer.alloc(uniq.length * DIMS * 4);
  let seed = 1;
  for (let i = 0; i < uniq.length * DIMS; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data.writeFloatLE(seed / 2 ** 32 - 0.5, i * 4);
  }
  const header = Buffer.from(
    JSON.stringify({
      embeddings: { dtype: 'F32', shape: [uniq.length, DIMS], data_offsets: [0, data.length] },
    }),
  );
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  writeFileSync(join(model, 'model.safetensors'), Buffer.concat([len, header, data]));
  const t0 = performance.now();
  const m = Model2Vec.load(model);
  const loadMs = performance.now() - t0;
  const vdb = new VectorDb(join(dir, 'm2v-vectors.db'));
  try {
    vdb.db.exec(`DELETE FROM units; DELETE FROM vectors;`);
    const p = await embedStore(store, vdb, m);
    const size = vdb.db.prepare(`SELECT sum(length(vec)) FROM vectors`).pluck().get() as number;
    return `model2vec (real shape, random weights, ${uniq.length.toLocaleString()} × ${DIMS} f32): loaded in ${loadMs.toFixed(0)} ms, ${p.embedded.toLocaleString()} texts at ${Math.round(p.docsPerSecond).toLocaleString()} docs/s (one thread, with tokenising and writing vectors.db); vectors ${(size / 2 ** 20).toFixed(1)} MiB`;
  } finally {
    vdb.close();
  }
}
