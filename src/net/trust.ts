/**
 * What lookback's own TLS connections trust when NODE_EXTRA_CA_CERTS is set.
 *
 * Node 20 reads and parses that file at every start, before any JavaScript
 * runs (~85 ms for a 144-certificate bundle); Node 23 and later read it at the
 * first TLS connection. The `lookback` launcher (dist/lookback, written by
 * scripts/build.mjs) therefore starts node without the variable, and the
 * executable's first line puts it back into process.env, so every child process
 * (resume commands, ssh) and worker thread gets it as the user set it. Node
 * itself did not load it, so each TLS connection lookback makes passes
 * `ca: [...tls.rootCertificates, ...the file's certificates]`: what Node's
 * default context trusts with the variable (the `ca` option replaces both).
 * When node was started with the variable (`node dist/lookback.cjs`), the same
 * list is what it trusts already. A connection that names its own CA (`pg`'s
 * sslrootcert) keeps it, as Node ignores the extra certificates then too.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

let cached: { file: string; ca: string[] } | null = null;

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The CA list for a TLS connection, or undefined when NODE_EXTRA_CA_CERTS is
 * unset or empty (Node's own default context then applies), or when node was
 * told to trust the system store instead of its bundled roots.
 */
export function extraCaTrust(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return undefined;
  const flags = `${process.execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
  if (/--use-openssl-ca|--use-system-ca/.test(flags)) return undefined;
  if (cached?.file === file) return cached.ca;
  let extra: string[] = [];
  try {
    extra = readFileSync(file, 'utf8').match(PEM) ?? [];
  } catch (err) {
    // Node's own words when it cannot read the file at start; it then trusts its roots alone.
    process.emitWarning(
      `Ignoring extra certs from \`${file}\`, load failed: ${(err as Error).message}`,
    );
  }
  cached = { file, ca: [...rootCertificates, ...extra] };
  return cached.ca;
}
