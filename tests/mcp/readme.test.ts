/**
 * README's registration blocks still work: each block (Claude Code, Codex,
 * Gemini CLI, opencode, Hermes, and the HTTP form) is read out of README.md as
 * the agent would read it, and the command and arguments it names are started
 * with the SDK's own client, which lists every tool and gets an answer.
 * `lookback` is the built dist/lookback.js (what `npm link` puts on PATH).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import { callOn, connectHttp, startHttp } from './client.js';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The MCP section only: blocks elsewhere are not registration blocks. */
const SECTION = README.slice(
  README.indexOf('## Use lookback from any agent (MCP)'),
  README.indexOf('\n## ', README.indexOf('## Use lookback from any agent (MCP)') + 5),
);

const TOOLS = ['session_search', 'list_sessions', 'session_overview', 'session_messages', 'stats'];

/** Fenced blocks of a language in the MCP section, in order. */
function blocks(lang: string): string[] {
  const out: string[] = [];
  const re = new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g');
  for (let m = re.exec(SECTION); m; m = re.exec(SECTION)) out.push(m[1]!);
  return out;
}

/** What `lookback` and the README's placeholder path stand for here. */
function local(argv: string[]): { command: string; args: string[] } {
  const words = argv.map((w) => w.replace('/absolute/path/to/lookback', ROOT));
  if (words[0] === 'lookback') return { command: process.execPath, args: [BIN, ...words.slice(1)] };
  if (words[0] === 'node') return { command: process.execPath, args: words.slice(1) };
  throw new Error(`unexpected command ${words[0]}`);
}

let env: Record<string, string>;
beforeAll(() => {
  const home = join(tempDir(), 'home');
  mkdirSync(join(home, '.hermes'), { recursive: true });
  copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), join(home, '.hermes', 'state.db'));
  env = {
    HOME: home,
    HERMES_HOME: '',
    XDG_CONFIG_HOME: '',
    XDG_CACHE_HOME: join(home, '.cache'),
    LOOKBACK_INDEX: join(home, 'agents.db'),
    PATH: process.env.PATH ?? '',
  };
});

/** Starts the command as the agent would, lists the tools, makes one call. */
async function works(argv: string[]): Promise<void> {
  const { command, args } = local(argv);
  const client = new Client({ name: 'readme', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: 'pipe' }));
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
    const page = await callOn(client, { limit: 1 }, 'list_sessions');
    expect(page.json).toMatchObject({ success: true, count: 1 });
  } finally {
    await client.close();
  }
}

describe("README's registration blocks", () => {
  it('Claude Code: both `claude mcp add` lines', async () => {
    const lines = blocks('sh')
      .join('\n')
      .split('\n')
      .filter((l) => /^claude mcp add --scope user lookback -- /.test(l));
    expect(lines).toHaveLength(2);
    for (const l of lines) await works(l.split(' -- ')[1]!.trim().split(/\s+/));
  });

  it('Codex: the TOML table', async () => {
    const [toml] = blocks('toml');
    expect(toml).toContain('[mcp_servers.lookback]');
    const command = /^command = "(.*)"$/m.exec(toml!)![1]!;
    const args = JSON.parse(/^args = (\[.*\])$/m.exec(toml!)![1]!) as string[];
    await works([command, ...args]);
  });

  it('Gemini CLI and opencode: the JSON blocks', async () => {
    const json = blocks('json').map(
      (b) => JSON.parse(b) as Record<string, Record<string, unknown>>,
    );
    const gemini = json.find((j) => j.mcpServers)!.mcpServers!.lookback as {
      command: string;
      args: string[];
    };
    await works([gemini.command, ...gemini.args]);
    const opencode = json.find((j) => j.mcp)!.mcp!.lookback as {
      type: string;
      command: string[];
      enabled: boolean;
    };
    expect(opencode).toMatchObject({ type: 'local', enabled: true });
    await works(opencode.command);
  });

  it('Hermes: the YAML block', async () => {
    const [yaml] = blocks('yaml');
    expect(yaml).toMatch(/^mcp_servers:\n {2}lookback:\n/);
    const command = /command: '([^']*)'/.exec(yaml!)![1]!;
    const args = JSON.parse(/args: (\[.*\])/.exec(yaml!)![1]!.replace(/'/g, '"')) as string[];
    await works([command, ...args]);
  });

  describe('the HTTP form', () => {
    const sh = blocks('sh').find((b) => b.includes('--transport http'))!;
    let server: Awaited<ReturnType<typeof startHttp>> | undefined;
    afterAll(async () => {
      expect(await server?.stop()).toBe(0);
    });

    it('serves beyond loopback with the token file the block reads', async () => {
      const start = /^lookback (mcp --http \S+) &$/m.exec(sh)![1]!.split(' ');
      expect(start).toEqual(['mcp', '--http', '0.0.0.0:7337']);
      // Port 0 in the test: 7337 may be taken on a shared machine.
      server = await startHttp(['--http', '0.0.0.0:0'], env);
      const add = /claude mcp add .*--transport http lookback (http:\/\/HOST:7337\/mcp)/.exec(sh)!;
      const header = /--header "Authorization: Bearer \$\(cat ~\/(\S+)\)"/.exec(sh)!;
      const token = readFileSync(join(env.HOME!, header[1]!), 'utf8').trim();
      const url = new URL(add[1]!.replace('HOST:7337', `127.0.0.1:${server.url.port}`));
      expect(url.pathname).toBe(server.url.pathname);
      for (const era of ['legacy', 'modern'] as const) {
        const client = await connectHttp(url, era, token);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
        expect((await callOn(client, { limit: 1 }, 'list_sessions')).json).toMatchObject({
          success: true,
        });
        await client.close();
      }
    });
  });
});
