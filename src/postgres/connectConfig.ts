/**
 * A profile URL as pg's client options, trusting what Node would with
 * NODE_EXTRA_CA_CERTS (src/net/trust.ts: the `lookback` launcher starts node
 * without it, so Node's default context does not hold those certificates).
 *
 * The URL is parsed by pg's own parser (`pg-connection-string`), and its
 * fields take precedence over lookback's defaults exactly as they do when pg
 * is given `connectionString` (pg merges them the same way). The `ssl`
 * setting is the one pg derives from that URL alone: `sslmode` (require,
 * verify-ca, verify-full, no-verify, disable, and the libpq semantics with
 * `uselibpqcompat=true`), `ssl=true|no-verify`, `sslrootcert` / `sslcert` /
 * `sslkey`, and `PGSSLMODE` when the URL says nothing. To that one thing is
 * added: when the connection uses TLS and names no CA of its own, `ca` is the
 * list Node would have trusted with the variable. A URL that names its CA
 * (`sslrootcert`) keeps it alone, as Node ignores the extra certificates when a
 * connection passes its own `ca`.
 */
import type pg from 'pg';
import { parse } from 'pg-connection-string';
import { extraCaTrust } from '../net/trust.js';

type Ssl = pg.ClientConfig['ssl'];

/** pg's reading of PGSSLMODE when the URL has no TLS setting (pg's ConnectionParameters). */
function sslFromEnvironment(env: NodeJS.ProcessEnv): Ssl {
  switch (env.PGSSLMODE) {
    case 'disable':
      return false;
    case 'prefer':
    case 'require':
    case 'verify-ca':
    case 'verify-full':
      return true;
    case 'no-verify':
      return { rejectUnauthorized: false };
  }
  // pg's own default applies (no TLS).
  return undefined;
}

/**
 * The client options for `url` over lookback's `defaults`: what pg would use
 * with `connectionString: url`, plus the deferred extra CAs where Node would
 * have used them. Throws what pg's parser throws (an unreadable sslrootcert,
 * verify-ca without a CA under libpq semantics).
 */
export function pgConnectConfig(
  url: string,
  defaults: pg.ClientConfig = {},
  env: NodeJS.ProcessEnv = process.env,
): pg.ClientConfig {
  const parsed = parse(url);
  let ssl = (parsed.ssl === undefined ? sslFromEnvironment(env) : parsed.ssl) as Ssl | string;
  // The two strings pg's ConnectionParameters turns into options.
  if (ssl === 'true') ssl = true;
  if (ssl === 'no-verify') ssl = { rejectUnauthorized: false };
  const ca = extraCaTrust(env);
  if (ca && ssl === true) ssl = { ca };
  else if (ca && ssl && typeof ssl === 'object' && ssl.ca === undefined) ssl = { ...ssl, ca };
  const config = { ...defaults, ...(parsed as pg.ClientConfig) };
  if (ssl !== undefined) config.ssl = ssl as Ssl;
  return config;
}
