/**
 * `--embedder SPEC` (or LOOKBACK_EMBEDDER): which model embeds, chosen by the user.
 * - `model2vec:DIR`           a model2vec folder (pure JS)
 * - `onnx:DIR`                an ONNX folder (optional onnxruntime-node)
 * - `ollama:MODEL[@URL]`      Ollama, default http://127.0.0.1:11434
 * - `openai:MODEL@BASE_URL`   an OpenAI-compatible server; key from LOOKBACK_EMBED_API_KEY or OPENAI_API_KEY
 */
import { OllamaEmbedder, OpenAiEmbedder } from './http.js';
import { Model2Vec } from './model2vec.js';
import { OnnxEmbedder } from './onnx.js';
import { EmbedError, type Embedder } from './types.js';

export const EMBEDDER_HELP = 'model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or openai:MODEL@BASE_URL';

export async function openEmbedder(
  spec: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Embedder> {
  const m = /^(model2vec|onnx|ollama|openai):(.+)$/.exec(spec.trim());
  if (!m) throw new EmbedError(`--embedder "${spec}": expected ${EMBEDDER_HELP}`);
  const [, kind, rest] = m as unknown as [string, string, string];
  const at = rest.lastIndexOf('@');
  const [name, url] = at > 0 ? [rest.slice(0, at), rest.slice(at + 1)] : [rest, undefined];
  const checkUrl = (u: string): string => {
    try {
      const p = new URL(u);
      if (p.protocol !== 'http:' && p.protocol !== 'https:') throw new Error();
      return u;
    } catch {
      throw new EmbedError(`--embedder "${spec}": "${u}" is not an http(s) URL`);
    }
  };
  const timeoutMs = env.LOOKBACK_EMBED_TIMEOUT_MS
    ? Number(env.LOOKBACK_EMBED_TIMEOUT_MS)
    : undefined;
  const common = {
    ...(timeoutMs ? { timeoutMs } : {}),
    ...(env.LOOKBACK_EMBED_QUERY_PREFIX ? { queryPrefix: env.LOOKBACK_EMBED_QUERY_PREFIX } : {}),
    ...(env.LOOKBACK_EMBED_DOC_PREFIX ? { docPrefix: env.LOOKBACK_EMBED_DOC_PREFIX } : {}),
  };
  switch (kind) {
    case 'model2vec':
      return Model2Vec.load(rest);
    case 'onnx':
      return OnnxEmbedder.load(rest);
    case 'ollama':
      return new OllamaEmbedder(name, url ? checkUrl(url) : undefined, common);
    default: {
      if (!url)
        throw new EmbedError(
          `--embedder "${spec}": openai: needs MODEL@BASE_URL (e.g. …@http://127.0.0.1:8080/v1)`,
        );
      const apiKey = env.LOOKBACK_EMBED_API_KEY ?? env.OPENAI_API_KEY;
      return new OpenAiEmbedder(name, checkUrl(url), { ...common, ...(apiKey ? { apiKey } : {}) });
    }
  }
}
