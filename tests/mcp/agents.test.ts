/**
 * session_search(agent=…) over the other agents' sample histories: the same
 * answers as `lookback … --agent NAME --json`, string anchors scroll, and the
 * agents' files stay byte-for-byte unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { IDS, buildHome, hashTree } from '../agents/samples.js';
import { agentCall } from '../../src/anchors/agentForms.js';
import { parseAnchor } from '../../src/anchors/parse.js';
import { call, startServer, type Server } from './client.js';
import { exactCount } from '../helpers/exact.js';

let home: string;
let env: Record<string, string>;
let before: Record<string, string>;
let server: Server;

type Obj = Record<string, unknown>;

beforeAll(async () => {
  const dir = tempDir();
  home = join(dir, 'home');
  buildHome(home);
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

describe('other agents over MCP', () => {
  it('discover, scroll at the string anchor, read and browse answer as the CLI does', async () => {
    const cases: [string, string, string, string][] = [
      ['claude', 'payment gateway', IDS.claude, 'Done: the idempotency key is now required'],
      ['codex', 'limiter middleware', IDS.codex, 'add a rate limiter to the token bucket'],
      ['opencode', 'PriceTag', IDS.opencode, 'The timestamp in PriceTag renders differently'],
      ['praisonai', 'wireguard', IDS.praisonai, 'the wireguard tunnel drops every hour'],
    ];
    for (const [agent, query, sid, text] of cases) {
      const found = await call(server, { agent, query });
      expect(found.isError, found.text).toBe(false);
      expect(found.json).toEqual(cli(['search', query, '--agent', agent, '--limit', '3']));
      const hit = (found.json.results as Obj[])[0]!;
      expect(hit).toMatchObject({ agent, session_id: sid });
      const anchor = String(hit.match_message_id);
      const matched = (hit.messages as Obj[]).find((m) => m.anchor === true)!;
      expect(String(matched.content)).toContain(text);

      const scrolled = await call(server, { agent, session_id: sid, around_message_id: anchor });
      expect(scrolled.json).toEqual(cli(['scroll', '--agent', agent, sid, anchor]));
      // The app's copy form for this message, run as it is: pasted whole, or as its arguments.
      const copied = agentCall({ agent, sessionId: sid, anchor });
      expect((await call(server, { session_id: copied })).json).toEqual(scrolled.json);
      const asArgs = parseAnchor(copied);
      expect(asArgs).toMatchObject({ kind: 'agentMessage', agent, sessionId: sid, anchor });
      expect(
        (await call(server, { session_id: sid, around_message_id: anchor, window: 5, agent })).json,
      ).toEqual(scrolled.json);
      const at = (scrolled.json.messages as Obj[]).find((m) => m.anchor === true)!;
      expect(String(at.content)).toContain(text);

      const read = await call(server, { agent, session_id: sid });
      expect(read.json).toEqual(cli(['read', '--agent', agent, sid]));
      const browsed = await call(server, { agent, limit: 5 });
      expect(browsed.json).toEqual(cli(['recent', '--agent', agent, '--limit', '5']));
    }
  });

  it('a conversation the agent wrote after the server started is found on the next call', async () => {
    const word = 'zebracrossing';
    expect(exactCount((await call(server, { agent: 'claude', query: word })).json)).toBe(0);
    // Claude Code appends a user turn to the session's transcript.
    const dir = join(home, '.claude', 'projects');
    const project = readdirSync(dir)[0]!;
    const file = join(dir, project, `${IDS.claude}.jsonl`);
    appendFileSync(
      file,
      JSON.stringify({
        type: 'user',
        uuid: 'u-zebra',
        parentUuid: null,
        sessionId: IDS.claude,
        timestamp: '2026-11-20T10:00:00.000Z',
        cwd: '/home/ana/shop',
        message: { role: 'user', content: `is the ${word} sign fixed?` },
      }) + '\n',
    );
    const found = await call(server, { agent: 'claude', query: word });
    const hit = (found.json.results as Obj[])[0]!;
    expect(hit).toMatchObject({
      agent: 'claude',
      session_id: IDS.claude,
      match_message_id: 'u-zebra',
    });
    expect(String(hit.snippet)).toContain(`>>>${word}<<<`);
    before = hashTree(home);
  });

  it('says when a miss would match tool output, as the CLI does', async () => {
    // "built in 4s" is only the output of opencode's bash call in the samples.
    const miss = await call(server, { agent: 'opencode', query: 'built in 4s' });
    expect(miss.json).toMatchObject({ success: true, count: 0 });
    expect(String(miss.json.message)).toContain('--roles user,assistant,tool');
    expect(miss.json).toEqual(
      cli(['search', 'built in 4s', '--agent', 'opencode', '--limit', '3']),
    );
  });

  it('refuses what only makes sense for Hermes, in one line; applies the filters (#17)', async () => {
    const a = await call(server, { agent: 'codex', profile: 'work' });
    expect(a.isError).toBe(true);
    expect(a.json.error).toBe('profile is for Hermes stores; agent "codex" has none');
    // Dates apply to other agents' conversations as to Hermes' (issue #17: they were refused).
    const dated = await call(server, { agent: 'claude', query: 'payment', after: '2020-01-01' });
    expect(dated.isError, dated.text).toBe(false);
    expect(dated.json).toEqual(
      cli(['search', 'payment', '--agent', 'claude', '--after', '2020-01-01', '--limit', '3']),
    );
    expect((dated.json.results as Obj[]).length).toBeGreaterThan(0);
    const late = await call(server, { agent: 'claude', query: 'payment', after: '2099-01-01' });
    expect(exactCount(late.json)).toBe(0);
    // `all` (and no agent at all) is every history, the command line's default set.
    const all = await call(server, { agent: 'all', query: 'payment' });
    expect(all.json).toEqual(cli(['search', 'payment', '--agent', 'all', '--limit', '3']));
    const plain = await call(server, { query: 'payment' });
    expect(plain.json).toEqual(cli(['search', 'payment', '--limit', '3']));
    const missing = await call(server, { agent: 'gemini', session_id: 'no-such-session' });
    expect(missing.isError).toBe(true);
    expect(missing.json).toEqual(cli(['read', '--agent', 'gemini', 'no-such-session']));
    // Reading never changed an agent's file.
    expect(hashTree(home)).toEqual(before);
  });
});
