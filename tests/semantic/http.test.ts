/**
 * The HTTP embedders against real servers on 127.0.0.1 started here, which
 * also fail: 429 with Retry-After, 500, no answer, wrong dimensions, a wrong
 * count. Every failure is one line naming the embedder and the address.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaEmbedder, OpenAiEmbedder } from '../../src/semantic/http.js';
import { EmbedError } from '../../src/semantic/types.js';

type Handler = (
  body: { model: string; input: string[] },
  req: IncomingMessage,
  res: ServerResponse,
  n: number,
) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((r) => s.close(r));
    }),
  );
});

async function serve(handler: Handler): Promise<{ base: string; calls: () => number }> {
  let n = 0;
  const s = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => handler(JSON.parse(raw || '{}'), req, res, ++n));
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, calls: () => n };
}

/** A deterministic vector of `dims` numbers for a text. */
const vec = (t: string, dims = 4): number[] =>
  Array.from(
    { length: dims },
    (_, j) => ((t.charCodeAt(t.length - 1 - (j % t.length)) * (j + 1)) % 17) + 1,
  );

const json = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('Ollama /api/embed', () => {
  it('embeds in batches, unit length, in order; loopback is not remote', async () => {
    const seen: string[][] = [];
    const { base } = await serve((b, req, res) => {
      expect(req.url).toBe('/api/embed');
      expect(b.model).toBe('bge-m3');
      seen.push(b.input);
      json(res, 200, { embeddings: b.input.map((t) => vec(t)) });
    });
    const e = new OllamaEmbedder('bge-m3', base, { batch: 2 });
    expect(e.remote).toBe(false);
    const out = await e.embed(['alpha', 'beta', 'gamma'], 'doc');
    expect(seen).toEqual([['alpha', 'beta'], ['gamma']]);
    expect(e.dims).toBe(4);
    out.forEach((v, i) => {
      const want = vec(['alpha', 'beta', 'gamma'][i]!);
      const n = Math.hypot(...want);
      Array.from(v).forEach((x, j) => expect(x).toBeCloseTo(want[j]! / n, 6));
    });
  });

  it('waits out a 429 with Retry-After, then answers', async () => {
    const { base, calls } = await serve((b, _req, res, n) =>
      n === 1
        ? json(res, 429, { error: 'slow down' }, { 'retry-after': '0.2' })
        : json(res, 200, { embeddings: b.input.map((t) => vec(t)) }),
    );
    const t = performance.now();
    const [v] = await new OllamaEmbedder('m', base).embed(['x'], 'query');
    expect(v!.length).toBe(4);
    expect(calls()).toBe(2);
    expect(performance.now() - t).toBeGreaterThanOrEqual(180);
  });

  it('a Retry-After longer than it will wait is one line, at once', async () => {
    const { base, calls } = await serve((_b, _req, res) =>
      json(res, 429, { error: 'quota' }, { 'retry-after': '3600' }),
    );
    const err = await new OllamaEmbedder('m', base).embed(['x'], 'doc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbedError);
    expect((err as Error).message).toBe(
      `ollama:m (${base}/api/embed): HTTP 429 (rate limited) after 1 try: {"error":"quota"}`,
    );
    expect(calls()).toBe(1);
  });

  it('a 500 is tried again, then one line', async () => {
    const { base, calls } = await serve((_b, _req, res) =>
      json(res, 500, { error: 'model crashed' }),
    );
    const err = (await new OllamaEmbedder('m', base, { tries: 2 })
      .embed(['x'], 'doc')
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      `ollama:m (${base}/api/embed): HTTP 500 after 2 tries: {"error":"model crashed"}`,
    );
    expect(calls()).toBe(2);
  });

  it('no answer within the timeout is one line', async () => {
    const { base } = await serve(() => {
      /* never answers */
    });
    const err = (await new OllamaEmbedder('m', base, { timeoutMs: 300 })
      .embed(['x'], 'doc')
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(`ollama:m (${base}/api/embed): no answer within 0.3 s`);
  });

  it('wrong dimensions, a wrong count and a refused connection are one line each', async () => {
    const { base } = await serve((b, _req, res, n) =>
      json(res, 200, { embeddings: b.input.map((t) => vec(t, n === 1 ? 4 : 3)) }),
    );
    const e = new OllamaEmbedder('m', base, { batch: 1 });
    const err = (await e.embed(['a', 'b'], 'doc').catch((x: unknown) => x)) as Error;
    expect(err.message).toBe(`ollama:m (${base}/api/embed): a vector has 3 dimensions, expected 4`);
    const fixed = new OllamaEmbedder('m', base, { dims: 8 });
    expect(((await fixed.embed(['a'], 'doc').catch((x: unknown) => x)) as Error).message).toMatch(
      /a vector has \d dimensions, expected 8$/,
    );
    const { base: short } = await serve((_b, _req, res) =>
      json(res, 200, { embeddings: [[1, 2]] }),
    );
    expect(
      (
        (await new OllamaEmbedder('m', short)
          .embed(['a', 'b'], 'doc')
          .catch((x: unknown) => x)) as Error
      ).message,
    ).toBe(`ollama:m (${short}/api/embed): 1 vectors for 2 texts`);
    const { base: zero } = await serve((_b, _req, res) => json(res, 200, { embeddings: [[0, 0]] }));
    expect(
      ((await new OllamaEmbedder('m', zero).embed(['a'], 'doc').catch((x: unknown) => x)) as Error)
        .message,
    ).toMatch(/the vector is all zeros$/);
    const closed = servers.pop()!;
    closed.closeAllConnections();
    await new Promise((r) => closed.close(r));
    expect(
      ((await new OllamaEmbedder('m', zero).embed(['a'], 'doc').catch((x: unknown) => x)) as Error)
        .message,
    ).toBe(`ollama:m (${zero}/api/embed): ECONNREFUSED`);
  });
});

describe('OpenAI-compatible /v1/embeddings', () => {
  it('sends the key from the options and the prefixes, reorders by index', async () => {
    const { base } = await serve((b, req, res) => {
      expect(req.url).toBe('/v1/embeddings');
      expect(req.headers.authorization).toBe('Bearer sk-test');
      json(res, 200, {
        data: b.input.map((t, index) => ({ index, embedding: vec(t) })).reverse(),
      });
    });
    const e = new OpenAiEmbedder('e5', `${base}/v1`, { apiKey: 'sk-test', queryPrefix: 'query: ' });
    const [a, b] = await e.embed(['one', 'two'], 'query');
    const want = vec('query: one');
    expect(a![0]).toBeCloseTo(want[0]! / Math.hypot(...want), 6);
    expect(b).not.toEqual(a);
    expect(e.fingerprint).toContain('e5');
    expect(new OpenAiEmbedder('m', 'https://api.example.com/v1').remote).toBe(true);
  });
});
