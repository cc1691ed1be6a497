/**
 * opencode 2.x (AGENTS.md §8.2) in a database built with its real schema
 * (anomalyco/opencode `loose_psylocke` for `session_v2`, `schema.gen.ts` for
 * `session_message`, `session_pending`, `event`): a session migrated from 1.x
 * (both generations, same ids: read once, from 2.x), a 2.x-only session with the
 * renamed tools and their moved fields, a revert, rows rewritten in place while
 * opencode holds the database open in WAL mode, and an `event` table no query may
 * touch. Through the built CLI, asserting on the text shown.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { hashTree } from './samples.js';
import { OPENCODE_V2_TABLES } from './opencodeV2Schema.js';
import { exactCount } from '../helpers/exact.js';
import { waitOutFreshPass } from '../helpers/fresh.js';

type Obj = Record<string, unknown>;

const MIGRATED = 'ses_2Mig001';
const FRESH = 'ses_2New001';

let dir: string;
let home: string;
let dbPath: string;
let env: NodeJS.ProcessEnv;
let live: Database.Database;

function run(args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) =>
  (p.messages as Obj[]).map((m) => `${String(m.role)}: ${String(m.content)}`);

function build(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT, vcs TEXT, name TEXT);
    -- 1.x tables, frozen at the upgrade.
    CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT, title TEXT,
      version TEXT, revert TEXT, model TEXT, time_created INTEGER, time_updated INTEGER, time_archived INTEGER);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
    -- 2.x tables.
    ${OPENCODE_V2_TABLES}
    -- The event log stands in as a view that fails when read: any query of it fails the test.
    CREATE VIEW event AS SELECT json_extract('{', '$') AS id, '' AS aggregate_id, 0 AS seq, 0 AS created, '' AS type, '' AS data;
  `);
  const v1s = db.prepare(
    `INSERT INTO session VALUES (?, 'prj_1', NULL, 'slug', '/home/ana/shop', ?, '1.4.2', NULL, NULL, ?, ?, NULL)`,
  );
  v1s.run(MIGRATED, 'Cart totals', 1788000000000, 1788000100000);
  db.prepare(
    `INSERT INTO message VALUES ('msg_m1', ?, 1788000001000, 1788000001000, '{"role":"user"}')`,
  ).run(MIGRATED);
  db.prepare(
    `INSERT INTO part VALUES ('prt_m1', 'msg_m1', ?, 1788000001000, 1788000001000, ?)`,
  ).run(MIGRATED, JSON.stringify({ type: 'text', text: 'cart totals round the wrong way' }));
  const s2 = db.prepare(
    `INSERT INTO session_v2 (id, project_id, slug, directory, title, version, model, revert, time_created, time_updated)
     VALUES (?, 'prj_1', ?, ?, ?, '2.0.12', ?, ?, ?, ?)`,
  );
  s2.run(
    MIGRATED,
    'cart',
    '/home/ana/shop',
    'Cart totals',
    null,
    null,
    1788000000000,
    1788000100000,
  );
  s2.run(
    FRESH,
    'deploy',
    '/home/ana/ops',
    null,
    JSON.stringify({ id: 'claude-sonnet-5', providerID: 'anthropic', variant: 'default' }),
    JSON.stringify({ messageID: 'msg_n5' }),
    1789000000000,
    1789000500000,
  );
  const m = db.prepare(`INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)`);
  m.run(
    'msg_m1',
    MIGRATED,
    'user',
    0,
    1788000001000,
    1788000001000,
    JSON.stringify({ text: 'cart totals round the wrong way', time: { created: 1788000001000 } }),
  );
  m.run(
    'msg_m2',
    MIGRATED,
    'assistant',
    1,
    1788000002000,
    1788000009000,
    JSON.stringify({
      agent: 'build',
      model: { providerID: 'anthropic', id: 'claude-sonnet-5' },
      content: [{ type: 'text', text: 'Use banker’s rounding in the cart total.' }],
      cost: 0.01,
      tokens: { input: 900, output: 40, reasoning: 0, cache: { read: 0, write: 0 } },
      time: { created: 1788000002000, completed: 1788000009000 },
    }),
  );
  m.run(
    'msg_n1',
    FRESH,
    'synthetic',
    0,
    1789000001000,
    1789000001000,
    JSON.stringify({
      text: 'The user is working in /home/ana/ops on branch main.',
      time: { created: 1789000001000 },
    }),
  );
  m.run(
    'msg_n2',
    FRESH,
    'user',
    1,
    1789000002000,
    1789000002000,
    JSON.stringify({
      text: 'roll the staging deploy back to v41',
      time: { created: 1789000002000 },
    }),
  );
  m.run(
    'msg_n3',
    FRESH,
    'assistant',
    2,
    1789000003000,
    1789000009000,
    JSON.stringify({
      agent: 'build',
      model: { providerID: 'anthropic', id: 'claude-sonnet-5', variant: 'default' },
      content: [
        {
          type: 'reasoning',
          text: 'Check the release list first.',
          time: { created: 1789000003000 },
        },
        {
          type: 'tool',
          id: 'call_1',
          name: 'shell',
          state: {
            status: 'completed',
            input: { command: 'kubectl rollout history deploy/api' },
            content: [{ type: 'text', text: 'REVISION 41 api:v41\nREVISION 42 api:v42' }],
            metadata: { exit: 0 },
          },
          time: { created: 1789000004000 },
        },
        {
          type: 'tool',
          id: 'call_2',
          name: 'patch',
          state: {
            status: 'error',
            input: { path: 'deploy/values.yaml' },
            content: [],
            error: { message: 'patch did not apply: hunk 2 failed' },
          },
          time: { created: 1789000005000 },
        },
        { type: 'text', text: 'Draft: I will roll back to v40.' },
      ],
      cost: 0.02,
      tokens: { input: 1500, output: 80, reasoning: 10, cache: { read: 0, write: 0 } },
      time: { created: 1789000003000 },
    }),
  );
  m.run(
    'msg_n4',
    FRESH,
    'model-switched',
    3,
    1789000010000,
    1789000010000,
    JSON.stringify({
      model: { id: 'gpt-6', providerID: 'openai' },
      time: { created: 1789000010000 },
    }),
  );
  m.run(
    'msg_n5',
    FRESH,
    'user',
    4,
    1789000011000,
    1789000011000,
    JSON.stringify({
      text: 'gm5_decision: also drop the canary',
      time: { created: 1789000011000 },
    }),
  );
  m.run(
    'msg_n6',
    FRESH,
    'assistant',
    5,
    1789000012000,
    1789000013000,
    JSON.stringify({
      agent: 'build',
      model: { providerID: 'anthropic', id: 'claude-sonnet-5' },
      content: [{ type: 'text', text: 'Canary dropped.' }],
      cost: 0,
      tokens: { input: 10, output: 3, reasoning: 0, cache: { read: 0, write: 0 } },
      time: { created: 1789000012000, completed: 1789000013000 },
    }),
  );
  db.prepare(
    `INSERT INTO session_pending VALUES ('pnd_1', ?, 'user', ?, 'queued', 6, 1789000014000)`,
  ).run(FRESH, JSON.stringify({ text: 'pending words never said: zebra quartz' }));
  db.prepare(`INSERT INTO session_inbox VALUES ('inb_1', ?, ?, 1789000014000)`).run(
    FRESH,
    JSON.stringify({ text: 'inbox words never said: zebra quartz' }),
  );
  return db;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-oc2-'));
  home = join(dir, 'home');
  const data = join(home, '.local', 'share', 'opencode');
  mkdirSync(data, { recursive: true });
  dbPath = join(data, 'opencode.db');
  // Held open as opencode holds it: recent rows live in opencode.db-wal.
  live = build(dbPath);
  env = { HOME: home, LOOKBACK_INDEX: join(dir, 'index.db'), XDG_DATA_HOME: '' };
});
afterAll(() => {
  live.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('opencode 2.x', () => {
  it('reads a migrated session once, from the 2.x rows, and never the event log', () => {
    const src = run(['sources', '--json']);
    expect((src.sources as Obj[]).find((s) => s.agent === 'opencode')).toMatchObject({
      conversations: 2,
      problems: [],
    });
    const read = run(['read', '--agent', 'opencode', MIGRATED, '--json']);
    expect(texts(read)).toEqual([
      'user: cart totals round the wrong way',
      'assistant: Use banker’s rounding in the cart total.',
    ]);
    expect(read.session_meta).toMatchObject({
      title: 'Cart totals',
      cwd: '/home/ana/shop',
      model: 'claude-sonnet-5',
    });
    // Pending and inbox input is not in the transcript.
    expect(
      exactCount(run(['search', 'zebra quartz', '--agent', 'opencode', '--all', '--json'])),
    ).toBe(0);
  });

  it('reads the renamed tools with their moved fields, the title from the first prompt, and a revert', () => {
    const read = run(['read', '--agent', 'opencode', FRESH, '--json']);
    expect(read.session_meta).toMatchObject({
      title: 'roll the staging deploy back to v41',
      cwd: '/home/ana/ops',
      model: 'claude-sonnet-5',
    });
    // read gives every row but what was taken back: the injected context, the
    // tools' output under their 2.x names, the model switch as bookkeeping.
    expect(texts(read)).toEqual([
      'system: The user is working in /home/ana/ops on branch main.',
      'user: roll the staging deploy back to v41',
      'assistant: Draft: I will roll back to v40.',
      'tool: REVISION 41 api:v41\nREVISION 42 api:v42',
      'tool: patch did not apply: hunk 2 failed',
      'system: model-switched',
    ]);
    expect((read.messages as Obj[])[2]).toMatchObject({
      reasoning: 'Check the release list first.',
      tool_calls: [
        { id: 'call_1', function: { name: 'shell' } },
        { id: 'call_2', function: { name: 'patch', arguments: '{"path":"deploy/values.yaml"}' } },
      ],
    });
    const withTools = run([
      'search',
      'REVISION api',
      '--agent',
      'opencode',
      '--roles',
      'tool',
      '--json',
    ]);
    const hit = (withTools.results as Obj[])[0]!;
    expect(hit).toMatchObject({ session_id: FRESH, match_message_id: 'msg_n3/call_1' });
    const tool = (hit.messages as Obj[]).find((m) => m.anchor === true)!;
    expect(tool).toMatchObject({ tool_name: 'shell', tool_call_id: 'call_1' });
    // Tool output is out of a default search; the miss says how to reach it.
    const miss = run(['search', 'REVISION api', '--agent', 'opencode', '--json']);
    expect(exactCount(miss)).toBe(0);
    expect(String(miss.message)).toContain('--roles user,assistant,tool');
    const err = run(['search', 'hunk failed', '--agent', 'opencode', '--roles', 'tool', '--json']);
    expect((err.results as Obj[])[0]).toMatchObject({ match_message_id: 'msg_n3/call_2' });
    // The revert took back msg_n5 and what followed.
    expect(exactCount(run(['search', 'gm5_decision', '--agent', 'opencode', '--json']))).toBe(0);
    const all = run(['search', 'gm5_decision', '--agent', 'opencode', '--all', '--json']);
    expect((all.results as Obj[])[0]).toMatchObject({
      match_message_id: 'msg_n5',
      taken_back: true,
    });
  });

  it('finds a needle only in a row rewritten in place, and no longer its old text', () => {
    const before = hashTree(home);
    expect(run(['search', 'Draft roll back v40', '--agent', 'opencode', '--json']).count).toBe(1);
    // opencode rewrites the streaming reply: same id and seq, new data, later time_updated.
    const row = live.prepare(`SELECT data FROM session_message WHERE id = 'msg_n3'`).get() as {
      data: string;
    };
    const data = JSON.parse(row.data) as { content: Obj[]; time: Obj };
    data.content[3] = {
      type: 'text',
      text: 'Rolled back to v41: the flamingo release is live again.',
    };
    data.time.completed = 1789000020000;
    live
      .prepare(
        `UPDATE session_message SET data = ?, time_updated = 1789000020000 WHERE id = 'msg_n3'`,
      )
      .run(JSON.stringify(data));
    waitOutFreshPass();
    const hit = run(['search', 'flamingo release', '--agent', 'opencode', '--json']);
    expect((hit.results as Obj[]).map((r) => r.match_message_id)).toEqual(['msg_n3']);
    expect(
      exactCount(run(['search', 'Draft roll back v40', '--agent', 'opencode', '--json'])),
    ).toBe(0);
    const scroll = run(['scroll', '--agent', 'opencode', FRESH, 'msg_n3', '--json']);
    expect((scroll.messages as Obj[]).find((m) => m.anchor === true)!.content).toBe(
      'Rolled back to v41: the flamingo release is live again.',
    );
    // The database and its -wal are only read: the test's own write is the one change.
    const after = hashTree(home);
    const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
    expect(
      changed.every((k) => k.endsWith('opencode.db-wal') || k.endsWith('opencode.db-shm')),
    ).toBe(true);
  });

  it('a -wal with no -shm (opencode stopped hard): the WAL’s rows are read, and no file appears beside it', () => {
    // SQLite cannot read a WAL without its -shm in place without creating the -shm
    // (a read-only open refuses, immutable skips the WAL): readOnlyDb.ts reads a private copy.
    const home2 = join(dir, 'crashed');
    const data = join(home2, '.local', 'share', 'opencode');
    mkdirSync(data, { recursive: true });
    copyFileSync(`${dbPath}-wal`, join(data, 'opencode.db-wal'));
    copyFileSync(dbPath, join(data, 'opencode.db'));
    // The row is in the -wal only: the main file alone does not hold it.
    const alone = join(dir, 'alone.db');
    copyFileSync(dbPath, alone);
    const a = new Database(alone); // the test’s own copy, with no -wal beside it
    const has = a.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'session_message'`);
    const n = (has.get() as { n: number }).n;
    const inMain =
      n === 0
        ? 0
        : (
            a.prepare(`SELECT count(*) AS n FROM session_message WHERE id = 'msg_n3'`).get() as {
              n: number;
            }
          ).n;
    a.close();
    expect(inMain).toBe(0);
    const before = hashTree(home2);
    expect(readdirSync(data).sort()).toEqual(['opencode.db', 'opencode.db-wal']);
    const env2 = { HOME: home2, LOOKBACK_INDEX: join(dir, 'index2.db'), XDG_DATA_HOME: '' };
    const r = lookback(['search', 'flamingo release', '--agent', 'opencode', '--json'], env2);
    expect(r.code, r.stderr).toBe(0);
    expect((r.json().results as Obj[]).map((x) => x.match_message_id)).toEqual(['msg_n3']);
    expect(readdirSync(data).sort()).toEqual(['opencode.db', 'opencode.db-wal']);
    expect(hashTree(home2)).toEqual(before);
  });
});
