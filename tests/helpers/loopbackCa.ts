/**
 * A certificate authority made for one test with the openssl CLI, and a server
 * certificate for 127.0.0.1 it signs: `ca.pem`, `ca.key`, `srv.key`, `srv.pem` in `dir`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function makeLoopbackCa(dir: string, name: string): void {
  const openssl = (args: string[]): void => {
    const r = spawnSync('/usr/bin/openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  };
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem'].concat(
      ['-days', '2', '-subj', `/CN=${name}`],
    ),
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr'].concat([
      '-subj',
      '/CN=127.0.0.1',
    ]),
  );
  writeFileSync(join(dir, 'ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    ['x509', '-req', '-in', 'srv.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key'].concat([
      '-CAcreateserial',
      '-out',
      'srv.pem',
      '-days',
      '2',
      '-extfile',
      'ext',
    ]),
  );
}
