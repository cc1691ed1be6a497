/**
 * `lookback mcp --http [ADDR]`: the same tools over Streamable HTTP, for an
 * agent that connects to a URL instead of starting a process. Both protocol
 * eras are served per request by the SDK's `createMcpHandler`: a 2025 client
 * statelessly (no sessions), a 2026-07-28 client as that revision is.
 *
 * In front of the SDK, in this order, each refusal one line of JSON-RPC error
 * with its HTTP status, before any store is touched:
 * - only `/mcp` is served (404);
 * - on a loopback bind, the Host (and any Origin) must be loopback too: a web
 *   page that rebinds its name to 127.0.0.1 gets 403, not the user's history;
 * - on any other address, `Authorization: Bearer <token>` (token.ts) or 401;
 * - a body over MAX_BODY_BYTES is 413, read no further.
 * The server keeps answering whatever a request sent.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { isIP } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { UsageError } from '../recall/usage.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { Sources } from './call.js';
import { createServer } from './protocol.js';
import { bearerMatches, loadOrCreateToken, tokenPath } from './token.js';
import { flattenError } from './wire.js';
import { MAX_BODY_BYTES } from '../budgets.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7337;
export const PATH = '/mcp';

export interface Address {
  host: string;
  port: number;
}

/** `ADDR`: host:port, [v6]:port, a port alone, or a host alone; loopback:7337 when omitted. */
export function parseAddress(raw: string | undefined): Address {
  const text = raw?.trim() ?? '';
  if (text === '') return { host: DEFAULT_HOST, port: DEFAULT_PORT };
  let host = text;
  let port = String(DEFAULT_PORT);
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) {
    host = v6[1]!;
    port = v6[2] ?? port;
  } else if (/^\d+$/.test(text)) {
    host = DEFAULT_HOST;
    port = text;
  } else if (/^[^:]+:\d*$/.test(text)) {
    [host, port] = text.split(':') as [string, string];
    if (port === '') port = String(DEFAULT_PORT);
  } else if (text.includes(':') && isIP(text) !== 6) {
    throw new UsageError(
      `--http takes HOST:PORT, [IPv6]:PORT, PORT or HOST, not "${sanitizeLine(text)}"`,
    );
  }
  const n = Number(port);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`--http port must be 0..65535, not "${sanitizeLine(port)}"`);
  if (!/^[A-Za-z0-9.:_-]+$/.test(host))
    throw new UsageError(`--http host "${sanitizeLine(host)}" is not a host name or address`);
  return { host, port: n };
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1'
  );
}

/** The host part of a Host header or an Origin URL, without port or brackets. */
function hostOf(value: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname.replace(
      /^\[|\]$/g,
      '',
    );
  } catch {
    return null;
  }
}

/** A JSON-RPC error as the whole response: one line a person or a program reads. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
  res.writeHead(status, { 'content-type': 'application/json', ...headers, connection: 'close' });
  res.end(`${body}\n`);
}

/** A JSON-RPC message with its error message made one line; anything else unchanged. */
function flattenJson(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && 'error' in parsed
      ? JSON.stringify(flattenError(parsed))
      : text;
  } catch {
    return text;
  }
}

/** The body, or null once it passes `max` bytes (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface HttpOptions {
  address: Address;
  /** Required beyond loopback; undefined on loopback. */
  token?: string;
  warn: (line: string) => void;
}

export interface Listening {
  url: string;
  close: () => Promise<void>;
}

/** Starts the listener; resolves once it is bound. */
export async function listenHttp(from: Sources, opts: HttpOptions): Promise<Listening> {
  const loopback = isLoopback(opts.address.host);
  if (!loopback && !opts.token)
    throw new UsageError('an address beyond loopback needs a bearer token');
  const handler = createMcpHandler(() => createServer(from), {
    // No tool emits notifications: every answer is one JSON body anyway.
    responseMode: 'auto',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (err) => opts.warn(`mcp http: ${err?.message ?? String(err)}`),
  });

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://lookback.invalid');
    if (url.pathname !== PATH) return refuse(res, 404, `not found: lookback serves MCP at ${PATH}`);
    if (loopback) {
      const host = hostOf(req.headers.host ?? '');
      if (host === null || !isLoopback(host))
        return refuse(res, 403, 'forbidden: Host is not a loopback name');
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== 'null' && !isLoopback(hostOf(origin) ?? ''))
        return refuse(res, 403, 'forbidden: Origin is not a loopback page');
    } else if (!bearerMatches(req.headers.authorization, opts.token!)) {
      return refuse(
        res,
        401,
        'unauthorized: send Authorization: Bearer <token> (lookback mcp --http prints where it is kept)',
        {
          'www-authenticate': 'Bearer realm="lookback"',
        },
      );
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES)
      return refuse(res, 413, `request too large: at most ${MAX_BODY_BYTES} bytes`);
    const body = req.method === 'POST' ? await readBody(req, MAX_BODY_BYTES) : null;
    if (req.method === 'POST' && body === null)
      return refuse(res, 413, `request too large: at most ${MAX_BODY_BYTES} bytes`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const request = new Request(`http://${headers.get('host') ?? 'localhost'}${req.url ?? PATH}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
    const response = await handler.fetch(request);
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => (out[name] = value));
    const type = out['content-type'] ?? '';
    if (type.includes('text/event-stream') && response.body) {
      // A stream (a 2025 stateless answer, or a 2026 subscription) is passed on as it
      // comes, each `data:` line's error made one line; never buffered whole.
      res.writeHead(response.status, out);
      let partial = '';
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      res.on('close', () => void reader.cancel().catch(() => {}));
      for (;;) {
        const { done, value } = await reader.read();
        partial += done ? decoder.decode() : decoder.decode(value, { stream: true });
        const cut = done ? partial.length : partial.lastIndexOf('\n') + 1;
        if (cut > 0) {
          res.write(
            partial
              .slice(0, cut)
              .replace(/^data: (.*)$/gm, (_, data: string) => `data: ${flattenJson(data)}`),
          );
          partial = partial.slice(cut);
        }
        if (done) break;
      }
      res.end();
      return;
    }
    let payload = Buffer.from(await response.arrayBuffer());
    // The SDK's own refusals can be pretty-printed validator output: one line, as on stdio.
    if (type.includes('application/json') && payload.length > 0) {
      payload = Buffer.from(flattenJson(payload.toString('utf8')));
      delete out['content-length'];
    }
    res.writeHead(response.status, out);
    res.end(payload);
  };

  const server = createHttpServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      opts.warn(`mcp http: ${(err as Error)?.message ?? String(err)}`);
      refuse(res, 500, 'internal error: the request could not be answered');
    });
  });
  // A slow or stalled client is dropped instead of held open.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.address.port, opts.address.host, () => resolve());
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : opts.address.port;
  const host = opts.address.host.includes(':') ? `[${opts.address.host}]` : opts.address.host;
  return {
    url: `http://${host}:${port}${PATH}`,
    close: async () => {
      await handler.close().catch(() => {});
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections would hold close() open: end them too.
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Serves until SIGTERM/SIGINT; says where, and (once) the token a remote client needs. */
export async function serveHttp(
  from: Sources,
  rawAddress: string | undefined,
  warn: (line: string) => void,
): Promise<number> {
  const address = parseAddress(rawAddress);
  let token: string | undefined;
  if (!isLoopback(address.host)) {
    const t = loadOrCreateToken(tokenPath());
    token = t.value;
    // The token is shown once, when made; afterwards only where it is kept.
    if (t.created)
      process.stderr.write(
        `lookback: mcp: new bearer token (shown once; kept in ${t.path}, mode 600):\n${t.value}\n`,
      );
    else process.stderr.write(`lookback: mcp: bearer token in ${t.path}\n`);
  }
  let listening: Listening;
  try {
    listening = await listenHttp(from, { address, ...(token ? { token } : {}), warn });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(
      `cannot listen on ${address.host}:${address.port}: ${e.code === 'EADDRINUSE' ? 'the address is in use' : e.code === 'EADDRNOTAVAIL' ? 'no such address here' : sanitizeLine(e.message)}`,
    );
  }
  // Signals are handled before the endpoint is announced: a client that stops the
  // server the moment it reads the line still gets a clean exit.
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      void listening.close().finally(() => {
        from.stores.closeAll();
        from.agents.close();
        resolve(0);
      });
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  process.stderr.write(
    `lookback: mcp: serving ${listening.url} (${token ? 'bearer token required' : 'loopback only'})\n`,
  );
  return stopped;
}
