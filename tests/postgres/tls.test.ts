/**
 * A PostgreSQL profile over TLS against a real server: a cluster of its own
 * (initdb / pg_ctl from the same binaries as the other PostgreSQL tests) with
 * ssl=on, a server certificate from a CA made here with openssl, and a
 * pg_hba.conf that takes TCP connections only over TLS (`hostssl`), so a read
 * that succeeds was encrypted. Every run goes through the real launcher
 * (dist/lookback), which starts node without NODE_EXTRA_CA_CERTS: a
 * `sslmode=verify-full` profile reaches the server only when the CA is in that
 * variable (src/postgres/connectConfig.ts gives pg the deferred certificates),
 * or when the URL names the CA itself (sslrootcert). No server: the test fails.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaCandidates } from '../../src/store/postgresConfig.js';
import { lookback } from '../helpers/cli.js';
import { makeLoopbackCa } from '../helpers/loopbackCa.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import {
  freePort,
  loadHermesSchema,
  pgBin,
  postgresProfileHome,
  schemaDigest,
} from '../helpers/postgres.js';

const LAUNCHER = resolve(import.meta.dirname, '../../dist/lookback');
const FIXTURE = join(FIXTURE_DIR, 'hermes-v26.db');

let dir: string;
let data: string;
let bin: string;
let port: number;
let adminUrl: string;
let schema: string;
let runs = 0;
const asPostgres = userInfo().uid === 0;

/** A server binary, as the postgres user when the tests run as root (initdb refuses root). */
function asServer(cmd: string, args: string[]): void {
  execFileSync(
    asPostgres ? 'runuser' : join(bin, cmd),
    asPostgres ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args,
    { stdio: 'pipe' },
  );
}

function toPostgres(path: string): void {
  if (!asPostgres) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(path, uid, gid);
}

beforeAll(async () => {
  const found = pgBin();
  if (!found)
    throw new Error('no PostgreSQL server binaries for the TLS test (Debian: postgresql)');
  bin = found;
  dir = tempDir('lookback-pg-tls-');
  toPostgres(dir);
  mkdirSync(join(dir, 'certs'));
  // A CA made here, and a server certificate for 127.0.0.1 it signs.
  makeLoopbackCa(join(dir, 'certs'), 'lookback pg test CA');

  data = join(dir, 'data');
  asServer('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  // TCP only over TLS; the test loads its rows over the cluster's own socket.
  writeFileSync(
    join(data, 'pg_hba.conf'),
    'local all all trust\nhostssl all all 127.0.0.1/32 trust\n',
  );
  for (const [from, to] of [
    ['srv.pem', 'server.crt'],
    ['srv.key', 'server.key'],
  ] as const) {
    copyFileSync(join(dir, 'certs', from), join(data, to));
    toPostgres(join(data, to));
    execFileSync('chmod', ['600', join(data, to)]);
  }
  port = await freePort();
  asServer('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c ssl=on`,
    'start',
  ]);
  adminUrl = `postgresql:///postgres?host=${encodeURIComponent(dir)}&port=${port}&user=postgres`;
  const home = join(dir, 'home', '.hermes', 'profiles', 'team');
  mkdirSync(home, { recursive: true });
  schema = schemaCandidates('team', home, {}).candidates[0]!;
  await loadHermesSchema(adminUrl, schema, FIXTURE);
}, 120_000);

afterAll(() => {
  if (data) {
    try {
      asServer('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // Not started: nothing to stop.
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The launcher on the team profile, with `url` as its database and a cache of its own. */
function lookbackTls(url: string, args: string[], extraCa?: string) {
  const home = join(dir, 'home', '.hermes', 'profiles', 'team');
  postgresProfileHome(home, url);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    // A fresh mirror for every run, so each one has to reach the server.
    XDG_CACHE_HOME: join(dir, `cache-${++runs}`),
  };
  if (extraCa) env.NODE_EXTRA_CA_CERTS = extraCa;
  const r = spawnSync(LAUNCHER, [...args, '--profile', 'team', '--json'], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

type Listed = {
  session_id: string;
  title: unknown;
  message_count: unknown;
  last_active: unknown;
  preview: unknown;
};

/** What `recent` lists for the same rows read from the agent's SQLite file (the oracle). */
function fromSqlite(): Listed[] {
  const home = join(dir, 'sqlite home');
  mkdirSync(home, { recursive: true });
  copyFileSync(FIXTURE, join(home, 'state.db'));
  const r = lookback(['recent', '--limit', '500', '--json'], { HERMES_HOME: home });
  expect(r.code).toBe(0);
  return listed(r.stdout);
}

const listed = (stdout: string): Listed[] =>
  (JSON.parse(stdout) as { results: Listed[] }).results.map((x) => ({
    session_id: x.session_id,
    title: x.title,
    message_count: x.message_count,
    last_active: x.last_active,
    preview: x.preview,
  }));

describe('a PostgreSQL profile over TLS, through the launcher', () => {
  const tlsUrl = () => `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=verify-full`;

  it('the server takes TCP connections only over TLS (so a read that works was encrypted)', () => {
    const r = lookbackTls(`postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`, [
      'recent',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/no pg_hba\.conf entry .*no encryption/);
  });

  it("sslmode=verify-full lists what the agent's own file lists when the CA is in NODE_EXTRA_CA_CERTS", async () => {
    const bundle = join(dir, 'certs', 'bundle with the CA.pem');
    copyFileSync(join(dir, 'certs', 'ca.pem'), bundle);
    const before = await schemaDigest(adminUrl, schema);
    const r = lookbackTls(tlsUrl(), ['recent', '--limit', '500'], bundle);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const oracle = fromSqlite();
    expect(oracle.length).toBeGreaterThan(20);
    // The same conversations, titles, counts, times and previews, in the same order, as from the file.
    expect(listed(r.stdout)).toEqual(oracle);
    expect(await schemaDigest(adminUrl, schema)).toBe(before);
  });

  it('without the CA the certificate is refused, in one line', () => {
    const r = lookbackTls(tlsUrl(), ['recent']);
    expect(r.code).not.toBe(0);
    const said = (r.stdout + r.stderr).trim();
    expect(said).toMatch(/self[- ]signed certificate in certificate chain|unable to verify/i);
    expect(said).not.toMatch(/\n\s+at /);
  });

  it("a URL naming its CA (sslrootcert) keeps pg's own semantics: no variable needed", () => {
    const r = lookbackTls(
      `${tlsUrl()}&sslrootcert=${encodeURIComponent(join(dir, 'certs', 'ca.pem'))}`,
      ['recent', '--limit', '500'],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(listed(r.stdout)).toEqual(fromSqlite());
  });
});
