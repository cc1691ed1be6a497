/** The model2vec embedder on a tiny model the test writes: tokenizing, pooling, errors. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Model2Vec } from '../../src/semantic/model2vec.js';
import { loadOrt, OnnxEmbedder } from '../../src/semantic/onnx.js';
import { openEmbedder } from '../../src/semantic/spec.js';
import { parseTokenizer } from '../../src/semantic/tokenizer.js';
import { EmbedError } from '../../src/semantic/types.js';
import { tempDir } from '../helpers/fixtures.js';
import { row, VOCAB, writeTinyModel } from './tinyModel.js';

const id = (w: string): number => VOCAB.indexOf(w);

function meanOf(words: string[], dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of words) row(id(w), dims).forEach((x, j) => (v[j]! += x));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('model2vec folder', () => {
  it('embeds a text as the unit mean of its WordPiece rows', async () => {
    const m = Model2Vec.load(writeTinyModel(join(tempDir(), 'm')));
    expect(m.dims).toBe(8);
    // "Jobs" → job ##s (lower-cased, sub-word), "Postgres." → postgres . ; "in", "zebra" → [UNK].
    const [v] = await m.embed(['Jobs in Postgres. zebra'], 'doc');
    const want = meanOf(['job', '##s', '[UNK]', 'postgres', '.', '[UNK]'], 8);
    expect(Array.from(v!).map((x) => +x.toFixed(5))).toEqual(want.map((x) => +x.toFixed(5)));
  });

  it('gives the same vector alone and in a batch, and every time', async () => {
    const m = Model2Vec.load(writeTinyModel(join(tempDir(), 'm')));
    const texts = ['redis queue', 'certificate expired', 'cat dog'];
    const batch = await m.embed(texts, 'doc');
    for (const [i, t] of texts.entries())
      expect((await m.embed([t], 'query'))[0]).toEqual(batch[i]);
    const other = Model2Vec.load(writeTinyModel(join(tempDir(), 'm')));
    expect(other.fingerprint).toBe(m.fingerprint);
  });

  it('reads F16 matrices, and CJK characters as words of their own', async () => {
    const m = Model2Vec.load(writeTinyModel(join(tempDir(), 'm'), 8, 'F16'));
    const [v] = await m.embed(['证书'], 'doc');
    const want = meanOf(['证', '书'], 8);
    Array.from(v!).forEach((x, j) => expect(x).toBeCloseTo(want[j]!, 2));
  });

  it('a text of punctuation the vocabulary lacks is a zero vector, not an error', async () => {
    const m = Model2Vec.load(writeTinyModel(join(tempDir(), 'm')));
    const [v] = await m.embed([''], 'doc');
    expect(Array.from(v!).every((x) => x === 0)).toBe(true);
  });

  it('a broken folder is one line naming the file', () => {
    const dir = writeTinyModel(join(tempDir(), 'm'));
    writeFileSync(join(dir, 'model.safetensors'), Buffer.from([1, 2, 3]));
    expect(() => Model2Vec.load(dir)).toThrow(EmbedError);
    expect(() => Model2Vec.load(dir)).toThrow(
      /model\.safetensors: not a safetensors file \(too short\)$/,
    );
    expect(() => Model2Vec.load(join(tempDir(), 'none'))).toThrow(/tokenizer\.json is missing/);
    writeFileSync(
      join(dir, 'tokenizer.json'),
      JSON.stringify({ model: { type: 'BPE', vocab: {} } }),
    );
    expect(() => Model2Vec.load(dir)).toThrow(/tokenizer model "BPE" is not supported/);
  });

  it('Unigram vocabularies segment by the best total score', () => {
    const t = parseTokenizer(
      JSON.stringify({
        model: {
          type: 'Unigram',
          unk_id: 0,
          vocab: [
            ['<unk>', 0],
            ['\u2581', -2],
            ['\u2581job', -3],
            ['\u2581jo', -4],
            ['b', -4],
            ['s', -2],
            ['\u2581queue', -3],
          ],
        },
      }),
      'tokenizer.json',
    );
    expect(t.encode('jobs queue')).toEqual([2, 5, 6]);
    expect(t.encode('jobs ?')).toEqual([2, 5, 1, 0]);
  });

  it('an unknown --embedder and a missing onnx runtime are one line each', async () => {
    await expect(openEmbedder('word2vec:/x')).rejects.toThrow(/expected model2vec:DIR, onnx:DIR/);
    await expect(openEmbedder('openai:text-embedding-3-small')).rejects.toThrow(
      /needs MODEL@BASE_URL/,
    );
    await expect(openEmbedder('ollama:bge-m3@ftp://x')).rejects.toThrow(/not an http\(s\) URL/);
    await expect(loadOrt('lookback-no-such-runtime')).rejects.toThrow(
      /^onnx embedder needs the optional package lookback-no-such-runtime: run `npm install lookback-no-such-runtime`/,
    );
    const dir = writeTinyModel(join(tempDir(), 'o'));
    writeFileSync(join(dir, 'model.onnx'), 'not a model');
    await expect(OnnxEmbedder.load(dir, 'lookback-no-such-runtime')).rejects.toThrow(
      /optional package lookback-no-such-runtime/,
    );
  });
});
