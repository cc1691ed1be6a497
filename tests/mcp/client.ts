/**
 * Drives the built `lookback mcp` as an agent does: the SDK's own Client over
 * a StdioClientTransport that spawns `dist/lookback.js mcp …`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';

export interface Server {
  client: Client;
  transport: StdioClientTransport;
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
};

export async function startServer(
  args: string[],
  env: Record<string, string> = {},
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
  const client = new Client({ name: 'lookback-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => err,
    close: () => client.close(),
  };
}

export async function call(server: Server, args: Record<string, unknown>): Promise<Answer> {
  const r = await server.client.callTool({ name: 'session_search', arguments: args });
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
