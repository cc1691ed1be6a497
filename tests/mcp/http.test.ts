/**
 * `lookback mcp --http`: the SDK's own client at each protocol revision over
 * Streamable HTTP gets what the stdio server and the CLI give; a loopback bind
 * refuses foreign Host/Origin headers; an address beyond loopback refuses a
 * missing or wrong bearer token in one line, and the token file is the user's
 * alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lookback } from '../helpers/cli.js';
import { fixtureCopy, tempDir } from '../helpers/fixtures.js';
import { callOn, connectHttp, rawPost, startHttp, type Era, type HttpServer } from './client.js';

let db: string;
let server: HttpServer;

beforeAll(async () => {
  db = fixtureCopy(30);
  server = await startHttp(['--db', db, '--http', '127.0.0.1:0']);
});
afterAll(async () => {
  expect(await server?.stop()).toBe(0);
});

const cliJson = (args: string[]) =>
  JSON.parse(lookback([...args, '--db', db, '--json']).stdout) as unknown;

describe.each<Era>(['legacy', 'modern'])('over HTTP at the %s era', (era) => {
  it('lists the tools and answers as the CLI does', async () => {
    const client = await connectHttp(server.url, era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)[0]).toBe('session_search');
    for (const t of tools) expect(t.outputSchema).toBeDefined();
    const browse = await callOn(client, { limit: 2 });
    expect(browse.json).toEqual(cliJson(['recent', '--limit', '2']));
    expect(browse.structured).toEqual(browse.json);
    const found = await callOn(client, { query: 'pgbouncer' });
    expect(found.json).toEqual(cliJson(['search', 'pgbouncer', '--limit', '3']));
    await client.close();
  });
});

describe('the HTTP listener', () => {
  it('says where it serves, on stderr, and nothing on stdout', () => {
    expect(server.stderr()).toMatch(
      /^lookback: mcp: serving http:\/\/127\.0\.0\.1:\d+\/mcp \(loopback only\)\n$/,
    );
    expect(server.stdout()).toBe('');
  });

  it('refuses a page whose Host or Origin is not loopback (DNS rebinding)', async () => {
    // node:http, not fetch: fetch will not send a Host of our choosing.
    const post = (headers: Record<string, string>) =>
      rawPost(server.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), headers);
    const evil = await post({ host: 'evil.example:80' });
    expect(evil.status).toBe(403);
    expect(evil.body).toMatch(
      /^\{"jsonrpc":"2\.0","id":null,"error":\{"code":-32600,"message":"forbidden: Host is not a loopback name"\}\}\n$/,
    );
    const page = await post({ origin: 'https://evil.example' });
    expect(page.status).toBe(403);
  });
});

describe('--http on the command line', () => {
  it('refuses what it cannot serve in one line', () => {
    const cases: [string[], string][] = [
      [['recent', '--http'], 'lookback: --http is for lookback mcp\n'],
      [
        ['mcp', '--http', 'a:1', 'b:2'],
        'lookback: mcp --http takes one address (got 2 arguments)\n',
      ],
      [
        ['mcp', '--http', 'a:b:c'],
        'lookback: --http takes HOST:PORT, [IPv6]:PORT, PORT or HOST, not "a:b:c"\n',
      ],
      [
        ['mcp', '--http', '127.0.0.1:99999'],
        'lookback: --http port must be 0..65535, not "99999"\n',
      ],
      [['mcp', '127.0.0.1:7337'], 'lookback: mcp takes no arguments\n'],
    ];
    for (const [argv, line] of cases) {
      const r = lookback([...argv, '--db', db]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0] + '\n').toBe(line);
      expect(r.stdout).toBe('');
    }
  });
});

describe('beyond loopback', () => {
  it('makes a token once, 0600 in the config directory, and refuses requests without it', async () => {
    const config = tempDir();
    // 0.0.0.0 is beyond loopback; the client still reaches it on 127.0.0.1.
    const remote = await startHttp(['--db', db, '--http', '0.0.0.0:0'], {
      XDG_CONFIG_HOME: config,
    });
    try {
      const path = join(config, 'lookback', 'mcp-http-token');
      const token = readFileSync(path, 'utf8').trim();
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(config, 'lookback')).mode & 0o777).toBe(0o700);
      expect(remote.stderr()).toContain(
        `new bearer token (shown once; kept in ${path}, mode 600):\n${token}\n`,
      );
      const url = new URL(remote.url);
      url.hostname = '127.0.0.1';

      for (const auth of [
        undefined,
        'Bearer wrong-token-wrong-token-wrong-token',
        `Basic ${token}`,
      ]) {
        const r = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(auth ? { authorization: auth } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(r.status).toBe(401);
        expect(r.headers.get('www-authenticate')).toBe('Bearer realm="lookback"');
        const text = await r.text();
        expect(text.trim().split('\n')).toHaveLength(1);
        expect(text).toContain('unauthorized: send Authorization: Bearer <token>');
      }
      for (const era of ['legacy', 'modern'] as const) {
        await expect(connectHttp(url, era)).rejects.toThrow();
        const client = await connectHttp(url, era, token);
        const browse = await callOn(client, { limit: 1 });
        expect(browse.json).toEqual(cliJson(['recent', '--limit', '1']));
        await client.close();
      }
      const code = await remote.stop();
      expect(code, remote.stderr()).toBe(0);

      // The second start reuses it and never prints it again.
      const again = await startHttp(['--db', db, '--http', '0.0.0.0:0'], {
        XDG_CONFIG_HOME: config,
      });
      expect(again.stderr()).not.toContain(token);
      expect(again.stderr()).toContain(`bearer token in ${path}\n`);
      const code2 = await again.stop();
      expect(code2, again.stderr()).toBe(0);
    } finally {
      await remote.stop();
    }
  });
});
