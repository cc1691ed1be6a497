/**
 * A raw JSON-RPC client that misbehaves: garbage, batches, wrong methods,
 * wrong argument types, huge arguments and huge lines, over stdio and over
 * HTTP (where a wrong token joins them). Every mistake gets one line of
 * JSON-RPC error (or a one-line tool error), and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from '../helpers/cli.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { ISOLATED_ENV, rawPost, startHttp, type HttpServer } from './client.js';

const INIT = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
const LIST = { jsonrpc: '2.0', id: 'list', method: 'tools/list' };

interface Reply {
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Each bad line and the error code it must get back. */
const BAD: { what: string; line: string; code: number }[] = [
  { what: 'garbage', line: 'garbage{{{', code: -32700 },
  { what: 'binary', line: '\u0000\u0001\u00ff', code: -32700 },
  { what: 'a batch', line: JSON.stringify([LIST, LIST]), code: -32600 },
  { what: 'a number', line: '42', code: -32600 },
  { what: 'no jsonrpc', line: JSON.stringify({ id: 7, method: 'tools/list' }), code: -32600 },
  { what: 'no method', line: JSON.stringify({ jsonrpc: '2.0', id: 8 }), code: -32600 },
  {
    what: 'params not an object',
    line: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: [1] }),
    code: -32602,
  },
  {
    what: 'a wrong method',
    line: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'sessions/steal' }),
    code: -32601,
  },
  {
    what: 'arguments not an object',
    line: JSON.stringify({
      jsonrpc: '2.0',
      id: 11,
      method: 'tools/call',
      params: { name: 'session_search', arguments: 'all of them' },
    }),
    code: -32602,
  },
  {
    what: 'an unknown tool',
    line: JSON.stringify({
      jsonrpc: '2.0',
      id: 12,
      method: 'tools/call',
      params: { name: 'rm_rf', arguments: {} },
    }),
    code: -32602,
  },
];

/** One JSON-RPC message: a body, or an SSE stream's one `data:` line (a 2025 stateless answer). */
function oneLineJson(body: string): Reply {
  let text = body;
  if (body.startsWith('event:')) {
    const data = body.split('\n').filter((l) => l.startsWith('data: '));
    expect(data).toHaveLength(1);
    text = data[0]!.slice('data: '.length);
  }
  expect(text.endsWith('\n') ? text.slice(0, -1) : text).not.toContain('\n');
  const r = JSON.parse(text) as Reply;
  if (r.error) expect(r.error.message).not.toMatch(/\n/);
  return r;
}

describe('over stdio', () => {
  let child: ChildProcessWithoutNullStreams;
  let buffered = '';
  let waiting: ((line: string) => void)[] = [];
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply; got ${buffered}`)), 10_000);
      waiting.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
      drain();
    });
  const drain = () => {
    for (
      let nl = buffered.indexOf('\n');
      nl !== -1 && waiting.length > 0;
      nl = buffered.indexOf('\n')
    ) {
      const line = buffered.slice(0, nl + 1);
      buffered = buffered.slice(nl + 1);
      waiting.shift()!(line);
    }
  };
  const send = async (line: string) => {
    child.stdin.write(`${line}\n`);
    return oneLineJson(await next());
  };

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'mcp', '--db', fixtureCopy(30)], {
      env: { ...process.env, ...ISOLATED_ENV },
    });
    child.stdout.on('data', (b: Buffer) => {
      buffered += b.toString('utf8');
      drain();
    });
    expect((await send(JSON.stringify(INIT))).result).toBeDefined();
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
  });
  afterAll(() => {
    waiting = [];
    child.stdin.end();
  });

  it.each(BAD)('$what: one error line, then the server still answers', async ({ line, code }) => {
    const r = await send(line);
    expect(r.error?.code).toBe(code);
    expect((await send(JSON.stringify(LIST))).result?.tools).toBeDefined();
  });

  it('a huge argument is a one-line tool error', async () => {
    const r = await send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 20,
        method: 'tools/call',
        params: { name: 'session_search', arguments: { query: 'x'.repeat(500_000) } },
      }),
    );
    expect(r.result?.isError).toBe(true);
    expect(r.result?.structuredContent).toEqual({
      success: false,
      error: 'bad arguments: query: Too big: expected string to have <=2048 characters',
    });
  });

  it('a line over a megabyte is refused as it arrives, and the next one is answered', async () => {
    const r = await send(
      `{"jsonrpc":"2.0","id":21,"method":"tools/list","pad":"${'y'.repeat(3_000_000)}"}`,
    );
    expect(r).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'invalid request: a message is at most 1048576 bytes' },
    });
    expect((await send(JSON.stringify(LIST))).result?.tools).toBeDefined();
  });
});

describe('over HTTP', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttp(['--db', fixtureCopy(30), '--http', '127.0.0.1:0']);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it.each(BAD.filter((b) => b.what !== 'binary'))(
    '$what: a one-line error, then the server still answers',
    async ({ line }) => {
      const r = await rawPost(server.url, line);
      expect(r.status).toBeGreaterThanOrEqual(200);
      const reply = oneLineJson(r.body);
      expect(reply.error ?? (reply.result as { isError?: boolean } | undefined)).toBeDefined();
      const ok = await rawPost(server.url, JSON.stringify(INIT));
      expect(ok.status).toBe(200);
      expect(oneLineJson(ok.body).result?.serverInfo).toMatchObject({ name: 'lookback' });
    },
  );

  it('a body over a megabyte is 413, read no further', async () => {
    const r = await rawPost(server.url, `{"pad":"${'z'.repeat(2_000_000)}"}`);
    expect(r.status).toBe(413);
    expect(oneLineJson(r.body).error?.message).toBe('request too large: at most 1048576 bytes');
  });

  it('another path is 404 in one line', async () => {
    const other = new URL(server.url);
    other.pathname = '/admin';
    const r = await rawPost(other, JSON.stringify(LIST));
    expect(r.status).toBe(404);
    expect(oneLineJson(r.body).error?.message).toBe('not found: lookback serves MCP at /mcp');
  });
});
