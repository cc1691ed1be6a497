/**
 * An ONNX sentence model folder (suggested: multilingual-e5-small, int8):
 * `model.onnx`, `tokenizer.json` and optionally `lookback-model.json`
 * (`{"pooling": "mean"|"cls", "queryPrefix": "query: ", "docPrefix":
 * "passage: ", "maxTokens": 512}`). The runtime, onnxruntime-node (~290 MB), is
 * an OPTIONAL dependency loaded only here, only when asked for: lookback's
 * install does not grow. Without it the error says the one command to run.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseTokenizer, type Tokenizer } from './tokenizer.js';
import { EmbedError, normalise, type EmbedRole, type Embedder } from './types.js';

interface OrtTensor {
  data: Float32Array;
  dims: readonly number[];
}
interface OrtSession {
  inputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}
interface Ort {
  InferenceSession: {
    create(path: string, opts?: Record<string, unknown>): Promise<OrtSession>;
  };
  Tensor: new (type: string, data: BigInt64Array, dims: number[]) => unknown;
}

interface ModelConfig {
  pooling?: 'mean' | 'cls';
  queryPrefix?: string;
  docPrefix?: string;
  maxTokens?: number;
}

/** The optional runtime, or one line saying how to get it. */
export async function loadOrt(moduleName = 'onnxruntime-node'): Promise<Ort> {
  try {
    // A variable, so the bundler leaves the import to run time.
    const mod = (await import(moduleName)) as Ort & { default?: Ort };
    return mod.InferenceSession ? mod : mod.default!;
  } catch {
    throw new EmbedError(
      `onnx embedder needs the optional package ${moduleName}: run \`npm install ${moduleName}\` in lookback's folder (~290 MB), or use model2vec:, ollama: or openai:`,
    );
  }
}

export class OnnxEmbedder implements Embedder {
  readonly remote = false;
  dims = 0;
  private constructor(
    readonly id: string,
    readonly fingerprint: string,
    private readonly ort: Ort,
    private readonly session: OrtSession,
    private readonly tok: Tokenizer,
    private readonly cfg: Required<ModelConfig>,
  ) {}

  static async load(dir: string, moduleName?: string): Promise<OnnxEmbedder> {
    const id = `onnx:${dir}`;
    const model = join(dir, 'model.onnx');
    const tokPath = join(dir, 'tokenizer.json');
    for (const p of [model, tokPath])
      if (!existsSync(p))
        throw new EmbedError(
          `${id}: ${p} is missing (an onnx folder holds model.onnx and tokenizer.json)`,
        );
    const tokText = readFileSync(tokPath, 'utf8');
    const tok = parseTokenizer(tokText, tokPath);
    let cfg: ModelConfig = {};
    const cfgPath = join(dir, 'lookback-model.json');
    if (existsSync(cfgPath)) {
      try {
        cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as ModelConfig;
      } catch {
        throw new EmbedError(`${cfgPath}: not valid JSON`);
      }
    }
    const ort = await loadOrt(moduleName);
    let session: OrtSession;
    try {
      // One intra-op thread: the machine is shared with the agents themselves.
      session = await ort.InferenceSession.create(model, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      });
    } catch (err) {
      throw new EmbedError(
        `${id}: cannot load model.onnx: ${String((err as Error).message).split('\n')[0]}`,
      );
    }
    const full: Required<ModelConfig> = {
      pooling: cfg.pooling ?? 'mean',
      queryPrefix: cfg.queryPrefix ?? '',
      docPrefix: cfg.docPrefix ?? '',
      maxTokens: cfg.maxTokens ?? 512,
    };
    const fp = createHash('sha256')
      .update(tokText)
      .update(JSON.stringify(full))
      .update(`${statSync(model).size}:${statSync(model).mtimeMs}`)
      .digest('hex')
      .slice(0, 16);
    return new OnnxEmbedder(id, `onnx:${fp}`, ort, session, tok, full);
  }

  /** One text at a time: no padding, so batch size never changes a vector. */
  async embed(texts: readonly string[], role: EmbedRole): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const prefix = role === 'query' ? this.cfg.queryPrefix : this.cfg.docPrefix;
    for (const t of texts) {
      const body = this.tok.encode(prefix + t, this.cfg.maxTokens - 2);
      const ids = [
        ...(this.tok.cls !== null ? [this.tok.cls] : []),
        ...body,
        ...(this.tok.sep !== null ? [this.tok.sep] : []),
      ];
      const n = ids.length;
      const feeds: Record<string, unknown> = {};
      const big = (xs: number[]) =>
        new this.ort.Tensor('int64', BigInt64Array.from(xs.map(BigInt)), [1, n]);
      for (const name of this.session.inputNames) {
        if (name === 'input_ids') feeds[name] = big(ids);
        else if (name === 'attention_mask') feeds[name] = big(ids.map(() => 1));
        else if (name === 'token_type_ids') feeds[name] = big(ids.map(() => 0));
      }
      let result: Record<string, OrtTensor>;
      try {
        result = await this.session.run(feeds);
      } catch (err) {
        throw new EmbedError(`${this.id}: ${String((err as Error).message).split('\n')[0]}`);
      }
      const hidden = result['last_hidden_state'] ?? Object.values(result)[0]!;
      const d = hidden.dims.at(-1)!;
      if (this.dims === 0) this.dims = d;
      const v = new Float32Array(d);
      if (hidden.dims.length === 2) v.set(hidden.data.subarray(0, d));
      else if (this.cfg.pooling === 'cls') v.set(hidden.data.subarray(0, d));
      else {
        for (let i = 0; i < n; i++)
          for (let j = 0; j < d; j++) v[j] = v[j]! + hidden.data[i * d + j]!;
        for (let j = 0; j < d; j++) v[j] = v[j]! / n;
      }
      out.push(normalise(v, this.id));
    }
    return out;
  }
}
