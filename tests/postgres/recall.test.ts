/**
 * A profile on PostgreSQL answers every recall call as the same rows in SQLite
 * do (issue #19): the fixtures' rows are loaded into a real PostgreSQL server,
 * in the schema the agent would create for the profile, and each call is
 * compared, answer for answer, through the library, the command line's JSON
 * and MCP, with the same call on an SQLite store holding the same rows and the
 * full-text layout lookback's mirror uses (the August 2026 agent's: for
 * `hermes-v26.db` that is the fixture itself). The PostgreSQL rows are the
 * same before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Lookback } from '../../src/lib.js';
import { schemaCandidates } from '../../src/store/postgresConfig.js';
import { sqlite } from '../../src/store/sqlite.js';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import {
  freshDatabase,
  loadHermesSchema,
  postgresProfileHome,
  schemaDigest,
  stopServer,
} from '../helpers/postgres.js';
import { call, startServer, type Server } from '../mcp/client.js';

type Obj = Record<string, unknown>;

/** The same rows, with the full-text indexes of the August 2026 store (what the mirror builds). */
function augustFts(path: string): void {
  const db = new (sqlite())(path);
  try {
    const objs = db
      .prepare(
        `SELECT type, name FROM sqlite_master WHERE (name LIKE 'messages_fts%') AND type IN ('table', 'view', 'trigger')`,
      )
      .all() as { type: string; name: string }[];
    for (const o of objs.filter((x) => x.type === 'trigger'))
      db.exec(`DROP TRIGGER IF EXISTS "${o.name}"`);
    for (const t of ['messages_fts', 'messages_fts_trigram', 'messages_fts_cjk'])
      db.exec(`DROP TABLE IF EXISTS ${t}`);
    for (const o of objs.filter((x) => x.type === 'view'))
      db.exec(`DROP VIEW IF EXISTS "${o.name}"`);
    db.exec(`CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT)`);
    db.exec(`DELETE FROM state_meta WHERE key LIKE 'fts%'`);
    for (const c of ['tool_name', 'tool_calls']) {
      const has = db.prepare(`SELECT 1 FROM pragma_table_info('messages') WHERE name = ?`).get(c);
      if (!has) db.exec(`ALTER TABLE messages ADD COLUMN ${c} TEXT`);
    }
    db.exec(`
      CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages', content_rowid='id');
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) VALUES (new.id, new.content, new.tool_name, new.tool_calls);
      END;
      CREATE VIEW messages_fts_trigram_src AS SELECT id, role, content, tool_name, tool_calls FROM messages WHERE role <> 'tool';
      CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls,
        content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram');
      CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages WHEN new.role <> 'tool' BEGIN
        INSERT INTO messages_fts_trigram(rowid, content, tool_name, tool_calls) VALUES (new.id, new.content, new.tool_name, new.tool_calls);
      END;
      INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
      INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES ('rebuild');
    `);
  } finally {
    db.close();
  }
}

const CASES = [
  { fixture: 26, profile: 'pg26' },
  { fixture: '30-compacted', profile: 'pg30c' },
  { fixture: 30, profile: 'pg30' },
  { fixture: 16, profile: 'pg16' },
  { fixture: 6, profile: 'pg6' },
] as const;

const QUERIES = [
  'docker',
  'test',
  'billing migration',
  '"connection pool"',
  'webhook OR ledger',
  'stripe NOT invoices',
  'deploy*',
  'chat-send',
  // CJK: two characters (substring scan), three or more (trigram), mixed.
  '数据',
  '迁移',
  '数据库迁移',
  '部署 docker',
];

let root: string;
let dbUrl: string;
const digests = new Map<string, string>();
const refs = new Map<string, string>();
let env: Record<string, string>;

beforeAll(async () => {
  const dir = tempDir();
  root = join(dir, 'home', '.hermes');
  mkdirSync(root, { recursive: true });
  env = { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') };
  dbUrl = await freshDatabase();
  for (const c of CASES) {
    const home = join(root, 'profiles', c.profile);
    mkdirSync(home, { recursive: true });
    const schema = schemaCandidates(c.profile, home, {}).candidates[0]!;
    const fixture = join(FIXTURE_DIR, `hermes-v${c.fixture}.db`);
    await loadHermesSchema(dbUrl, schema, fixture);
    digests.set(schema, await schemaDigest(dbUrl, schema));
    postgresProfileHome(home, dbUrl);
    const ref = join(dir, `ref-${c.profile}.db`);
    copyFileSync(fixture, ref);
    if (c.fixture !== 26) augustFts(ref);
    refs.set(c.profile, ref);
  }
}, 120_000);

afterAll(async () => {
  for (const [schema, digest] of digests) expect(await schemaDigest(dbUrl, schema)).toBe(digest);
  stopServer();
});

const ctx = () => ({ env: { ...process.env, ...env, HERMES_HOME: '' }, home: env.HOME! });

describe.each(CASES)('fixture v$fixture in PostgreSQL (profile $profile)', ({ profile }) => {
  let pg: Lookback;
  let lite: Lookback;
  beforeAll(() => {
    pg = openStore({ profile }, ctx());
    lite = openStore({ path: refs.get(profile)!, profile }, ctx());
  }, 60_000);
  afterAll(() => {
    pg?.close();
    lite?.close();
  });

  it('browse: the same conversations, order, titles, previews, counts', () => {
    for (const opts of [{ limit: 100 }, { limit: 100, all: true }, { limit: 5 }]) {
      const a = pg.recent(opts);
      expect(a).toEqual(lite.recent(opts));
      expect((a.results as Obj[]).length).toBeGreaterThan(0);
    }
  });

  it('discover: the same hits, order, snippets, windows and bookends (BM25, not ts_rank_cd)', () => {
    let hits = 0;
    for (const q of QUERIES)
      for (const opts of [
        { limit: 10, detail: 'full' as const },
        { limit: 5, sort: 'newest' as const },
        { limit: 5, roles: ['user', 'assistant', 'tool'] },
        { limit: 5, all: true },
      ]) {
        const a = pg.search(q, opts);
        expect(a, `${q} ${JSON.stringify(opts)}`).toEqual(lite.search(q, opts));
        hits += (a.results as Obj[] | undefined)?.length ?? 0;
      }
    expect(hits).toBeGreaterThan(20);
  });

  it('scroll, read and lineage rebinding: the same windows, hidden and rewound rules', () => {
    const sessions = (lite.recent({ limit: 200, all: true }).results as Obj[]).map((r) =>
      String(r.session_id),
    );
    const db = new (sqlite())(refs.get(profile)!, { readonly: true });
    const sample = db
      .prepare(
        `SELECT m.id, m.session_id, s.parent_session_id AS parent FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.id % 37 = 0 ORDER BY m.id`,
      )
      .all() as { id: number; session_id: string; parent: string | null }[];
    const all = db.prepare(`SELECT id FROM sessions`).pluck().all() as string[];
    db.close();
    expect(sample.length).toBeGreaterThan(50);
    for (const m of sample) {
      for (const w of [1, 5, 20])
        expect(pg.scroll(m.session_id, m.id, { window: w })).toEqual(
          lite.scroll(m.session_id, m.id, { window: w }),
        );
      // An anchor in a continuation named by its parent: rebound (or refused) alike.
      if (m.parent) expect(pg.scroll(m.parent, m.id)).toEqual(lite.scroll(m.parent, m.id));
    }
    for (const sid of new Set([...sessions, ...all])) expect(pg.read(sid)).toEqual(lite.read(sid));
    // A prefix and a missing id: the same answer or the same one-line error.
    const err = (f: () => unknown) => {
      try {
        return f();
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(err(() => pg.read(all[0]!.slice(0, 10)))).toEqual(
      err(() => lite.read(all[0]!.slice(0, 10))),
    );
    expect(err(() => pg.read('nosuch'))).toEqual(err(() => lite.read('nosuch')));
  });
});

describe('the command line and MCP', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer([], env);
  });
  afterAll(async () => {
    await server?.close();
  });
  const same = (args: string[], ref: string) => {
    const a = lookback([...args, '--profile', 'pg26', '--json'], env);
    const b = lookback([...args, '--db', ref, '--json'], env);
    expect(a.stderr).toBe('');
    expect(a.code).toBe(0);
    // The links name the profile the store was opened as.
    expect(a.stdout).toBe(b.stdout.replaceAll('@session:default/', '@session:pg26/'));
    return a.json();
  };

  it('lookback recent/search/scroll/read --profile NAME --json print what the SQLite store prints', () => {
    const ref = refs.get('pg26')!;
    same(['recent', '--limit', '30'], ref);
    for (const q of ['docker', '数据', '数据库迁移']) {
      const out = same(['search', q], ref);
      const first = (out.results as Obj[])[0];
      if (!first) continue;
      same(['scroll', String(first.session_id), String(first.match_message_id)], ref);
      same(['read', String(first.session_id)], ref);
    }
  }, 180_000);

  it('MCP session_search(profile=…) answers as the command line', async () => {
    for (const q of ['docker', '数据', 'webhook OR ledger']) {
      const r = await call(server, { profile: 'pg30c', query: q });
      expect(r.isError, r.text).toBe(false);
      const cli = lookback(['search', q, '--profile', 'pg30c', '--json'], env).json();
      expect(r.json.results).toEqual(cli.results);
    }
    const browse = await call(server, { profile: 'pg6', limit: 10 });
    expect(browse.json.results).toEqual(
      lookback(['recent', '--profile', 'pg6', '--limit', '10', '--json'], env).json().results,
    );
  }, 120_000);

  it('MCP list_sessions, session_overview and session_messages(profile=…) answer as the command line', async () => {
    const cli = (args: string[]) => lookback([...args, '--profile', 'pg30c', '--json'], env).json();
    const page = await call(server, { profile: 'pg30c', limit: 5 }, 'list_sessions');
    expect(page.isError, page.text).toBe(false);
    expect(page.json).toEqual(cli(['list', '--limit', '5']));
    const next = await call(
      server,
      { profile: 'pg30c', limit: 5, cursor: page.json.next_cursor },
      'list_sessions',
    );
    expect(next.json).toEqual(
      cli(['list', '--limit', '5', '--cursor', String(page.json.next_cursor)]),
    );
    const sid = String((page.json.results as Obj[])[0]!.session_id);
    const over = await call(server, { profile: 'pg30c', session_id: sid }, 'session_overview');
    expect(over.json).toEqual(cli(['overview', sid]));
    expect(over.json).toMatchObject({ profile: 'pg30c', session_id: sid, agent: 'hermes' });
    const msgs = await call(
      server,
      { profile: 'pg30c', session_id: sid, limit: 4, max_chars: 2000 },
      'session_messages',
    );
    expect(msgs.json).toEqual(cli(['messages', sid, '--limit', '4', '--max-chars', '2000']));
    expect(msgs.json.total).toBe(over.json.message_count);
  }, 120_000);

  it('--all-profiles reaches every PostgreSQL profile', () => {
    const out = lookback(['recent', '--all-profiles', '--limit', '400', '--json'], env).json();
    expect(out.profiles).toEqual(['pg16', 'pg26', 'pg30', 'pg30c', 'pg6']);
    expect(out.skipped).toEqual([
      { profile: 'default', error: `no store at ${join(root, 'state.db')}` },
    ]);
    const profiles = new Set((out.results as Obj[]).map((r) => r.profile));
    expect(profiles.size).toBe(5);
  }, 60_000);
});

/**
 * MCP and the command line, call by call over every fixture: a server (and a
 * command) whose profile lives in PostgreSQL, against one whose profile of the
 * same name is the SQLite copy of the same rows. Same JSON, byte for byte.
 */
describe('MCP and the command line against the SQLite copy, every fixture', () => {
  let pgServer: Server;
  let liteServer: Server;
  let liteEnv: Record<string, string>;
  beforeAll(async () => {
    const dir = tempDir();
    liteEnv = { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') };
    for (const c of CASES) {
      const home = join(dir, 'home', '.hermes', 'profiles', c.profile);
      mkdirSync(home, { recursive: true });
      copyFileSync(refs.get(c.profile)!, join(home, 'state.db'));
    }
    [pgServer, liteServer] = await Promise.all([startServer([], env), startServer([], liteEnv)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([pgServer?.close(), liteServer?.close()]);
  });

  it.each(CASES)(
    'MCP session_search: browse, discover, scroll and read (fixture v$fixture)',
    async ({ profile }) => {
      const both = async (args: Obj) => {
        const [a, b] = await Promise.all([call(pgServer, args), call(liteServer, args)]);
        expect(a.isError, `${JSON.stringify(args)}: ${a.text}`).toBe(b.isError);
        expect(a.json, JSON.stringify(args)).toEqual(b.json);
        return a;
      };
      await both({ profile, limit: 10 });
      let anchors = 0;
      for (const q of QUERIES) {
        const a = await both({ profile, query: q, limit: 10, detail: 'full' });
        await both({ profile, query: q, limit: 5, sort: 'newest' });
        for (const r of ((a.json.results as Obj[] | undefined) ?? []).slice(0, 2)) {
          anchors++;
          await both({
            profile,
            session_id: r.session_id,
            around_message_id: r.match_message_id,
            window: 3,
          });
          await both({ profile, session_id: r.session_id });
        }
      }
      expect(anchors).toBeGreaterThan(5);
      // A missing session: the same one-line error.
      await both({ profile, session_id: 'nosuch-session' });
    },
    120_000,
  );

  it.each(CASES.filter((c) => c.profile !== 'pg26'))(
    'lookback recent/search/scroll/read --profile $profile --json (fixture v$fixture)',
    ({ profile }) => {
      const same = (args: string[]) => {
        const a = lookback([...args, '--profile', profile, '--json'], env);
        const b = lookback([...args, '--profile', profile, '--json'], liteEnv);
        expect(a.stderr).toBe('');
        expect(a.code, args.join(' ')).toBe(b.code);
        expect(a.stdout, args.join(' ')).toBe(b.stdout);
        return a.json();
      };
      same(['recent', '--limit', '30']);
      const first = (same(['search', 'docker OR 数据']).results as Obj[])[0]!;
      expect(first).toBeDefined();
      same(['scroll', String(first.session_id), String(first.match_message_id)]);
      same(['read', String(first.session_id)]);
    },
    120_000,
  );
});
