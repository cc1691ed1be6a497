/**
 * Both protocol revisions over stdio: the SDK's own client at the 2025
 * handshake and pinned to 2026-07-28 lists the same tools and gets the same
 * answers (the CLI's JSON); a raw 2026-07-28 client sees what that revision
 * asks for: server/discover, resultType on every result, ttlMs/cacheScope on
 * list results, no initialize.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, lookback } from '../helpers/cli.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { call, ISOLATED_ENV, startServer, type Server } from './client.js';

let db: string;
const servers: Record<'legacy' | 'modern', Server | undefined> = {
  legacy: undefined,
  modern: undefined,
};

beforeAll(async () => {
  db = fixtureCopy(30);
  servers.legacy = await startServer(['--db', db], {}, 'legacy');
  servers.modern = await startServer(['--db', db], {}, 'modern');
});
afterAll(async () => {
  await servers.legacy?.close();
  await servers.modern?.close();
});

const cli = (args: string[]) => lookback([...args, '--db', db, '--json']).json();

describe('the SDK client at each revision, over stdio', () => {
  it('lists the same tools, in the same order, each with an output schema', async () => {
    const legacy = await servers.legacy!.client.listTools();
    const modern = await servers.modern!.client.listTools();
    expect(modern.tools).toEqual(legacy.tools);
    for (const t of legacy.tools) expect(t.outputSchema?.type).toBe('object');
  });

  it('gets the same answers, and they are the CLI JSON', async () => {
    for (const [args, argv] of [
      [{ limit: 2 }, ['recent', '--limit', '2']],
      [{ query: 'pgbouncer' }, ['search', 'pgbouncer', '--limit', '3']],
    ] as const) {
      const a = await call(servers.legacy!, args);
      const b = await call(servers.modern!, args);
      expect(b.json).toEqual(a.json);
      expect(a.json).toEqual(cli([...argv]));
      expect(b.structured).toEqual(b.json);
    }
  });
});

describe('a raw 2026-07-28 client', () => {
  it('discovers, lists and calls without initialize; every result says resultType', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const child = spawn(process.execPath, [BIN, 'mcp', '--db', db], {
      env: { ...process.env, ...ISOLATED_ENV },
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { _meta: meta, name: 'session_search', arguments: { limit: 1 } },
      },
    ];
    child.stdin.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await expect
      .poll(() => out.trim().split('\n').filter(Boolean).length, { timeout: 10_000 })
      .toBe(3);
    child.stdin.end();
    const replies = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: Record<string, unknown> })
      .sort((x, y) => x.id - y.id);
    expect(replies[0]!.result).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      resultType: 'complete',
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
    expect(replies[1]!.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 3_600_000,
      cacheScope: 'public',
    });
    expect((replies[1]!.result.tools as { name: string }[])[0]!.name).toBe('session_search');
    expect(replies[2]!.result.resultType).toBe('complete');
    expect(replies[2]!.result.structuredContent).toEqual(cli(['recent', '--limit', '1']));
  });
});
