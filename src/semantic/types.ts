/**
 * Semantic search's embedders (docs/ARCHITECTURE.md, README "Semantic and
 * hybrid search"): what lookback asks of a model, whichever runs it.
 */

/** `query` and `doc` may be embedded differently (e5's `query: ` / `passage: ` prefixes). */
export type EmbedRole = 'query' | 'doc';

export interface Embedder {
  /** The spec the user gave, for messages (`model2vec:/models/potion`, `ollama:bge-m3`). */
  readonly id: string;
  /** Vector length; known after load (HTTP embedders learn it from the first answer). */
  dims: number;
  /**
   * What the vectors depend on (provider, model, its files' sizes and times, prefixes):
   * vectors of another fingerprint are never compared with these.
   */
  readonly fingerprint: string;
  /** Whether the texts leave this machine (a remote endpoint): said once to the user. */
  readonly remote: boolean;
  /** One L2-normalised vector per text, in order. Throws EmbedError. */
  embed(texts: readonly string[], role: EmbedRole): Promise<Float32Array[]>;
}

/** Any failure of an embedder, as one line a person can act on. */
export class EmbedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedError';
  }
}

/** Scales `v` to unit length in place; a zero or non-finite vector is an error (agentsview's rule). */
export function normalise(v: Float32Array, what: string): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) throw new EmbedError(`${what}: the vector holds a non-finite number`);
    s += x * x;
  }
  if (s === 0) throw new EmbedError(`${what}: the vector is all zeros`);
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
}
