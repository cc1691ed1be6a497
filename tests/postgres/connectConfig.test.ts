/**
 * A profile URL as pg's client options (src/postgres/connectConfig.ts): for
 * every TLS setting a URL can carry, the `ssl` option is exactly the one pg
 * derives from the URL alone, plus the certificates of NODE_EXTRA_CA_CERTS as
 * `ca` when the connection uses TLS and names no CA of its own; and pg, given
 * these options, uses that `ssl` as it is. The handshakes themselves are
 * tested through the real launcher (tests/cli/launcher.test.ts, and
 * tests/postgres/tls.test.ts against a TLS-enabled PostgreSQL server).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { pgConnectConfig } from '../../src/postgres/connectConfig.js';
import { tempDir } from '../helpers/fixtures.js';

const dir = tempDir('lookback-pgconf-');
// The parser only reads these files; their certificates need not be valid.
const pem = (tag: string) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(tag).toString('base64')}\n-----END CERTIFICATE-----\n`;
const bundle = join(dir, 'extra.pem');
writeFileSync(bundle, pem('extra one') + pem('extra two'));
const rootFile = join(dir, 'root.pem');
writeFileSync(rootFile, pem('its own root'));

const extra = [...rootCertificates, pem('extra one').trim(), pem('extra two').trim()];
const withExtra: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: bundle };
const base = 'postgresql://u@db.example:5432/hermes';

/** What pg itself makes of a URL: the `ssl` its client uses (false when none). */
function pgOwn(url: string): unknown {
  return (new pg.Client(url) as unknown as { ssl: unknown }).ssl;
}

/** The `ssl` pg's client uses when given our options. */
function pgGiven(config: pg.ClientConfig): unknown {
  return (new pg.Client(config) as unknown as { ssl: unknown }).ssl;
}

/** Functions (libpq's checkServerIdentity) compared by kind, not identity. */
function shape(ssl: unknown): unknown {
  if (!ssl || typeof ssl !== 'object') return ssl;
  return Object.fromEntries(
    Object.entries(ssl).map(([k, v]) => [k, typeof v === 'function' ? 'function' : v]),
  );
}

const savedMode = process.env.PGSSLMODE;
afterEach(() => {
  if (savedMode === undefined) delete process.env.PGSSLMODE;
  else process.env.PGSSLMODE = savedMode;
});

describe('pgConnectConfig: pg semantics for the URL, plus the deferred extra CAs', () => {
  const cases: { query: string; ssl: unknown }[] = [
    // pg 8 treats require and verify-ca as verify-full (it warns so): TLS, verified, with the CAs.
    { query: 'sslmode=verify-full', ssl: { ca: extra } },
    { query: 'sslmode=verify-ca', ssl: { ca: extra } },
    { query: 'sslmode=require', ssl: { ca: extra } },
    { query: 'sslmode=prefer', ssl: { ca: extra } },
    { query: 'ssl=true', ssl: { ca: extra } },
    { query: 'ssl=1', ssl: { ca: extra } },
    // Verification off: the CAs are given but change nothing.
    { query: 'sslmode=no-verify', ssl: { rejectUnauthorized: false, ca: extra } },
    { query: 'ssl=no-verify', ssl: { rejectUnauthorized: false, ca: extra } },
    { query: 'uselibpqcompat=true&sslmode=require', ssl: { rejectUnauthorized: false, ca: extra } },
    { query: 'uselibpqcompat=true&sslmode=verify-full', ssl: { ca: extra } },
    // The URL names its own CA: it alone is trusted, as Node ignores the extra ones then.
    { query: `sslmode=verify-full&sslrootcert=${rootFile}`, ssl: { ca: pem('its own root') } },
    {
      query: `uselibpqcompat=true&sslmode=verify-ca&sslrootcert=${rootFile}`,
      ssl: { ca: pem('its own root'), checkServerIdentity: 'function' },
    },
    {
      query: `uselibpqcompat=true&sslmode=require&sslrootcert=${rootFile}`,
      ssl: { ca: pem('its own root'), checkServerIdentity: 'function' },
    },
    // No TLS: nothing added.
    { query: 'sslmode=disable', ssl: false },
    { query: 'ssl=0', ssl: false },
    { query: '', ssl: false },
  ];
  for (const c of cases)
    it(c.query.replace(rootFile, 'ROOT.pem') || 'no TLS setting', () => {
      const url = c.query ? `${base}?${c.query}` : base;
      const ours = pgConnectConfig(url, {}, withExtra);
      expect(shape(pgGiven(ours))).toEqual(c.ssl);
      // Without the variable, exactly pg's own reading of the URL.
      expect(shape(pgGiven(pgConnectConfig(url, {}, {})))).toEqual(shape(pgOwn(url)));
      // With it, pg's own reading plus `ca` where pg had none.
      const own = pgOwn(url);
      const expected =
        own === true
          ? { ca: extra }
          : own && typeof own === 'object' && !('ca' in own)
            ? { ...own, ca: extra }
            : own;
      expect(shape(pgGiven(ours))).toEqual(shape(expected));
    });

  it('PGSSLMODE applies when the URL has no TLS setting, as in pg', () => {
    process.env.PGSSLMODE = 'require';
    expect(pgGiven(pgConnectConfig(base, {}, { ...withExtra, PGSSLMODE: 'require' }))).toEqual({
      ca: extra,
    });
    expect(pgOwn(base)).toBe(true);
    process.env.PGSSLMODE = 'no-verify';
    expect(pgGiven(pgConnectConfig(base, {}, { ...withExtra, PGSSLMODE: 'no-verify' }))).toEqual({
      rejectUnauthorized: false,
      ca: extra,
    });
    // The URL's own setting wins over the variable.
    process.env.PGSSLMODE = 'require';
    expect(
      pgGiven(
        pgConnectConfig(`${base}?sslmode=disable`, {}, { ...withExtra, PGSSLMODE: 'require' }),
      ),
    ).toBe(false);
  });

  it("the URL's fields win over lookback's defaults, as with connectionString", () => {
    const config = pgConnectConfig(
      `${base}?application_name=mine&sslmode=verify-full`,
      { application_name: 'lookback', options: '-c default_transaction_read_only=on' },
      withExtra,
    );
    expect(config).toMatchObject({
      host: 'db.example',
      port: '5432',
      user: 'u',
      database: 'hermes',
      application_name: 'mine',
      options: '-c default_transaction_read_only=on',
    });
    const client = new pg.Client(config) as unknown as {
      host: string;
      port: number;
      user: string;
      database: string;
      connectionParameters: { application_name: string; options: string };
    };
    expect([client.host, client.port, client.user, client.database]).toEqual([
      'db.example',
      5432,
      'u',
      'hermes',
    ]);
    expect(client.connectionParameters.application_name).toBe('mine');
  });

  it("pg's own refusals stay (verify-ca under libpq semantics without a CA)", () => {
    expect(() =>
      pgConnectConfig(`${base}?uselibpqcompat=true&sslmode=verify-ca`, {}, withExtra),
    ).toThrow(/verify-ca requires specifying a CA/);
  });
});
