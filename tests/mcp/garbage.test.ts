/**
 * A raw JSON-RPC client that misbehaves: garbage, batches, wrong methods,
 * wrong argument types, huge arguments and huge lines, over stdio and over
 * HTTP (where a wrong token joins them). Every mistake gets one line of
 * JSON-RPC error (or a one-line tool error), and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from '../helpers/cli.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureCopy, tempDir } from '../helpers/fixtures.js';
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

/** Bad calls of the reading tools, and the one line each gets back as a tool error. */
const BAD_CALLS: { what: string; name: string; args: unknown; error: string }[] = [
  {
    what: 'list_sessions, a huge folder',
    name: 'list_sessions',
    args: { folder: 'x'.repeat(500_000) },
    error: 'bad arguments: folder: Too big: expected string to have <=2048 characters',
  },
  {
    what: 'list_sessions, a limit that is no number, an unknown argument',
    name: 'list_sessions',
    args: { limit: 'ten', query: 'x' },
    error:
      'bad arguments: limit: Invalid input: expected number, received string; unknown argument query',
  },
  {
    what: 'list_sessions, a forged cursor',
    name: 'list_sessions',
    args: { cursor: 'eyJrIjoibCIsIm8iOi0xfQ' },
    error:
      'cursor is not one lookback handed out; pass the next_cursor of the previous page unchanged',
  },
  {
    what: 'session_overview, no session_id',
    name: 'session_overview',
    args: {},
    error: 'bad arguments: session_id: Invalid input: expected string, received undefined',
  },
  {
    what: 'session_overview, a huge session_id',
    name: 'session_overview',
    args: { session_id: 'y'.repeat(300_000) },
    error: 'bad arguments: session_id: Too big: expected string to have <=2048 characters',
  },
  {
    what: 'session_messages, a role that is none, a negative position',
    name: 'session_messages',
    args: { session_id: 'x', roles: ['robot'], from_index: -1 },
    error: expect.stringMatching(
      /^bad arguments: from_index: .*; roles\.0: .*$/,
    ) as unknown as string,
  },
  {
    what: 'session_messages, a session that is not there',
    name: 'session_messages',
    args: { session_id: 'no-such-session-anywhere', agent: 'hermes' },
    error: 'session_id not found: no-such-session-anywhere',
  },
];

const toolCall = (id: number, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

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

  it.each(BAD_CALLS)('$what: a one-line tool error, then the server still answers', async (c) => {
    const r = await send(toolCall(30, c.name, c.args));
    expect(r.result?.isError).toBe(true);
    expect(r.result?.structuredContent).toEqual({ success: false, error: c.error });
    expect((await send(JSON.stringify(LIST))).result?.tools).toHaveLength(5);
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

  it.each(BAD_CALLS)('$what: a one-line tool error over HTTP', async (c) => {
    const r = await rawPost(server.url, toolCall(31, c.name, c.args));
    expect(r.status).toBe(200);
    const reply = oneLineJson(r.body);
    expect(reply.result?.isError).toBe(true);
    expect(reply.result?.structuredContent).toEqual({ success: false, error: c.error });
    const ok = await rawPost(server.url, toolCall(32, 'list_sessions', { limit: 1 }));
    expect(oneLineJson(ok.body).result?.structuredContent).toMatchObject({ success: true });
  });

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

describe('over HTTP beyond loopback, with a token', () => {
  let server: HttpServer;
  let token: string;
  let url: URL;
  beforeAll(async () => {
    const config = tempDir();
    server = await startHttp(['--db', fixtureCopy(30), '--http', '0.0.0.0:0'], {
      XDG_CONFIG_HOME: config,
    });
    token = readFileSync(join(config, 'lookback', 'mcp-http-token'), 'utf8').trim();
    url = new URL(server.url);
    url.hostname = '127.0.0.1';
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('a wrong or missing token is one line, every time; the right one keeps getting answers', async () => {
    const right = { authorization: `Bearer ${token}` };
    for (const name of [
      'session_search',
      'list_sessions',
      'session_overview',
      'session_messages',
      'stats',
    ]) {
      const wrong: Record<string, string>[] = [
        {},
        { authorization: 'Bearer nope' },
        { authorization: `Bearer ${token}x` },
      ];
      for (const auth of wrong) {
        const r = await rawPost(url, toolCall(40, name, { limit: 1 }), auth);
        expect(r.status).toBe(401);
        expect(oneLineJson(r.body).error?.message).toMatch(
          /^unauthorized: send Authorization: Bearer <token>/,
        );
      }
      const garbage = await rawPost(url, 'garbage{{{', right);
      expect(oneLineJson(garbage.body).error?.code).toBe(-32700);
      const ok = await rawPost(url, toolCall(41, 'list_sessions', { limit: 1 }), right);
      expect(ok.status).toBe(200);
      expect(oneLineJson(ok.body).result?.structuredContent).toMatchObject({
        success: true,
        count: 1,
      });
    }
    // The token was shown once, when it was made, and never again (no request logs it).
    expect(server.stderr().split(token)).toHaveLength(2);
  });
});
