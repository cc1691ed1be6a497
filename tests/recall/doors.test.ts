/**
 * Issue #17: the same question through every door over the same sources (a
 * Hermes store plus other agents' histories in their real formats) gets the
 * same conversations, in the same order, with the same counts: the command
 * line's JSON on stdout, the library, and the MCP server over stdio with the
 * SDK client. And for each filter and each source: applied, or refused in one
 * line that names the source, alike at every door.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexReader } from '../../src/agents/appReads.js';
import { AGENTS } from '../../src/agents/model.js';
import { agentCall } from '../../src/anchors/agentForms.js';
import { splitAgentSession } from '../../src/ids/app.js';
import { AgentSource } from '../../src/app/data/agentSource.js';
import { answerQuery, type QueryRequest, type QueryResponse } from '../../src/app/data/queries.js';
import { openStore } from '../../src/lib.js';
import { Store } from '../../src/store/store.js';
import { buildHome, hashTree } from '../agents/samples.js';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import { call, startServer, type Server } from '../mcp/client.js';
import { writeTinyModel } from '../semantic/tinyModel.js';

type Obj = Record<string, unknown>;

let home: string;
let env: Record<string, string>;
let server: Server;
let before: Record<string, string>;

beforeAll(async () => {
  const dir = tempDir();
  home = join(dir, 'home');
  buildHome(home);
  mkdirSync(join(home, '.hermes'), { recursive: true });
  copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), join(home, '.hermes', 'state.db'));
  env = {
    HOME: home,
    HERMES_HOME: '',
    LOOKBACK_INDEX: join(dir, 'index', 'agents.db'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    XDG_DATA_HOME: '',
    XDG_CONFIG_HOME: '',
    // The model a search by meaning uses, at both doors (tests/mcp/semantic.test.ts has the rest).
    LOOKBACK_EMBEDDER: `model2vec:${writeTinyModel(join(dir, 'model'))}`,
  };
  before = sources();
  server = await startServer([], env);
});

afterAll(async () => {
  await server?.close();
  // Every source byte for byte as it was.
  expect(sources()).toEqual(before);
});

/** Every file of every source (SQLite's -wal/-shm companions of the Hermes store aside). */
function sources(): Record<string, string> {
  const all = hashTree(home);
  return Object.fromEntries(Object.entries(all).filter(([k]) => !/state\.db-(wal|shm)$/.test(k)));
}

const cli = (args: string[]) => lookback([...args, '--json'], env);

function library<T>(fn: (lb: ReturnType<typeof openStore>) => T): T {
  const lb = openStore({}, { env: { ...process.env, ...env } });
  try {
    return fn(lb);
  } finally {
    lb.close();
  }
}

const owners = (p: Obj) =>
  (p.results as Obj[]).map((r) => `${String(r.agent)}:${String(r.session_id)}`);

describe('one question, four doors', () => {
  it('search: the same conversations, order and counts from CLI, library and MCP', async () => {
    const q = 'payment OR wireguard OR limiter OR billing OR deploy';
    const c = cli(['search', q, '--limit', '8']);
    expect(c.code, c.stderr).toBe(0);
    const fromCli = c.json();
    const fromLib = library((lb) => lb.search(q, { limit: 8 }));
    const fromMcp = (await call(server, { query: q, limit: 8 })).json;
    expect(fromLib).toEqual(fromCli);
    expect(fromMcp).toEqual(fromCli);
    // Both kinds of source answered, each row naming its agent.
    const agents = new Set((fromCli.results as Obj[]).map((r) => r.agent));
    expect(agents.has('hermes')).toBe(true);
    expect([...agents].some((a) => a !== 'hermes')).toBe(true);
    expect(fromCli.count).toBe((fromCli.results as Obj[]).length);
  });

  it('recent: newest activity first across every source, the same at every door', async () => {
    const c = cli(['recent', '--limit', '10']);
    expect(c.code, c.stderr).toBe(0);
    const fromCli = c.json();
    const fromLib = library((lb) => lb.recent({ limit: 10 }));
    const fromMcp = (await call(server, { limit: 10 })).json;
    expect(owners(fromLib)).toEqual(owners(fromCli));
    expect(owners(fromMcp)).toEqual(owners(fromCli));
    expect(fromMcp).toEqual(fromCli);
    const times = (fromCli.results as Obj[]).map((r) => Number(r.last_active));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set((fromCli.results as Obj[]).map((r) => r.agent)).size).toBeGreaterThan(1);
  });

  it('search by meaning: the same answer from CLI and MCP; over every source refused alike', async () => {
    for (const mode of ['semantic', 'hybrid']) {
      const c = cli([
        'search',
        'payment gateway',
        '--agent',
        'hermes',
        '--mode',
        mode,
        '--limit',
        '3',
      ]);
      expect(c.code, c.stderr).toBe(0);
      const m = await call(server, { query: 'payment gateway', agent: 'hermes', mode, limit: 3 });
      expect(m.json).toEqual(c.json());
      expect(m.json.mode_realized).toBe(mode);
    }
    // Without agent every history answers: more than one source, refused alike at both doors.
    const c = lookback(['search', 'payment', '--mode', 'semantic'], env);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/^lookback: --mode semantic searches one source: [^\n]*history\n/);
    const m = await call(server, { query: 'payment', mode: 'semantic' });
    expect(m.isError).toBe(true);
    expect(String(m.json.error)).toMatch(/^mode "semantic" searches one source: .*history$/);
    // One other agent: its history in lookback's index, the same answer at both doors.
    for (const mode of ['semantic', 'hybrid']) {
      const a = cli(['search', 'checkout charge', '--agent', 'claude', '--mode', mode]);
      expect(a.code, a.stderr).toBe(0);
      const fromMcp = await call(server, { query: 'checkout charge', agent: 'claude', mode });
      expect(fromMcp.json).toEqual(a.json());
      expect(a.json().mode_realized).toBe(mode);
      const results = a.json().results as Obj[];
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.agent === 'claude')).toBe(true);
    }
  });

  it('scroll and read take every anchor form at every door', async () => {
    const hit = (
      cli(['search', 'payment gateway', '--agent', 'claude', '--limit', '1']).json()
        .results as Obj[]
    )[0]!;
    const sid = String(hit.session_id);
    const mid = String(hit.match_message_id);
    const want = cli(['scroll', '--agent', 'claude', sid, mid]).json();
    // The scroll command the readable search prints, pasted whole; a prefix of the id.
    expect(cli(['scroll', `lookback scroll --agent claude ${sid} ${mid}`]).json()).toEqual(want);
    expect(cli(['scroll', sid.slice(0, 8), mid]).json()).toEqual(want);
    // The call the app copies for an agent's message (`agent="claude"`), pasted whole.
    const copied = agentCall({ agent: 'claude', sessionId: sid, anchor: mid }, 5);
    expect(cli(['scroll', copied]).json()).toEqual(want);
    expect(library((lb) => lb.scroll(sid, mid))).toEqual(want);
    expect((await call(server, { session_id: sid, around_message_id: mid })).json).toEqual(want);
    const read = cli(['read', sid.slice(0, 8)]);
    expect(read.code, read.stdout).toBe(0);
    expect(read.json().session_id).toBe(sid);
  });
});

describe('each filter, each source: applied or refused in one line', () => {
  // The agents' index and the v30 store apply every filter; a v6 store cannot say where a
  // session ran, so a folder filter is refused for it, naming it.
  const cases: [string, string[], Obj][] = [
    ['after', ['--after', '2020-01-01'], { after: '2020-01-01' }],
    ['before', ['--before', '2000-01-01'], { before: '2000-01-01' }],
    ['model', ['--model', 'no-such-model'], {}],
    ['cwd', ['--cwd', '/nonexistent'], {}],
    ['source', ['--source', 'nowhere'], {}],
  ];

  for (const [name, flags, tool] of cases)
    it(`${name}: every source applies it, the same in the CLI and MCP`, async () => {
      const c = cli(['recent', '--limit', '50', ...flags]);
      expect(c.code, c.stderr).toBe(0);
      const json = c.json();
      // PraisonAI records no folder: under a folder filter its conversations are left out, said in one line.
      if (name === 'cwd')
        expect(json.refused).toEqual([
          'cwd: praisonai records no working folder; its conversations are left out',
        ]);
      else expect(json.refused).toBeUndefined();
      const rows = json.results as Obj[];
      if (name === 'after') expect(rows.length).toBeGreaterThan(0);
      else expect(rows).toEqual([]);
      if (Object.keys(tool).length > 0) {
        const m = await call(server, { ...tool, limit: 10 });
        expect(owners(m.json)).toEqual(owners(cli(['recent', '--limit', '10', ...flags]).json()));
      }
    });

  it('cwd on a store without a folder column is refused for that store by name', () => {
    const dir = tempDir();
    const db = join(dir, 'old.db');
    copyFileSync(join(FIXTURE_DIR, 'hermes-v6.db'), db);
    const alone = lookback(['recent', '--db', db, '--cwd', '/x', '--json'], env);
    expect(alone.code).toBe(1);
    expect(alone.json().error).toMatch(/^cwd: Hermes profile \S+ records no working folder/);
    // Beside the agents' index, the old store is left out in one line; the agents answer.
    const hermesHome = join(dir, 'hh');
    mkdirSync(hermesHome);
    copyFileSync(db, join(hermesHome, 'state.db'));
    const mixed = lookback(['recent', '--cwd', '/home/ana', '--json'], {
      ...env,
      HERMES_HOME: hermesHome,
    });
    expect(mixed.code, mixed.stderr).toBe(0);
    const refused = mixed.json().refused as string[];
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/^cwd: Hermes profile .* records no working folder/);
    expect(refused[1]).toBe(
      'cwd: praisonai records no working folder; its conversations are left out',
    );
    for (const r of mixed.json().results as Obj[]) expect(r.agent).not.toBe('hermes');
    const text = lookback(['recent', '--cwd', '/home/ana'], { ...env, HERMES_HOME: hermesHome });
    expect(text.stderr).toMatch(/lookback: cwd: Hermes profile .* records no working folder/);
  });
});

describe('a closed pipe', () => {
  it('lookback read X | head -1 exits quietly', async () => {
    const { spawnSync } = await import('node:child_process');
    const hit = (cli(['recent', '--agent', 'hermes', '--limit', '1']).json().results as Obj[])[0]!;
    const bin = join(import.meta.dirname, '../../dist/lookback.js');
    const r = spawnSync(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${bin}" read ${String(hit.session_id)} | head -c 1 >/dev/null`,
      ],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
  });
});

describe('the fourth door: the app', () => {
  /** The app's data layer over the same store and the same index, as the query worker answers. */
  function app(req: QueryRequest): QueryResponse[] {
    const store = Store.open(join(home, '.hermes', 'state.db'), { profile: 'default' });
    const agents = new AgentSource(new IndexReader(env.LOOKBACK_INDEX!, [...AGENTS]));
    try {
      const out: QueryResponse[] = [];
      answerQuery(store, req, (r) => out.push(r), agents);
      return out;
    } finally {
      agents.close();
      store.close();
    }
  }
  const appOwner = (sessionId: string, agent: string | undefined) => {
    const other = splitAgentSession(sessionId);
    return other ? `${other.agent}:${other.nativeId}` : `${agent ?? 'hermes'}:${sessionId}`;
  };

  it('recent: the same conversations in the same order as the CLI (pinned first for people)', () => {
    const c = cli(['recent', '--limit', '10']).json();
    const rows = c.results as Obj[];
    // The CLI's JSON orders by activity as the agent's tool does; the app puts pinned first.
    const want = [
      ...rows.filter((r) => r.pinned === true),
      ...rows.filter((r) => r.pinned !== true),
    ].map((r) => `${String(r.agent)}:${String(r.session_id)}`);
    const got = app({ kind: 'recent', generation: 1, all: false, limit: 10 }).find(
      (r) => r.kind === 'recent',
    );
    expect(got?.kind).toBe('recent');
    const ids = got!.kind === 'recent' ? got!.rows.map((r) => appOwner(r.sessionId, r.agent)) : [];
    expect(ids).toEqual(want);
  });

  it('search: the same conversations, order and count as the CLI, library and MCP', async () => {
    const q = 'payment OR wireguard OR limiter OR billing OR deploy';
    const c = cli(['search', q, '--limit', '8']).json();
    const fromMcp = (await call(server, { query: q, limit: 8 })).json;
    const want = owners(c);
    expect(owners(fromMcp)).toEqual(want);
    const res = app({
      kind: 'search',
      generation: 1,
      query: q,
      sort: 'relevance',
      roles: [],
      limit: 8,
      count: true,
    });
    const got = res.find((r) => r.kind === 'search');
    expect(got?.kind).toBe('search');
    const items = got!.kind === 'search' ? got!.items : [];
    // A Hermes hit names the session the message is in, as the CLI's session_id does.
    expect(items.map((i) => appOwner(i.sessionId, i.agent))).toEqual(want);
    expect(items.length).toBe(c.count);
  });

  it('a filter: the same rows from the CLI, the library and the app (model; the tool has no model argument)', () => {
    const c = cli(['recent', '--limit', '20', '--model', 'sonnet']).json();
    const lib = library((lb) => lb.recent({ limit: 20, filters: { model: 'sonnet' } }));
    expect(owners(lib)).toEqual(owners(c));
    const got = app({
      kind: 'recent',
      generation: 1,
      all: false,
      limit: 20,
      filters: { model: 'sonnet' },
    }).find((r) => r.kind === 'recent');
    const ids = got!.kind === 'recent' ? got!.rows.map((r) => appOwner(r.sessionId, r.agent)) : [];
    expect(new Set(ids)).toEqual(new Set(owners(c)));
    expect(ids.some((x) => x.startsWith('claude:'))).toBe(true);
  });
});
