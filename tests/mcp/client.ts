/**
 * Drives the built `lookback mcp` as an agent does: the SDK's own Client (v2,
 * which speaks both protocol eras) over a StdioClientTransport that spawns
 * `dist/lookback.js mcp …`, or over Streamable HTTP to `lookback mcp --http`.
 *
 * `LOOKBACK_TEST_ERA=modern` runs every test that uses this client at the
 * 2026-07-28 revision (pinned: no fallback); the default is the 2025 handshake.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';

export type Era = 'legacy' | 'modern';

export interface Server {
  client: Client;
  /** The server process's id (stdio: the transport's child; HTTP: the spawned server). */
  pid: number;
  /** Everything the server wrote on stderr so far. */
  stderr: () => string;
  close: () => Promise<void>;
}

export interface Answer {
  isError: boolean;
  /** The text content parsed as JSON (what the model reads). */
  json: Record<string, unknown>;
  /** The raw text content. */
  text: string;
  structured: unknown;
}

/** The environment every CLI test uses: no real home, no HERMES_HOME, no cache. */
export const ISOLATED_ENV = {
  HOME: '/nonexistent-home',
  HERMES_HOME: '',
  XDG_CACHE_HOME: '/nonexistent-cache',
  XDG_CONFIG_HOME: '/nonexistent-config',
};

export const DEFAULT_ERA: Era = process.env.LOOKBACK_TEST_ERA === 'modern' ? 'modern' : 'legacy';

export function newClient(era: Era): Client {
  return new Client(
    { name: 'lookback-tests', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
}

export async function startServer(
  args: string[],
  env: Record<string, string> = {},
  era: Era = DEFAULT_ERA,
): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    // Other agents' index goes to a fresh temp file unless the test names one.
    env: { ...ISOLATED_ENV, LOOKBACK_INDEX: join(tempDir(), 'agents.db'), ...env },
    stderr: 'pipe',
  });
  let err = '';
  (transport.stderr as PassThrough | null)?.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const client = newClient(era);
  await client.connect(transport);
  if (client.getProtocolEra() !== era)
    throw new Error(`connected at era ${client.getProtocolEra()}, expected ${era}`);
  return {
    client,
    pid: transport.pid!,
    stderr: () => err,
    close: () => client.close(),
  };
}

export interface HttpServer {
  child: ChildProcess;
  /** The endpoint, e.g. http://127.0.0.1:41234/mcp. */
  url: URL;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** Starts `lookback mcp --http ADDR …` and waits for the line naming its endpoint. */
export async function startHttp(
  args: string[],
  env: Record<string, string> = {},
): Promise<HttpServer> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
    env: {
      ...process.env,
      ...ISOLATED_ENV,
      LOOKBACK_INDEX: join(tempDir(), 'agents.db'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no endpoint line; stderr: ${err}`)), 10_000);
    const look = () => {
      const m = /(http:\/\/\S+\/mcp)\b/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]!));
      }
    };
    child.stderr!.on('data', look);
    void exited.then((c) => reject(new Error(`server exited ${c}: ${err}`)));
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The SDK client over Streamable HTTP, at one era, with an optional bearer token. */
export async function connectHttp(url: URL, era: Era, token?: string): Promise<Client> {
  const client = newClient(era);
  const transport = new StreamableHTTPClientTransport(url, {
    ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
  await client.connect(transport);
  if (client.getProtocolEra() !== era)
    throw new Error(`connected at era ${client.getProtocolEra()}, expected ${era}`);
  return client;
}

export async function callOn(
  client: Client,
  args: Record<string, unknown>,
  name = 'session_search',
): Promise<Answer> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text: string }[];
  if (content.length !== 1 || content[0]!.type !== 'text')
    throw new Error(`expected one text content, got ${JSON.stringify(content)}`);
  const text = content[0]!.text;
  return {
    isError: r.isError === true,
    json: JSON.parse(text) as Record<string, unknown>,
    text,
    structured: r.structuredContent,
  };
}

export function call(
  server: Server,
  args: Record<string, unknown>,
  name = 'session_search',
): Promise<Answer> {
  return callOn(server.client, args, name);
}

/** One raw POST (any headers, any body) to the server; the status and the body as text. */
export function rawPost(
  url: URL,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (b: Buffer) => (text += b.toString('utf8')));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
