/**
 * The PostgreSQL feed against a real server: what the agent writes after the
 * first sync is in the next answer (a new message, an in-place rewind, a new
 * title, an id committed below one already seen, a deleted session), the rows
 * are never changed, no connection is left open, and a server that cannot be
 * reached is one line (alone: exit 1; among every profile: a skipped entry,
 * the others still answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/lib.js';
import { keepSyncing } from '../../src/postgres/run.js';
import { postgresTarget, schemaCandidates } from '../../src/store/postgresConfig.js';
import { Store } from '../../src/store/store.js';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import {
  freshDatabase,
  loadHermesSchema,
  postgresProfileHome,
  schemaDigest,
  stopServer,
  withClient,
} from '../helpers/postgres.js';

type Obj = Record<string, unknown>;

let dir: string;
let root: string;
let url: string;
let schema: string;
let env: Record<string, string>;
const S = () => `"${schema}".sessions`;
const M = () => `"${schema}".messages`;

beforeAll(async () => {
  dir = tempDir();
  root = join(dir, 'home', '.hermes');
  const home = join(root, 'profiles', 'team');
  mkdirSync(home, { recursive: true });
  // A SQLite profile beside it: the every-profile view must still answer when the server is down.
  mkdirSync(join(root, 'profiles', 'local'), { recursive: true });
  copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), join(root, 'profiles', 'local', 'state.db'));
  copyFileSync(join(FIXTURE_DIR, 'hermes-v16.db'), join(root, 'state.db'));
  url = await freshDatabase();
  schema = schemaCandidates('team', home, {}).candidates[0]!;
  await loadHermesSchema(url, schema, join(FIXTURE_DIR, 'hermes-v26.db'));
  postgresProfileHome(home, url);
  env = { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') };
}, 120_000);

afterAll(() => stopServer());

const json = (args: string[]) => {
  const r = lookback([...args, '--profile', 'team', '--json'], env);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.json();
};
const sql = (text: string, params: unknown[] = []) => withClient(url, (c) => c.query(text, params));

describe('incremental sync', () => {
  let sid: string;
  it('a first sync, then the rows the agent writes after it', async () => {
    const first = json(['recent', '--limit', '5']);
    sid = String((first.results as Obj[])[0]!.session_id);
    const before = await schemaDigest(url, schema);
    // The agent appends a message (and bumps the session's counter, as it does).
    await sql(
      `WITH m AS (INSERT INTO ${M()} (session_id, role, content, timestamp, active, compacted)
         VALUES ($1, 'user', 'the quokkaphant deployment is ready', extract(epoch from now()), 1, 0) RETURNING id)
       UPDATE ${S()} SET message_count = message_count + 1 WHERE id = $1`,
      [sid],
    );
    const hit = json(['search', 'quokkaphant']);
    expect((hit.results as Obj[]).map((r) => r.session_id)).toEqual([sid]);
    expect(String((hit.results as Obj[])[0]!.snippet)).toContain('>>>quokkaphant<<<');
    expect(await schemaDigest(url, schema)).not.toBe(before);
  });

  it('an in-place rewind (active = 0) and a new title are noticed', async () => {
    const id = (await sql(`SELECT max(id) AS id FROM ${M()} WHERE content LIKE '%quokkaphant%'`))
      .rows[0].id as string;
    await sql(`UPDATE ${M()} SET active = 0 WHERE id = $1`, [id]);
    await sql(`UPDATE ${S()} SET rewind_count = rewind_count + 1, title = $2 WHERE id = $1`, [
      sid,
      'Renamed by the agent',
    ]);
    expect((json(['search', 'quokkaphant']).results as Obj[]).length).toBe(0);
    const read = json(['read', sid]);
    expect(JSON.stringify(read)).not.toContain('quokkaphant');
    const recent = json(['recent', '--limit', '50']).results as Obj[];
    expect(recent.find((r) => r.session_id === sid)?.title).toBe('Renamed by the agent');
  });

  it('an id committed after a higher one is not lost, even when no session row moved', async () => {
    const max = Number((await sql(`SELECT max(id) AS m FROM ${M()}`)).rows[0].m);
    const ins = (id: number, word: string) =>
      sql(
        `INSERT INTO ${M()} (id, session_id, role, content, timestamp, active, compacted)
         OVERRIDING SYSTEM VALUE VALUES ($1, $2, 'assistant', $3, extract(epoch from now()), 1, 0)`,
        [id, sid, `note about ${word}`],
      );
    await ins(max + 10, 'zebracorn');
    expect((json(['search', 'zebracorn']).results as Obj[]).length).toBe(1);
    // A transaction that took id max+5 earlier commits only now.
    await ins(max + 5, 'lynxodile');
    const hit = json(['search', 'lynxodile']).results as Obj[];
    expect(hit.map((r) => r.match_message_id)).toEqual([max + 5]);
  });

  it('a deleted session disappears; the mirror is the only file written', async () => {
    const victim = (json(['recent', '--limit', '50']).results as Obj[]).at(-1)!
      .session_id as string;
    await sql(
      `DELETE FROM ${M()} WHERE session_id = $1 AND NOT EXISTS (SELECT 1 FROM ${S()} c WHERE c.parent_session_id = $1)`,
      [victim],
    );
    const left = await sql(`SELECT count(*)::int AS n FROM ${M()} WHERE session_id = $1`, [victim]);
    if (left.rows[0].n === 0) await sql(`DELETE FROM ${S()} WHERE id = $1`, [victim]);
    const recent = json(['recent', '--limit', '200', '--all']).results as Obj[];
    expect(recent.some((r) => r.session_id === victim)).toBe(left.rows[0].n !== 0);
  });

  it('the rows are unchanged by lookback, and no lookback connection stays open', async () => {
    const before = await schemaDigest(url, schema);
    json(['recent']);
    json(['search', 'docker']);
    expect(await schemaDigest(url, schema)).toBe(before);
    const open = await sql(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'lookback'`,
    );
    expect(open.rows[0].n).toBe(0);
  });

  it('the library answers as the mirror, synced when opened', () => {
    const lb = openStore(
      { profile: 'team' },
      { env: { ...process.env, ...env, HERMES_HOME: '' }, home: env.HOME! },
    );
    try {
      expect(lb.search('zebracorn').count).toBe(1);
    } finally {
      lb.close();
    }
  });

  it('the app keeps syncing: a new message reaches the mirror within a few seconds', async () => {
    const target = postgresTarget('team', join(root, 'profiles', 'team'), {}, false)!;
    let mirror = '';
    const reports: number[] = [];
    const loop = keepSyncing(target, join(dir, 'cache', 'lookback'), 300, {
      onSync: (r) => {
        mirror = r.mirror;
        reports.push(r.messages.upserted);
      },
    });
    try {
      await expect.poll(() => mirror, { timeout: 20_000 }).not.toBe('');
      const store = Store.open(mirror, { profile: 'team' });
      const count = () =>
        store.read(() =>
          store.db
            .prepare(`SELECT count(*) FROM messages WHERE content LIKE '%wombatross%'`)
            .pluck()
            .get(),
        );
      expect(count()).toBe(0);
      const t0 = Date.now();
      await sql(
        `INSERT INTO ${M()} (session_id, role, content, timestamp, active, compacted)
         VALUES ($1, 'user', 'a wombatross appears', extract(epoch from now()), 1, 0)`,
        [sid],
      );
      await expect.poll(count, { timeout: 20_000, interval: 50 }).toBe(1);
      const ms = Date.now() - t0;
      store.close();
      expect(ms).toBeLessThan(20_000);
    } finally {
      loop.stop();
    }
  }, 60_000);
});

describe('errors: one line naming the profile', () => {
  const setHome = (name: string, u: string, extra = '') => {
    const home = join(root, 'profiles', name);
    postgresProfileHome(home, u, extra);
    return home;
  };
  const fails = (name: string) => {
    const r = lookback(['recent', '--profile', name], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    return r.stderr.trim();
  };

  it('an unreachable server; the every-profile view still answers from the others', () => {
    setHome('down', 'postgresql://someone:secret@127.0.0.1:1/hermes');
    const line = fails('down');
    expect(line).toMatch(
      /^lookback: profile down: PostgreSQL at postgresql:\/\/someone@127\.0\.0\.1:1\/hermes unreachable/,
    );
    expect(line).not.toContain('secret');
    const all = lookback(['recent', '--all-profiles', '--json'], env);
    expect(all.code).toBe(0);
    const out = all.json();
    expect(out.profiles).toEqual(['default', 'local', 'team']);
    const skipped = out.skipped as { profile: string; error: string }[];
    expect(skipped.find((s) => s.profile === 'down')?.error).toMatch(/unreachable/);
    expect((out.results as Obj[]).length).toBeGreaterThan(0);
  });

  it('a refused login, a bad URL, a missing schema', () => {
    const u = new URL(url);
    u.username = 'nobody_here';
    setHome('badauth', u.toString());
    expect(fails('badauth')).toMatch(
      /^lookback: profile badauth: PostgreSQL at .* refused the login/,
    );
    setHome('badurl', 'postgresql://[::1');
    expect(fails('badurl')).toMatch(/^lookback: profile badurl: /);
    setHome('noschema', url);
    expect(fails('noschema')).toMatch(
      new RegExp(
        `^lookback: profile noschema: no Hermes schema hermes_noschema_[0-9a-f]{12} or hermes_state_[0-9a-f]{16} at .*other Hermes schemas there: ${schema}`,
      ),
    );
  });
});
