/**
 * Every tool, at each protocol revision, over stdio and over Streamable HTTP:
 * the SDK's own client lists the tools in their fixed order and calls each
 * one; every answer equals `lookback … --json` with the same arguments. The
 * sources are every kind a default answer reads (the Hermes store, a second
 * Hermes profile, five other agents' histories); the text shown (titles,
 * first prompts, counts, whole message texts across pages) is checked against
 * the rows of the stores themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/client';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, sha256, tempDir } from '../helpers/fixtures.js';
import { IDS, buildHome, hashTree } from '../agents/samples.js';
import {
  callOn,
  connectHttp,
  startHttp,
  startServer,
  type Era,
  type HttpServer,
  type Server,
} from './client.js';

type Obj = Record<string, unknown>;

const TOOL_ORDER = [
  'session_search',
  'list_sessions',
  'session_overview',
  'session_messages',
  'stats',
];

let home: string;
let hermes: string;
let env: Record<string, string>;
let agentFiles: Record<string, string>;
const hashes = new Map<string, string>();
const stdio: Partial<Record<Era, Server>> = {};
let http: HttpServer;
const clients: { name: string; client: Client }[] = [];

function store(path: string, layout: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  copyFileSync(join(FIXTURE_DIR, `hermes-v${layout}.db`), path);
  hashes.set(path, sha256(path));
}

beforeAll(async () => {
  const dir = tempDir();
  home = join(dir, 'home');
  buildHome(home);
  agentFiles = hashTree(home);
  hermes = join(dir, 'hermes');
  store(join(hermes, 'state.db'), 30);
  store(join(hermes, 'profiles', 'work', 'state.db'), 6);
  env = {
    HOME: home,
    HERMES_HOME: hermes,
    LOOKBACK_INDEX: join(dir, 'index', 'agents.db'),
    XDG_DATA_HOME: '',
    XDG_CONFIG_HOME: '',
  };
  for (const era of ['legacy', 'modern'] as const) {
    stdio[era] = await startServer([], env, era);
    clients.push({ name: `stdio ${era}`, client: stdio[era].client });
  }
  http = await startHttp(['--http', '127.0.0.1:0'], env);
  for (const era of ['legacy', 'modern'] as const)
    clients.push({ name: `http ${era}`, client: await connectHttp(http.url, era) });
}, 60_000);

afterAll(async () => {
  for (const c of clients.slice(2)) await c.client.close();
  await stdio.legacy?.close();
  await stdio.modern?.close();
  expect(await http?.stop()).toBe(0);
  // Every source is read-only: byte for byte unchanged.
  for (const [path, hash] of hashes) expect(sha256(path)).toBe(hash);
  expect(hashTree(home)).toEqual(agentFiles);
});

const cli = (args: string[]) => {
  const r = lookback([...args, '--json'], env);
  return JSON.parse(r.stdout) as Obj;
};

const hermesDb = () => new Database(join(hermes, 'state.db'), { readonly: true });

/** The tool call and the command line that must answer the same. */
interface Case {
  what: string;
  tool: string;
  args: Obj;
  argv: string[];
}

const CASES: Case[] = [
  {
    what: 'search, browse',
    tool: 'session_search',
    args: { limit: 2 },
    argv: ['recent', '--limit', '2'],
  },
  { what: 'list, every source', tool: 'list_sessions', args: {}, argv: ['list'] },
  {
    what: 'list, one agent',
    tool: 'list_sessions',
    args: { agent: 'codex' },
    argv: ['list', '--agent', 'codex'],
  },
  {
    what: 'list, another profile',
    tool: 'list_sessions',
    args: { profile: 'work', limit: 4 },
    argv: ['list', '--profile', 'work', '--limit', '4'],
  },
  {
    what: 'list, by model and date',
    tool: 'list_sessions',
    args: { model: 'claude', after: '2026-01-01', include_hidden: true },
    argv: ['list', '--model', 'claude', '--after', '2026-01-01', '--all'],
  },
  {
    what: 'overview, an agent',
    tool: 'session_overview',
    args: { session_id: IDS.claude, agent: 'claude' },
    argv: ['overview', IDS.claude, '--agent', 'claude'],
  },
  {
    what: 'overview, a resume command pasted',
    tool: 'session_overview',
    args: { session_id: `codex resume ${IDS.codex}` },
    argv: ['overview', `codex resume ${IDS.codex}`],
  },
  {
    what: 'messages, an agent, roles',
    tool: 'session_messages',
    args: { session_id: IDS.opencode, agent: 'opencode', roles: ['user', 'assistant'] },
    argv: ['messages', IDS.opencode, '--agent', 'opencode', '--roles', 'user,assistant'],
  },
  { what: 'stats, every source', tool: 'stats', args: {}, argv: ['stats'] },
  {
    what: 'stats, one agent',
    tool: 'stats',
    args: { agent: 'claude' },
    argv: ['stats', '--agent', 'claude'],
  },
];

describe('tools/list', () => {
  it('lists every tool in its fixed order, the same at each revision and transport', async () => {
    const lists = await Promise.all(clients.map((c) => c.client.listTools()));
    for (const l of lists) {
      expect(l.tools.map((t) => t.name)).toEqual(TOOL_ORDER);
      expect(l.tools).toEqual(lists[0]!.tools);
      for (const t of l.tools) {
        expect(t.outputSchema?.type).toBe('object');
        expect(t.inputSchema.type).toBe('object');
        expect(t.description!.length).toBeGreaterThan(200);
        expect(t.annotations?.readOnlyHint).toBe(true);
      }
    }
  });
});

describe.each(CASES)('$what', ({ tool, args, argv }) => {
  it('answers the CLI JSON at each revision, over stdio and HTTP', async () => {
    const want = cli(argv);
    expect(want.success, JSON.stringify(want)).toBe(true);
    for (const c of clients) {
      const got = await callOn(c.client, args, tool);
      expect(got.isError, `${c.name}: ${got.text}`).toBe(false);
      expect(got.json, c.name).toEqual(want);
      expect(got.structured, c.name).toEqual(got.json);
    }
  });
});

describe('list_sessions', () => {
  it('pages with next_cursor through every conversation once, as the CLI pages', async () => {
    const whole = cli(['list', '--limit', '100']);
    const all = (whole.results as Obj[]).map((r) => `${String(r.agent)}/${String(r.session_id)}`);
    expect(all.length).toBeGreaterThan(40);
    const client = clients[3]!.client;
    const seen: string[] = [];
    let cursor: string | undefined;
    let argv = ['list', '--limit', '7'];
    for (let page = 0; page < 20; page++) {
      const got = await callOn(
        client,
        { limit: 7, ...(cursor ? { cursor } : {}) },
        'list_sessions',
      );
      expect(got.json).toEqual(cli(argv));
      seen.push(
        ...(got.json.results as Obj[]).map((r) => `${String(r.agent)}/${String(r.session_id)}`),
      );
      cursor = got.json.next_cursor as string | undefined;
      if (!cursor) break;
      argv = ['list', '--limit', '7', '--cursor', cursor];
    }
    expect(cursor).toBeUndefined();
    expect(seen).toEqual(all);
  });

  it('shows the stores’ own titles and counts', async () => {
    const got = await callOn(clients[0]!.client, { agent: 'hermes', limit: 100 }, 'list_sessions');
    const db = hermesDb();
    const rows = got.json.results as Obj[];
    expect(rows.length).toBeGreaterThan(10);
    // A compressed conversation is listed once, under its newest segment's title (the agent's rule).
    const chain = db.prepare(
      `WITH RECURSIVE down(id) AS (SELECT ? UNION SELECT s.id FROM sessions s JOIN down ON s.parent_session_id = down.id),
         up(id) AS (SELECT ? UNION SELECT s.parent_session_id FROM sessions s JOIN up ON s.id = up.id WHERE s.parent_session_id IS NOT NULL)
       SELECT s.title FROM sessions s WHERE s.id IN (SELECT id FROM down UNION SELECT id FROM up)`,
    );
    let titled = 0;
    for (const r of rows) {
      const titles = (chain.all(r.session_id, r.session_id) as { title: string | null }[]).map(
        (t) => t.title,
      );
      expect(titles).toContain(r.title);
      if (r.title !== null) titled++;
      expect(r.agent).toBe('hermes');
      const n = db
        .prepare('SELECT message_count FROM sessions WHERE id = ?')
        .pluck()
        .get(r.session_id) as number;
      expect(r.message_count).toBeGreaterThanOrEqual(n);
    }
    expect(titled).toBeGreaterThan(5);
    db.close();
  });

  it('refuses a filter a source cannot apply in one line naming it, and a cursor of another question', async () => {
    const got = await callOn(
      clients[1]!.client,
      { profile: 'work', folder: '/home' },
      'list_sessions',
    );
    expect(got.isError).toBe(true);
    expect(got.json).toEqual({
      success: false,
      error:
        'cwd: Hermes profile work records no working folder (its sessions table has neither cwd nor git_repo_root); refused',
    });
    expect(cli(['list', '--profile', 'work', '--cwd', '/home'])).toEqual(got.json);
    const first = await callOn(clients[1]!.client, { limit: 2 }, 'list_sessions');
    const other = await callOn(
      clients[1]!.client,
      { limit: 2, model: 'gpt', cursor: first.json.next_cursor },
      'list_sessions',
    );
    expect(other.json.error).toBe(
      'cursor belongs to a different question (other filters, conversation or bounds); pass the next_cursor of the previous page unchanged',
    );
  });
});

describe('session_overview', () => {
  it('a Hermes session: facts, counts, first prompt and lineage from its store, as the CLI says', async () => {
    const db = hermesDb();
    const child = db
      .prepare(
        `SELECT k.id, k.parent_session_id AS parent FROM sessions k JOIN sessions p ON p.id = k.parent_session_id
         ORDER BY k.id LIMIT 1`,
      )
      .get() as { id: string; parent: string };
    for (const [sid, argv] of [
      [child.id, ['overview', child.id]],
      [child.parent, ['overview', child.parent]],
    ] as const) {
      const want = cli([...argv]);
      for (const c of clients)
        expect((await callOn(c.client, { session_id: sid }, 'session_overview')).json).toEqual(
          want,
        );
      const meta = db.prepare('SELECT * FROM sessions WHERE id = ?').get(sid) as Obj;
      const counts = db
        .prepare(`SELECT role, count(*) AS n FROM messages WHERE session_id = ? GROUP BY role`)
        .all(sid) as { role: string; n: number }[];
      const first = db
        .prepare(
          `SELECT id, content FROM messages WHERE session_id = ? AND role = 'user' ORDER BY id LIMIT 1`,
        )
        .get(sid) as { id: number; content: string };
      expect(want).toMatchObject({
        session_id: sid,
        agent: 'hermes',
        profile: 'default',
        title: meta.title,
        model: meta.model,
        started_at: meta.started_at,
        message_count: counts.reduce((n, c) => n + c.n, 0),
        messages_by_role: Object.fromEntries(counts.map((c) => [c.role, c.n])),
        link: `@session:default/${sid}`,
        read_with: `session_search(session_id="@session:default/${sid}")`,
        resume: { command: `hermes -p default --resume ${sid}` },
      });
      expect((want.first_prompt as Obj).id).toBe(first.id);
      expect(
        String(first.content).startsWith(
          String((want.first_prompt as Obj).content).replace(/…$/, ''),
        ),
      ).toBe(true);
    }
    const kid = cli(['overview', child.id]);
    expect((kid.parent as Obj).session_id).toBe(child.parent);
    const parent = cli(['overview', child.parent]);
    expect((parent.children as Obj[]).map((c) => c.session_id)).toContain(child.id);
    db.close();
  });

  it("another agent's conversation: its own resume command in its folder", async () => {
    const got = await callOn(
      clients[2]!.client,
      { session_id: IDS.claude, agent: 'claude' },
      'session_overview',
    );
    expect(got.json).toMatchObject({
      session_id: IDS.claude,
      agent: 'claude',
      read_with: `session_search(session_id="${IDS.claude}", agent="claude")`,
    });
    const resume = got.json.resume as Obj;
    expect(resume.argv).toEqual(['claude', '--resume', IDS.claude]);
    expect(resume.cwd).toBe(got.json.folder);
    expect(String(resume.command)).toBe(
      `cd ${String(got.json.folder)} && claude --resume ${IDS.claude}`,
    );
    // The sample's first user line (tests/agents/samples.ts).
    expect((got.json.first_prompt as Obj).content).toBe('why does checkout double-charge?');
    const every = cli(['messages', IDS.claude, '--agent', 'claude', '--limit', '500']);
    const roles: Record<string, number> = {};
    for (const m of every.messages as Obj[])
      roles[String(m.role)] = (roles[String(m.role)] ?? 0) + 1;
    expect(got.json.messages_by_role).toEqual(roles);
    expect(got.json.message_count).toBe(every.total);
  });

  it('a link to another profile reads that profile', async () => {
    const sid = (cli(['list', '--profile', 'work', '--limit', '1']).results as Obj[])[0]!
      .session_id as string;
    const got = await callOn(
      clients[0]!.client,
      { session_id: `@session:work/${sid}` },
      'session_overview',
    );
    expect(got.json).toEqual(cli(['overview', `@session:work/${sid}`]));
    expect(got.json).toMatchObject({ profile: 'work', session_id: sid });
  });
});

describe('session_messages', () => {
  it('pages a whole Hermes conversation within the budget; the texts are the store’s, whole', async () => {
    const db = hermesDb();
    const longest = db
      .prepare(
        `SELECT session_id AS sid FROM messages GROUP BY session_id ORDER BY sum(length(content)) DESC LIMIT 1`,
      )
      .get() as { sid: string };
    const rows = db
      .prepare(`SELECT id, role, content FROM messages WHERE session_id = ? ORDER BY id`)
      .all(longest.sid) as { id: number; role: string; content: string | null }[];
    db.close();
    const text = new Map<number, string>();
    const client = clients[1]!.client;
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < 200; pages++) {
      const args = {
        session_id: longest.sid,
        limit: 7,
        max_chars: 1500,
        ...(cursor ? { cursor } : {}),
      };
      const argv = [
        'messages',
        longest.sid,
        '--limit',
        '7',
        '--max-chars',
        '1500',
        ...(cursor ? ['--cursor', cursor] : []),
      ];
      const got = await callOn(client, args, 'session_messages');
      // The first pages against the command line (a process each); every page against the store.
      if (pages < 3) expect(got.json).toEqual(cli(argv));
      expect(got.json.chars as number).toBeLessThanOrEqual(1500);
      expect((got.json.messages as Obj[]).length).toBeLessThanOrEqual(7);
      for (const m of got.json.messages as Obj[])
        text.set(m.id as number, (text.get(m.id as number) ?? '') + String(m.content ?? ''));
      cursor = got.json.next_cursor as string | undefined;
      if (!cursor) break;
    }
    expect(pages).toBeGreaterThan(2);
    expect([...text.keys()]).toEqual(rows.map((r) => r.id));
    for (const r of rows) expect(text.get(r.id)).toBe(r.content ?? '');
  }, 120_000);

  it('a range by message ids and by positions, prompts only', async () => {
    const db = hermesDb();
    const sid = (
      db
        .prepare(
          `SELECT session_id AS s FROM messages GROUP BY session_id HAVING count(*) > 20 LIMIT 1`,
        )
        .get() as { s: string }
    ).s;
    const ids = db
      .prepare(`SELECT id, role FROM messages WHERE session_id = ? ORDER BY id`)
      .all(sid) as { id: number; role: string }[];
    db.close();
    const byId = await callOn(
      clients[3]!.client,
      { session_id: sid, from_message_id: ids[3]!.id, to_message_id: ids[12]!.id, roles: ['user'] },
      'session_messages',
    );
    expect(byId.json).toEqual(
      cli([
        'messages',
        sid,
        '--from',
        String(ids[3]!.id),
        '--to',
        String(ids[12]!.id),
        '--roles',
        'user',
      ]),
    );
    const want = ids.slice(3, 13).filter((m) => m.role === 'user');
    expect((byId.json.messages as Obj[]).map((m) => [m.id, m.index])).toEqual(
      want.map((m) => [m.id, ids.indexOf(m)]),
    );
    const byPos = await callOn(
      clients[0]!.client,
      { session_id: sid, from_index: 3, to_index: 12, roles: ['user'] },
      'session_messages',
    );
    expect(byPos.json.messages).toEqual(byId.json.messages);
    const bad = await callOn(
      clients[0]!.client,
      { session_id: sid, from_message_id: 'nope' },
      'session_messages',
    );
    expect(bad.json.error).toBe(
      `from nope is not a message of session ${sid} (message ids of a Hermes session are whole numbers)`,
    );
  });
});
