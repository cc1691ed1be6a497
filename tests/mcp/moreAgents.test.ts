/**
 * session_search(agent=…) over the agents of AGENTS.md §9: MCP's `agent` argument
 * takes their names and answers as `lookback … --agent NAME --json` does.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { AIDER_REPO, MORE, buildMoreHome } from '../agents/moreSamples.js';
import { call, startServer, type Server } from './client.js';

let home: string;
let env: Record<string, string>;
let server: Server;

type Obj = Record<string, unknown>;

beforeAll(async () => {
  const dir = tempDir();
  home = join(dir, 'home');
  buildMoreHome(home);
  env = {
    HOME: home,
    LOOKBACK_INDEX: join(dir, 'index', 'agents.db'),
    XDG_DATA_HOME: '',
    XDG_CONFIG_HOME: '',
  };
  server = await startServer([], env);
});

afterAll(async () => {
  await server?.close();
});

const cli = (args: string[]) => lookback([...args, '--json'], env).json();

describe('the agents of §9 over MCP', () => {
  it('search, then scroll at the string anchor, as the CLI answers', async () => {
    const cases: [string, string, string, string][] = [
      ['qwen', 'coupon rate', MORE.qwen, 'Default the coupon rate'],
      ['kimi', 'ROUND_HALF_EVEN', MORE.kimi, 'Use Decimal with ROUND_HALF_EVEN'],
      ['copilot', 'renamed', MORE.copilot, 'renamed to api-gateway'],
      ['aider', 'front matter', AIDER_REPO(home), 'The feed builder never checks'],
      ['crush', 'tiebreaker', MORE.crush, 'The cursor needs a tiebreaker column.'],
      ['goose', 'unify_schemas', MORE.goose, 'use pyarrow unify_schemas'],
      ['cursor', 'fatal RetryPolicy', MORE.cursor, 'Treat 403 as fatal'],
      ['roo', 'roo_vat_fix', MORE.roo, 'apply VAT once'],
      ['cline', 'cline_sig_fix', MORE.cline, 'X-Timestamp header'],
      ['kilo', 'kilo_cache_key', MORE.kilo, 'kilo_cache_key unstable'],
    ];
    for (const [agent, query, sid, text] of cases) {
      const found = await call(server, { agent, query });
      expect(found.isError, found.text).toBe(false);
      expect(found.json).toEqual(cli(['search', query, '--agent', agent, '--limit', '3']));
      const hit = (found.json.results as Obj[])[0]!;
      expect(hit).toMatchObject({ agent, session_id: sid });
      const anchor = String(hit.match_message_id);
      const scrolled = await call(server, { agent, session_id: sid, around_message_id: anchor });
      expect(scrolled.json).toEqual(cli(['scroll', '--agent', agent, sid, anchor]));
      const at = (scrolled.json.messages as Obj[]).find((m) => m.anchor === true)!;
      expect(String(at.content)).toContain(text);
    }
  });

  it('refuses an agent it does not know in one line', async () => {
    const bad = await call(server, { agent: 'windsurf', query: 'x' });
    expect(bad.isError).toBe(true);
    expect(bad.text.split('\n')).toHaveLength(1);
  });
});
