/**
 * `lookback stats` against real files: the numbers of its JSON checked against
 * the source rows written in histories.ts (de-duplication, cumulative counters,
 * multi-day spreading, a compression chain counted once, unpriced models, a
 * profile without tokens), the drawing against the same numbers, the MCP tool
 * against the command line, and bad input as one line with exit 2.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { hashTree, opencodeDb, praisonaiFiles } from '../agents/samples.js';
import { tempDir } from '../helpers/fixtures.js';
import { call, startServer, type Server } from '../mcp/client.js';
import { hermesHome, statsHome } from './histories.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { writeFileSync } from 'node:fs';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let home: string;
let env: NodeJS.ProcessEnv;
let before: Record<string, string>;

beforeAll(() => {
  home = tempDir('lookback-stats-');
  statsHome(home);
  before = hashTree(home);
  const cache = join(tempDir('lookback-stats-cache-'), 'cache');
  mkdirSync(cache, { recursive: true });
  env = {
    HOME: home,
    XDG_CACHE_HOME: cache,
    LOOKBACK_INDEX: join(cache, 'agents.db'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
});

const stats = (args: string[] = []) => {
  const r = lookback(['stats', ...args, '--json'], env);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.json() as Obj;
};

const byKey = (list: Obj[], key: string, value: string) => list.find((x) => x[key] === value)!;

describe('lookback stats --json', () => {
  it('counts each call once and splits columns so they add up', () => {
    const j = stats();
    const models = j.models as Obj[];
    // Claude: msg_A (its larger streamed line) and msg_B once across both files, msg_C.
    const claude = byKey(models, 'model', 'claude-sonnet-4-5-20250929');
    expect(claude.tokens).toEqual({
      input: 21000,
      output: 44000,
      cache_read: 100000,
      cache_write: 20000,
      reasoning: 0,
      total: 185000,
    });
    expect(claude.cost_kind).toBe('priced');
    expect(claude.cost_usd).toBeCloseTo(
      (21000 * 3 + 44000 * 15 + 100000 * 0.3 + 20000 * 3.75) / 1e6,
      2,
    );
    // Codex: the last cumulative total, re-emit skipped; cached out of input, reasoning out of output.
    const codex = byKey(models, 'model', 'gpt-5-codex');
    expect(codex.tokens).toEqual({
      input: 900000,
      output: 220000,
      cache_read: 600000,
      cache_write: 0,
      reasoning: 80000,
      total: 1800000,
    });
    expect(codex.cost_usd).toBeCloseTo(4.2, 2);
    // Gemini: the .json and its .jsonl twin are one chat.
    const gemini = byKey(models, 'model', 'gemini-2.5-pro');
    expect(gemini.tokens).toEqual({
      input: 60000,
      output: 20000,
      cache_read: 40000,
      cache_write: 0,
      reasoning: 10000,
      total: 130000,
    });
    // Hermes: the session counters, cost recorded (0.50) plus the agent's estimate (0.10).
    const sonnet = byKey(models, 'model', 'anthropic/claude-sonnet-4');
    expect(sonnet.tokens).toEqual({
      input: 1300,
      output: 260,
      cache_read: 500,
      cache_write: 100,
      reasoning: 0,
      total: 2160,
    });
    expect(sonnet.cost_kind).toBe('mixed');
    expect(sonnet.recorded_usd).toBe(0.5);
    expect(sonnet.estimated_usd).toBe(0.1);
    // A model with no price: null, never $0.
    const nous = byKey(models, 'model', 'nous/hermes-4-405b');
    expect(nous.cost_usd).toBeNull();
    expect(nous.cost_kind).toBe('no price');
    expect(nous.unpriced_tokens).toBe(500);
    expect(j.totals.unpriced_models).toEqual(['nous/hermes-4-405b']);
    const t = j.totals.tokens as Obj;
    expect(t.total).toBe(t.input + t.output + t.cache_read + t.cache_write + t.reasoning);
    expect(t.total).toBe(185000 + 1800000 + 130000 + 2160 + 500);
  });

  it('counts Hermes activity from its rows: a compression chain once, a multi-day session on each day', () => {
    const j = stats(['--agent', 'hermes']);
    const def = byKey(j.profiles, 'profile', 'default');
    // sA+sB (one chain), sC, sD; user+assistant rows 5+2+2+1; one tool row.
    expect(def).toMatchObject({
      conversations: 3,
      messages: 10,
      tool_calls: 1,
      active_minutes: 25,
    });
    const work = byKey(j.profiles, 'profile', 'work');
    expect(work).toMatchObject({ conversations: 1, messages: 2, tokens: null, cost_usd: null });
    expect(j.token_notes).toEqual([
      {
        agent: 'hermes',
        profile: 'work',
        host: 'local',
        note: 'no session in range records tokens',
      },
    ]);
    // sA's tokens spread over its assistant messages: two on the 10th, one on the 11th.
    const d10 = byKey(j.days, 'date', '2026-08-10');
    expect(d10.tokens.input).toBe(Math.round((1000 * 2) / 3));
    expect(d10).toMatchObject({ conversations: 1, messages: 3, tool_calls: 1, active_minutes: 5 });
    const d11 = byKey(j.days, 'date', '2026-08-11');
    expect(d11.tokens.input).toBe(Math.round(1000 / 3) + 300);
    expect(d11.conversations).toBe(1); // sA and its continuation sB: one conversation
    expect(j.weeks.map((w: Obj) => w.week)).toEqual(['2026-08-10']);
    expect(j.weeks[0].conversations).toBe(4);
    expect(j.months).toHaveLength(1);
    expect(j.folders[0]).toMatchObject({ cwd: '/home/ana/shop', conversations: 1, messages: 7 });
  });

  it('--since prunes by the time of each record', () => {
    const j = stats(['--since', '2026-08-11', '--agent', 'claude']);
    const claude = byKey(j.models, 'model', 'claude-sonnet-4-5-20250929');
    expect(claude.tokens.input).toBe(7000);
    expect(j.days.map((d: Obj) => d.date)).toEqual(['2026-08-11']);
    expect(j.filters.after).toBe('2026-08-11T00:00:00Z');
  });

  it('refuses --cwd for a profile whose store records no folder, in one line, and answers the rest', () => {
    const r = lookback(['stats', '--agent', 'hermes', '--cwd', '/home/ana/blog', '--json'], env);
    expect(r.code).toBe(0);
    const j = r.json() as Obj;
    expect(j.refused).toEqual(['cwd: Hermes work records no working folder; refused']);
    expect(j.totals).toMatchObject({ conversations: 2, messages: 3 });
  });

  it('leaves every source byte for byte unchanged', () => {
    stats();
    // SQLite itself adds an empty -wal/-shm beside a WAL store it reads (as `recent` does): not a change.
    const files = (h: Record<string, string>) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => !/-(wal|shm)$/.test(k)));
    expect(files(hashTree(home))).toEqual(files(before));
  });
});

describe('opencode and PraisonAI', () => {
  it('reads opencode tokens from its database; PraisonAI says it records none', () => {
    const h = tempDir('lookback-stats-oc-');
    opencodeDb(h);
    praisonaiFiles(h);
    const was = hashTree(h);
    const e = { ...env, HOME: h, LOOKBACK_INDEX: join(tempDir(), 'agents.db') };
    const r = lookback(['stats', '--json'], e);
    expect(r.code).toBe(0);
    const j = r.json() as Obj;
    // The sample's one assistant message: tokens {input: 1200, output: 90}, model claude-opus-x.
    expect(j.models).toEqual([
      expect.objectContaining({
        model: 'claude-opus-x',
        agents: ['opencode'],
        tokens: {
          input: 1200,
          output: 90,
          cache_read: 0,
          cache_write: 0,
          reasoning: 0,
          total: 1290,
        },
        cost_usd: null,
        cost_kind: 'no price',
      }),
    ]);
    expect(j.token_notes).toEqual([
      { agent: 'praisonai', profile: null, host: 'local', note: 'records no token counts' },
    ]);
    expect(byKey(j.agents, 'agent', 'praisonai').tokens).toBeNull();
    expect(hashTree(h)).toEqual(was);
    const text = lookback(['stats'], e).stdout;
    expect(text).toContain('praisonai: records no token counts');
    expect(text).not.toMatch(/praisonai.*\b0 tok/);
  });
});

describe('lookback stats --host', () => {
  it('puts a synced machine in its own columns; an unsynced one is one line', () => {
    // A host as lookback sync leaves it: its state file and its mirror of the remote home.
    const dir = join(env.XDG_CACHE_HOME!, 'lookback', 'hosts', 'box');
    mkdirSync(join(dir, 'home'), { recursive: true });
    hermesHome(join(dir, 'home'));
    const state = {
      host: 'box',
      files: {},
      hermes: {},
      last_sync_at: null,
      last_ok_at: null,
      last_error: null,
    };
    writeFileSync(join(dir, 'state.json'), JSON.stringify(state));
    const j = stats(['--host', 'all', '--agent', 'hermes']);
    expect(j.hosts.map((h: Obj) => [h.host, h.conversations, h.messages])).toEqual([
      ['box', 4, 12],
      ['local', 4, 12],
    ]);
    expect(
      byKey(
        j.profiles.filter((p: Obj) => p.host === 'box'),
        'profile',
        'default',
      ),
    ).toMatchObject({ conversations: 3, messages: 10 });
    const one = stats(['--host', 'box', '--agent', 'hermes']);
    expect(one.totals.messages).toBe(12);
    const r = lookback(['stats', '--host', 'elsewhere'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'lookback: host elsewhere has not been synced: run lookback sync --host elsewhere first',
    );
  });
});

describe('lookback stats on a terminal', () => {
  it('draws the same numbers in 80 columns, without colour off a TTY', () => {
    const r = lookback(['stats'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(r.stdout).not.toContain('\x1b[');
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    const j = stats();
    expect(lines[0]).toContain('2026-08-10 … 2026-08-13');
    const n = (v: number, w: string) => `${v} ${w}${v === 1 ? '' : 's'}`;
    const t = j.totals as Obj;
    expect(lines[1]).toBe(
      `${n(t.conversations, 'conversation')} · ${n(t.messages, 'message')} · ${n(t.tool_calls, 'tool call')} · ${t.active_minutes} min active · ${n(t.days_active, 'day')}`,
    );
    expect(lines[2]).toBe(
      'tokens 2.1M  in 983k  out 284k  cache read 741k  write 20.1k  reasoning 90k',
    );
    expect(r.stdout).toMatch(/less · ░ ▒ ▓ █ more/);
    expect(lines.find((l) => l.startsWith('nous/hermes-4-405b'))).toMatch(/500\s+no price$/);
    expect(lines.find((l) => l.startsWith('gpt-5-codex'))).toMatch(/1\.8M\s+\$4\.20 priced$/);
    expect(r.stdout).toContain('hermes/work: no session in range records tokens');
    expect(r.stdout).toMatch(/^claude\s+\S.*\d msgs · 2 conv/m);
  });
});

describe('text from a source', () => {
  it('is sanitized before it is drawn: no escape sequence reaches the terminal', () => {
    const db = buildStore(30, (d) => {
      insertSession(d, {
        id: 'sX',
        started_at: 1_786_000_000,
        model: 'evil\x1b]52;c;aGk=\x07model\x1b[2J',
        cwd: '/tmp/\x1b[31mred\u202e',
        input_tokens: 10,
        output_tokens: 5,
      });
      insertMessage(d, {
        session_id: 'sX',
        role: 'assistant',
        content: 'x',
        timestamp: 1_786_000_000,
      });
    });
    const r = lookback(['stats', '--db', db], env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\x1b\x07\u202e]/);
    expect(r.stdout).toMatch(/^evil.*model.*no price$/m);
    const j = lookback(['stats', '--db', db, '--json'], env).json() as Obj;
    expect(j.models[0].model).toBe('evil\x1b]52;c;aGk=\x07model\x1b[2J'); // JSON keeps the source's text
  });
});

describe('bad input', () => {
  it.each([
    [['--agent', 'nope'], /^lookback: --agent takes hermes, claude/],
    [['--since', 'last tuesday'], /^lookback: --since takes a date/],
    [['--model', 'x'], /^lookback: --model is not an option of stats/],
    [
      ['--profile', 'work', '--agent', 'claude'],
      /^lookback: --profile names a Hermes profile; claude has none/,
    ],
  ])('%j is one line and exit 2', (args, message) => {
    const r = lookback(['stats', ...args], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the MCP stats tool', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer([], env as Record<string, string>);
  });
  afterAll(() => server?.close());

  it('answers the JSON of lookback stats --json for the same arguments', async () => {
    const { tools } = await server.client.listTools();
    const tool = tools.find((x) => x.name === 'stats')!;
    expect(tool.outputSchema?.type).toBe('object');
    expect(tool.description).toContain('no price');
    for (const [args, flags] of [
      [{}, []],
      [{ agent: 'claude', since: '2026-08-11' }, ['--agent', 'claude', '--since', '2026-08-11']],
      [{ agent: 'hermes', profile: 'work' }, ['--agent', 'hermes', '--profile', 'work']],
    ] as const) {
      const a = await call(server, { ...args }, 'stats');
      expect(a.isError).toBe(false);
      expect(a.structured).toEqual(a.json);
      expect(a.json).toEqual(stats([...flags]));
    }
  });

  it('on a server started on one store, answers for that store as lookback stats --db does', async () => {
    const db = join(home, '.hermes', 'profiles', 'work', 'state.db');
    const one = await startServer(['--db', db], env as Record<string, string>);
    try {
      const a = await call(one, { since: '2026-08-01' }, 'stats');
      expect(a.isError).toBe(false);
      expect(a.json).toEqual(stats(['--db', db, '--since', '2026-08-01']));
      expect((a.json.totals as Obj).messages).toBe(2);
    } finally {
      await one.close();
    }
  });

  it('answers a bad argument with one line', async () => {
    const a = await call(server, { agent: 'nope' }, 'stats');
    expect(a.isError).toBe(true);
    expect(a.text).toMatch(/agent takes hermes/);
    const b = await call(server, { since: 'someday' }, 'stats');
    expect(b.isError).toBe(true);
    expect(b.text).toMatch(/since takes a date/);
  });
});
