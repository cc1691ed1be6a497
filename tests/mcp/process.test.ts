/**
 * The server process itself: it exits cleanly when the agent closes its stdin,
 * writes nothing but protocol on stdout, and `mcp` takes no arguments.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, lookback } from '../helpers/cli.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { ISOLATED_ENV } from './client.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

describe('the lookback mcp process', () => {
  it('answers line-delimited JSON-RPC only, and exits 0 when stdin closes', async () => {
    const db = fixtureCopy(30);
    const child = spawn(process.execPath, [BIN, 'mcp', '--db', db], {
      env: { ...process.env, ...ISOLATED_ENV },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    const lines = [
      INIT,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'session_search', arguments: { limit: 1 } },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: {} },
      },
    ];
    child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(await exited).toBe(0);
    const replies = out
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            id: number;
            result: Record<string, unknown>;
            error?: { code: number; message: string };
          },
      );
    expect(replies.map((r) => r.id)).toEqual([1, 2, 3]);
    expect((replies[0]!.result.serverInfo as { name: string }).name).toBe('lookback');
    expect(replies[1]!.result.isError).toBeUndefined();
    // An unknown tool is a protocol error (-32602 Invalid params), as the revision says.
    expect(replies[2]!.error?.code).toBe(-32602);
    expect(replies[2]!.error?.message).toMatch(
      /^unknown tool "no_such_tool" \(this server has session_search/,
    );
    expect(err).toBe('');
  });

  it('takes no arguments besides the store options', () => {
    const r = lookback(['mcp', 'extra']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('lookback: mcp takes no arguments\nRun "lookback --help" for usage.\n');
    expect(r.stdout).toBe('');
  });
});
