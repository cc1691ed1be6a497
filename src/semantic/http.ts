/**
 * Embedders behind HTTP: Ollama's `/api/embed` and any OpenAI-compatible
 * `/v1/embeddings`. Texts go only where the user points: a loopback address
 * stays on this machine, any other host is said to be remote. Failures are one
 * line each: a 429 waits as long as Retry-After asks (up to a limit) and tries
 * again, a 5xx is tried once more, a timeout or a wrong answer is not.
 */
import { request as httpsRequest } from 'node:https';
import { extraCaTrust } from '../net/trust.js';
import { EmbedError, normalise, type EmbedRole, type Embedder } from './types.js';

export interface HttpOptions {
  /** Milliseconds per request. */
  timeoutMs?: number;
  /** Tries for a 429 or 5xx answer. */
  tries?: number;
  /** The longest Retry-After honoured, in milliseconds; longer is an error. */
  maxWaitMs?: number;
  /** Texts per request. */
  batch?: number;
  /** Expected vector length, when the user knows it (a different answer is an error). */
  dims?: number;
  /** OpenAI-compatible: the API key (from the environment, never a flag). */
  apiKey?: string;
  /** Prefixes for models trained with them (e5: `query: ` and `passage: `). */
  queryPrefix?: string;
  docPrefix?: string;
}

const DEFAULTS = { timeoutMs: 30_000, tries: 3, maxWaitMs: 10_000, batch: 32 };

function isLoopback(url: URL): boolean {
  const h = url.hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/**
 * POST over node:https with the CA list of src/net/trust.ts: Node 20's global
 * fetch takes no CA option. The answer is a real Response, so the retries and
 * messages below are the same as fetch's; the timeout covers the whole answer.
 */
function httpsPost(
  url: URL,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
  ca: string[],
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: 'POST', headers: init.headers, ca, signal: init.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v])
              headers.append(k, one);
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      },
    );
    function fail(err: Error): void {
      // As fetch: a timeout is the signal's TimeoutError; anything else carries its code.
      if (init.signal.aborted) reject(init.signal.reason as Error);
      else reject(Object.assign(new Error(err.message), { cause: err }));
    }
    req.on('error', fail);
    req.end(init.body);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Seconds or an HTTP date, as Retry-After may say; null when absent or unreadable. */
function retryAfterMs(v: string | null): number | null {
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

abstract class HttpEmbedder implements Embedder {
  readonly remote: boolean;
  dims: number;
  protected readonly o: Required<Omit<HttpOptions, 'dims' | 'apiKey'>> & HttpOptions;
  constructor(
    readonly id: string,
    protected readonly url: URL,
    protected readonly model: string,
    opts: HttpOptions,
  ) {
    this.o = { ...DEFAULTS, queryPrefix: '', docPrefix: '', ...opts };
    this.remote = !isLoopback(url);
    this.dims = opts.dims ?? 0;
  }
  abstract get fingerprint(): string;
  protected abstract body(texts: readonly string[]): unknown;
  protected abstract vectors(json: unknown): unknown[];
  protected headers(): Record<string, string> {
    return { 'content-type': 'application/json' };
  }

  async embed(texts: readonly string[], role: EmbedRole): Promise<Float32Array[]> {
    const prefix = role === 'query' ? this.o.queryPrefix : this.o.docPrefix;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.o.batch) {
      const chunk = texts.slice(i, i + this.o.batch).map((t) => prefix + t);
      out.push(...(await this.request(chunk)));
    }
    return out;
  }

  private async request(texts: readonly string[]): Promise<Float32Array[]> {
    const where = `${this.id} (${this.url.href})`;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        const init = {
          headers: this.headers(),
          body: JSON.stringify(this.body(texts)),
          signal: AbortSignal.timeout(this.o.timeoutMs),
        };
        // NODE_EXTRA_CA_CERTS deferred by the launcher: an https endpoint gets its certificates.
        const ca = this.url.protocol === 'https:' ? extraCaTrust() : undefined;
        res = ca
          ? await httpsPost(this.url, init, ca)
          : await fetch(this.url, { method: 'POST', ...init });
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        if (e.name === 'TimeoutError')
          throw new EmbedError(`${where}: no answer within ${this.o.timeoutMs / 1000} s`);
        throw new EmbedError(`${where}: ${e.cause?.code ?? e.message}`);
      }
      if (res.status === 429 || res.status >= 500) {
        const text = (await res.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 120);
        const wait =
          res.status === 429 ? (retryAfterMs(res.headers.get('retry-after')) ?? 1000) : 500;
        if (attempt < this.o.tries && wait <= this.o.maxWaitMs) {
          await sleep(wait);
          continue;
        }
        throw new EmbedError(
          `${where}: HTTP ${res.status}${res.status === 429 ? ' (rate limited)' : ''} after ${attempt} tr${attempt === 1 ? 'y' : 'ies'}${text ? `: ${text}` : ''}`,
        );
      }
      if (!res.ok) {
        const text = (await res.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 120);
        throw new EmbedError(`${where}: HTTP ${res.status}${text ? `: ${text}` : ''}`);
      }
      let json: unknown;
      try {
        json = await res.json();
      } catch {
        throw new EmbedError(`${where}: the answer is not JSON`);
      }
      const raw = this.vectors(json);
      if (raw.length !== texts.length)
        throw new EmbedError(`${where}: ${raw.length} vectors for ${texts.length} texts`);
      return raw.map((r) => {
        if (!Array.isArray(r) || r.some((x) => typeof x !== 'number'))
          throw new EmbedError(`${where}: a vector is not a list of numbers`);
        if (this.dims === 0) this.dims = r.length;
        if (r.length !== this.dims)
          throw new EmbedError(
            `${where}: a vector has ${r.length} dimensions, expected ${this.dims}`,
          );
        return normalise(Float32Array.from(r as number[]), where);
      });
    }
  }
}

/** Ollama: `POST /api/embed {model, input: [...]}` → `{embeddings: [[...]]}`. */
export class OllamaEmbedder extends HttpEmbedder {
  constructor(model: string, base = 'http://127.0.0.1:11434', opts: HttpOptions = {}) {
    super(`ollama:${model}`, new URL('/api/embed', base), model, opts);
  }
  get fingerprint(): string {
    return `ollama:${this.model}:${this.o.queryPrefix}|${this.o.docPrefix}`;
  }
  protected body(texts: readonly string[]): unknown {
    return { model: this.model, input: texts, truncate: true };
  }
  protected vectors(json: unknown): unknown[] {
    const e = (json as { embeddings?: unknown }).embeddings;
    if (!Array.isArray(e)) throw new EmbedError(`${this.id}: the answer has no "embeddings" list`);
    return e;
  }
}

/** OpenAI-compatible: `POST {base}/embeddings {model, input: [...]}` → `{data: [{index, embedding}]}`. */
export class OpenAiEmbedder extends HttpEmbedder {
  constructor(model: string, base: string, opts: HttpOptions = {}) {
    super(`openai:${model}`, new URL(`${base.replace(/\/+$/, '')}/embeddings`), model, opts);
  }
  get fingerprint(): string {
    return `openai:${this.url.host}:${this.model}:${this.o.queryPrefix}|${this.o.docPrefix}`;
  }
  protected override headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
    };
  }
  protected body(texts: readonly string[]): unknown {
    return { model: this.model, input: texts, encoding_format: 'float' };
  }
  protected vectors(json: unknown): unknown[] {
    const d = (json as { data?: { index?: number; embedding?: unknown }[] }).data;
    if (!Array.isArray(d)) throw new EmbedError(`${this.id}: the answer has no "data" list`);
    return [...d].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((x) => x.embedding);
  }
}
