/**
 * A model2vec folder (static embeddings, e.g. minishlab/potion-base-8M or
 * potion-multilingual-128M): `tokenizer.json`, `model.safetensors` with one
 * row per vocabulary id, and optionally `config.json` (`normalize`). A text's
 * vector is the mean of its tokens' rows, unit length. No native code, no
 * network: thousands of texts a second on one core.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readMatrix, type Matrix } from './safetensors.js';
import { parseTokenizer, type Tokenizer } from './tokenizer.js';
import { EmbedError, normalise, type EmbedRole, type Embedder } from './types.js';

/** Tokens of a text that count: a pasted log does not cost more than its head. */
const MAX_TOKENS = 512;

export class Model2Vec implements Embedder {
  readonly remote = false;
  readonly fingerprint: string;
  dims: number;
  private constructor(
    readonly id: string,
    private readonly tok: Tokenizer,
    private readonly m: Matrix,
    fingerprint: string,
  ) {
    this.dims = m.cols;
    this.fingerprint = fingerprint;
  }

  static load(dir: string): Model2Vec {
    const id = `model2vec:${dir}`;
    const tokPath = join(dir, 'tokenizer.json');
    const matPath = join(dir, 'model.safetensors');
    for (const p of [tokPath, matPath])
      if (!existsSync(p))
        throw new EmbedError(
          `${id}: ${p} is missing (a model2vec folder holds tokenizer.json and model.safetensors)`,
        );
    const tokText = readFileSync(tokPath, 'utf8');
    const tok = parseTokenizer(tokText, tokPath);
    const m = readMatrix(matPath, 'embeddings');
    if (m.rows < tok.vocabSize)
      throw new EmbedError(
        `${id}: the matrix has ${m.rows} rows for ${tok.vocabSize} vocabulary entries`,
      );
    let normalize = true;
    const cfg = join(dir, 'config.json');
    if (existsSync(cfg)) {
      try {
        normalize =
          (JSON.parse(readFileSync(cfg, 'utf8')) as { normalize?: boolean }).normalize ?? true;
      } catch {
        throw new EmbedError(`${cfg}: not valid JSON`);
      }
    }
    void normalize; // Vectors are compared by cosine: always unit length here.
    const fp = createHash('sha256')
      .update(tokText)
      .update(`${statSync(matPath).size}:${m.rows}x${m.cols}:`)
      .update(Buffer.from(m.data.buffer, m.data.byteOffset, Math.min(m.data.byteLength, 1 << 16)))
      .digest('hex')
      .slice(0, 16);
    return new Model2Vec(id, tok, m, `model2vec:${fp}`);
  }

  embed(texts: readonly string[], _role?: EmbedRole): Promise<Float32Array[]> {
    const { cols, data } = this.m;
    return Promise.resolve(
      texts.map((t) => {
        const v = new Float32Array(cols);
        const ids = this.tok
          .encode(t, MAX_TOKENS)
          .filter((i) => i !== this.tok.cls && i !== this.tok.sep);
        for (const id of ids) {
          const row = id * cols;
          for (let j = 0; j < cols; j++) v[j] = v[j]! + data[row + j]!;
        }
        // No known token (only punctuation): a zero vector, similar to nothing, not an error.
        return ids.length === 0 ? v : normalise(v, this.id);
      }),
    );
  }
}
