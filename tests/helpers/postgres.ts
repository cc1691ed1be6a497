/**
 * A real PostgreSQL server for the tests: `$LOOKBACK_TEST_PG_URL` (CI starts
 * one in .ci/run), else a throwaway cluster started here from the Debian
 * binaries (initdb as the `postgres` user when run as root), stopped after the
 * file's tests. No server and no binaries: the test FAILS, it does not skip.
 *
 * `loadHermesSchema` writes a fixture's rows into the schema the agent would
 * create for a profile: its tables and columns written out for PostgreSQL
 * (BIGINT, DOUBLE PRECISION, an identity message id, the generated
 * `search_vector`, `state_change_revision` bumped by statement triggers) and
 * structured content re-encoded as the agent's importer does ("\u0001json:").
 */
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sqlite } from '../../src/store/sqlite.js';

let started: { dataDir: string; bin: string; asPostgres: boolean } | null = null;
let adminUrl: string | null = null;

/** The PostgreSQL server binaries (Debian's /usr/lib/postgresql/N/bin, else pg_config's). */
export function pgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions)
      if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** A loopback port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The admin URL of a running server (started here when the environment names none). */
export async function testServer(): Promise<string> {
  if (adminUrl) return adminUrl;
  const env = process.env.LOOKBACK_TEST_PG_URL?.trim();
  if (env) return (adminUrl = env);
  const bin = pgBin();
  if (!bin)
    throw new Error(
      'no PostgreSQL for the tests: set LOOKBACK_TEST_PG_URL or install the server (Debian: postgresql)',
    );
  const asPostgres = userInfo().uid === 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'lookback-pg-'));
  const run = (cmd: string, args: string[]) =>
    execFileSync(
      asPostgres ? 'runuser' : join(bin, cmd),
      asPostgres ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args,
      {
        stdio: 'pipe',
      },
    );
  if (asPostgres) {
    // initdb refuses root: the cluster belongs to the postgres user.
    const pw = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dataDir, Number(pw), Number(gid));
  }
  const data = join(dataDir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dataDir, 'log'),
    '-w',
    '-o',
    `-k ${dataDir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  ]);
  started = { dataDir: data, bin, asPostgres };
  return (adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`);
}

/** Stops the cluster this file started (none when the environment named a server). */
export function stopServer(): void {
  if (!started) return;
  const { dataDir, bin, asPostgres } = started;
  const args = ['-D', dataDir, '-m', 'immediate', 'stop'];
  execFileSync(
    asPostgres ? 'runuser' : join(bin, 'pg_ctl'),
    asPostgres ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args] : args,
    {
      stdio: 'pipe',
    },
  );
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
  started = null;
  adminUrl = null;
}

/** A new, empty database on the test server; its URL. */
export async function freshDatabase(): Promise<string> {
  const admin = await testServer();
  const name = `lookback_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `fn` with a connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A column as the agent writes it for PostgreSQL: its type, default and NOT NULL kept. */
function pgColumn(c: { name: string; type: string; dflt: string | null; nn: number }): string {
  const dflt =
    c.dflt !== null && /^(-?[0-9.]+|'[^']*'|NULL)$/i.test(c.dflt) ? ` DEFAULT ${c.dflt}` : '';
  return `${q(c.name)} ${pgType(c.type)}${dflt}${c.nn ? ' NOT NULL' : ''}`;
}

function pgType(sqliteType: string): string {
  const t = sqliteType.toUpperCase();
  if (t.includes('INT')) return 'BIGINT';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'DOUBLE PRECISION';
  if (t.includes('BLOB')) return 'BYTEA';
  return 'TEXT';
}

/** A value as the PostgreSQL agent's importer stores it (STORE.md "Content"). */
export function pgForm(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'string') return v;
  if (v.startsWith('\u0000json:')) return `\u0001json:${v.slice(6)}`;
  if (v.includes('\u0000')) return `\u0001json:${JSON.stringify(v)}`;
  return v;
}

const q = (n: string) => `"${n}"`;

/**
 * Creates `schema` in the database at `url` as the agent would for a profile,
 * with the columns of the fixture at `sqlitePath`, and copies every session
 * and message into it.
 */
export async function loadHermesSchema(
  url: string,
  schema: string,
  sqlitePath: string,
): Promise<void> {
  const Database = sqlite();
  const src = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  try {
    const cols = (t: string) =>
      src
        .prepare(`SELECT name, type, dflt_value AS dflt, "notnull" AS nn FROM pragma_table_info(?)`)
        .all(t) as {
        name: string;
        type: string;
        dflt: string | null;
        nn: number;
      }[];
    const scols = cols('sessions');
    const mcols = cols('messages');
    const version = src.prepare(`SELECT MAX(version) FROM schema_version`).pluck().get() as number;
    await withClient(url, async (c) => {
      const S = `${q(schema)}.sessions`;
      const M = `${q(schema)}.messages`;
      await c.query(`CREATE SCHEMA ${q(schema)}`);
      await c.query(
        `CREATE TABLE ${S} (${scols
          .map((x) => (x.name === 'id' ? `id TEXT PRIMARY KEY` : pgColumn(x)))
          .join(', ')})`,
      );
      await c.query(
        `CREATE TABLE ${M} (${mcols
          .map((x) =>
            x.name === 'id'
              ? `id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`
              : pgColumn(x),
          )
          .join(', ')},
          search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', left(coalesce(content, ''), 8192))) STORED)`,
      );
      await c.query(`CREATE INDEX idx_messages_session_id ON ${M} (session_id, id)`);
      await c.query(`CREATE INDEX idx_messages_search_vector ON ${M} USING gin (search_vector)`);
      await c.query(`CREATE TABLE ${q(schema)}.schema_version (version BIGINT NOT NULL)`);
      await c.query(`INSERT INTO ${q(schema)}.schema_version VALUES ($1)`, [version]);
      await c.query(`CREATE TABLE ${q(schema)}.postgres_schema_version (version BIGINT NOT NULL)`);
      await c.query(`INSERT INTO ${q(schema)}.postgres_schema_version VALUES (3)`);
      await c.query(
        `CREATE TABLE ${q(schema)}.state_change_revision (id INTEGER PRIMARY KEY, revision BIGINT NOT NULL)`,
      );
      await c.query(`INSERT INTO ${q(schema)}.state_change_revision VALUES (1, 0)`);
      await c.query(`CREATE FUNCTION ${q(schema)}.bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE ${q(schema)}.state_change_revision SET revision = revision + 1 WHERE id = 1; RETURN NULL; END $$`);
      for (const t of ['sessions', 'messages'])
        await c.query(
          `CREATE TRIGGER ${t}_revision AFTER INSERT OR UPDATE OR DELETE ON ${q(schema)}.${t}
           FOR EACH STATEMENT EXECUTE FUNCTION ${q(schema)}.bump_revision()`,
        );
      const copy = async (table: string, names: string[], rows: Record<string, unknown>[]) => {
        for (let i = 0; i < rows.length; i += 200) {
          const part = rows.slice(i, i + 200);
          const values: unknown[] = [];
          const tuples = part.map((r) => {
            const ph = names.map((n) => {
              values.push(pgForm(r[n]));
              return `$${values.length}`;
            });
            return `(${ph.join(', ')})`;
          });
          await c.query(
            `INSERT INTO ${table} (${names.map(q).join(', ')}) ${table === M ? 'OVERRIDING SYSTEM VALUE' : ''} VALUES ${tuples.join(', ')}`,
            values,
          );
        }
      };
      await copy(
        S,
        scols.map((x) => x.name),
        src.prepare(`SELECT * FROM sessions`).all() as Record<string, unknown>[],
      );
      await copy(
        M,
        mcols.map((x) => x.name),
        src.prepare(`SELECT * FROM messages ORDER BY id`).all() as Record<string, unknown>[],
      );
      await c.query(
        `SELECT setval(pg_get_serial_sequence('${schema}.messages', 'id'), (SELECT max(id) FROM ${M}))`,
      );
    });
  } finally {
    src.close();
  }
}

/** Every row of a schema's sessions and messages, as text: compared before and after lookback ran. */
export async function schemaDigest(url: string, schema: string): Promise<string> {
  return withClient(url, async (c) => {
    const r = await c.query<{ d: string }>(
      `SELECT md5(coalesce((SELECT string_agg(md5(s::text), ',' ORDER BY s.id) FROM ${q(schema)}.sessions s), '') || '|' ||
              coalesce((SELECT string_agg(md5(m::text), ',' ORDER BY m.id) FROM ${q(schema)}.messages m), '')) AS d`,
    );
    return r.rows[0]!.d;
  });
}

/** A profile home that keeps its sessions in PostgreSQL at `url` (config.yaml + .env). */
export function postgresProfileHome(home: string, url: string, extraConfig = ''): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, 'config.yaml'),
    `model:\n  default: x\ndatabase:\n  backend: postgres   # moved\n${extraConfig}`,
  );
  writeFileSync(join(home, '.env'), `# the agent's secrets\nHERMES_DATABASE_URL="${url}"\n`);
}
