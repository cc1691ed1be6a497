/**
 * The `lookback` launcher (dist/lookback, package.json "bin"; scripts/build.mjs):
 * node starts without NODE_EXTRA_CA_CERTS, so Node 20 does not read and parse the
 * bundle before any JavaScript runs; the executable's first line restores it, so a
 * child process gets it exactly as the user set it; and lookback's own TLS
 * connections trust its certificates (src/net/trust.ts). Every run goes through
 * the real launcher, reached by a symlink whose target path has spaces.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { tempDir } from '../helpers/fixtures.js';
import { makeLoopbackCa } from '../helpers/loopbackCa.js';
import { postgresProfileHome } from '../helpers/postgres.js';

const LAUNCHER = resolve(import.meta.dirname, '../../dist/lookback');

/** A folder whose path has spaces, holding a `lookback` symlink to the launcher, as npm links it. */
function linkedBin(): string {
  const dir = join(tempDir('lookback-launcher-'), 'my bin dir');
  mkdirSync(dir, { recursive: true });
  symlinkSync(LAUNCHER, join(dir, 'lookback'));
  return join(dir, 'lookback');
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the launcher without blocking: the HTTPS server below answers from this process. */
function run(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(bin, args, {
      env: {
        HOME: '/nonexistent-home',
        HERMES_HOME: '',
        XDG_CACHE_HOME: '/nonexistent-cache',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The variables other than NODE_EXTRA_CA_CERTS a run needs (PATH for node and ssh). */
const base = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH });

/**
 * A fake `ssh` in `dir/name` that records what a child of lookback sees and exits 255.
 * lookback spawns ssh itself (no shell between): $PPID is the node process lookback runs in
 * (its cmdline is process.title, so the check is its executable), and /proc/PID/environ is
 * the environment node was started with, before any JavaScript.
 */
function fakeSsh(dir: string, name: string): { fake: string; seen: string } {
  const fake = join(dir, name);
  mkdirSync(fake);
  const seen = join(dir, 'seen');
  writeFileSync(
    join(fake, 'ssh'),
    `#!/bin/sh
{
  echo "child=\${NODE_EXTRA_CA_CERTS-<unset>}"
  echo "child-private=\${LOOKBACK_DEFERRED_EXTRA_CA_CERTS-<unset>}"
  tr '\\0' '\\n' </proc/$PPID/environ | grep -c '^NODE_EXTRA_CA_CERTS=' | sed 's/^/node-start=/'
  echo "parent=$(basename "$(readlink /proc/$PPID/exe)")"
} >>"${seen}"
exit 255
`,
  );
  chmodSync(join(fake, 'ssh'), 0o755);
  return { fake, seen };
}

describe('the launcher and NODE_EXTRA_CA_CERTS', () => {
  it('starts node without the variable and gives a child (ssh) the variable as the user set it', async () => {
    const dir = tempDir('lookback-launcher-child-');
    const { fake, seen } = fakeSsh(dir, 'fake path');
    const ca = join(dir, 'my certs', 'extra ca.pem');
    const r = await run(linkedBin(), ['sync', '--host', 'box', '--json'], {
      PATH: `${fake}:${process.env.PATH}`,
      NODE_EXTRA_CA_CERTS: ca,
    });
    expect(r.stderr + r.stdout).toMatch(/box/);
    const lines = readFileSync(seen, 'utf8').trim().split('\n').slice(0, 4);
    expect(lines).toEqual([`child=${ca}`, 'child-private=<unset>', 'node-start=0', 'parent=node']);
  });

  it('is what `npm start` runs (the quick start), so node starts without the variable there too', () => {
    const dir = tempDir('lookback-launcher-npm-');
    const { fake, seen } = fakeSsh(dir, 'fake');
    const ca = join(dir, 'extra ca.pem');
    const r = spawnSync('npm', ['start', '--silent', '--', 'sync', '--host', 'box', '--json'], {
      cwd: resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
      env: {
        PATH: `${fake}:${process.env.PATH}`,
        HOME: '/nonexistent-home',
        HERMES_HOME: '',
        XDG_CACHE_HOME: '/nonexistent-cache',
        NODE_EXTRA_CA_CERTS: ca,
      },
    });
    expect(r.stderr + r.stdout).toMatch(/box/);
    const lines = readFileSync(seen, 'utf8').trim().split('\n').slice(0, 4);
    expect(lines).toEqual([`child=${ca}`, 'child-private=<unset>', 'node-start=0', 'parent=node']);
  });

  it('runs readlink only for a symlink (or a bare name), in the C locale', async () => {
    const dir = tempDir('lookback-launcher-readlink-');
    const fake = join(dir, 'fake');
    mkdirSync(fake);
    const calls = join(dir, 'calls');
    // A readlink that notes each call and its locale, then does the real work.
    const real = spawnSync('sh', ['-c', 'command -v readlink'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      join(fake, 'readlink'),
      `#!/bin/sh\necho "LC_ALL=\${LC_ALL-<unset>} $*" >>"${calls}"\nexec '${real}' "$@"\n`,
    );
    chmodSync(join(fake, 'readlink'), 0o755);
    const env = { PATH: `${fake}:${process.env.PATH}`, self: '/somewhere/else/lookback' };
    const direct = await run(LAUNCHER, ['--version'], env);
    expect(direct.code).toBe(0);
    expect(existsSync(calls)).toBe(false);
    // Through npm's symlink, with a stray `self` in the environment: readlink finds dist/.
    const link = linkedBin();
    const linked = await run(link, ['--version'], env);
    expect(linked.code).toBe(0);
    expect(linked.stdout).toBe(direct.stdout);
    expect(readFileSync(calls, 'utf8')).toBe(`LC_ALL=C -f ${link}\n`);
  });

  it('is unset in the child when the user did not set it', async () => {
    const dir = tempDir('lookback-launcher-unset-');
    const seen = join(dir, 'seen');
    writeFileSync(
      join(dir, 'ssh'),
      `#!/bin/sh\necho "child=\${NODE_EXTRA_CA_CERTS-<unset>}" >>"${seen}"\nexit 255\n`,
    );
    chmodSync(join(dir, 'ssh'), 0o755);
    await run(linkedBin(), ['sync', '--host', 'box', '--json'], {
      PATH: `${dir}:${process.env.PATH}`,
    });
    expect(readFileSync(seen, 'utf8').trim().split('\n')[0]).toBe('child=<unset>');
  });
});

describe('the HTTPS embedder trusts what Node would with NODE_EXTRA_CA_CERTS', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let requests = 0;
  let db: string;

  beforeAll(async () => {
    dir = tempDir('lookback-launcher-tls-');
    // A CA made here, and a loopback server certificate it signs.
    makeLoopbackCa(dir, 'lookback test CA');
    server = createServer(
      { key: readFileSync(join(dir, 'srv.key')), cert: readFileSync(join(dir, 'srv.pem')) },
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          requests++;
          const { input } = JSON.parse(body) as { input: string[] };
          // A vector per text: its counts of "quokka" and "wombat", so the pets message ranks first.
          const data = input.map((t, index) => ({
            index,
            embedding: [
              (t.match(/quokka/gi) ?? []).length + 0.01,
              (t.match(/wombat/gi) ?? []).length + 0.01,
              0.01,
            ],
          }));
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ data }));
        });
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    db = join(dir, 'state.db');
    generateStore(db, { layout: 30, sessions: 3, seed: 5 });
    const w = new Database(db);
    const pets = insertSession(w, { source: 'cli', title: 'pets' });
    insertMessage(w, { session_id: pets, role: 'user', content: 'quokka wombat quokka' });
    w.close();
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
  });

  const search = (env: NodeJS.ProcessEnv, vectors: string): Promise<Ran> =>
    run(
      linkedBin(),
      [
        'search',
        'quokka',
        '--db',
        db,
        '--mode',
        'semantic',
        '--embedder',
        `openai:m@${url}`,
        '--json',
      ],
      { ...base(), LOOKBACK_VECTORS_DB: join(dir, vectors), ...env },
    );

  it('reaches the server when its CA is in NODE_EXTRA_CA_CERTS (beside the system bundle)', async () => {
    const bundle = join(dir, 'bundle with spaces.pem');
    writeFileSync(bundle, readFileSync(join(dir, 'ca.pem')));
    const before = requests;
    const r = await search({ NODE_EXTRA_CA_CERTS: bundle }, 'v1.db');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const a = JSON.parse(r.stdout) as { mode_realized: string; results: { snippet: string }[] };
    expect(a.mode_realized).toBe('semantic');
    expect(a.results[0]!.snippet, r.stdout.slice(0, 3000)).toBe('quokka wombat quokka');
    expect(requests).toBeGreaterThan(before);
  });

  it('is refused, in one line, when the CA is not in NODE_EXTRA_CA_CERTS', async () => {
    const before = requests;
    for (const env of [{}, { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }]) {
      const r = await search(env, `v-${Object.keys(env).length}.db`);
      expect(r.code).not.toBe(0);
      // --json: the one-line error is the answer, on stdout.
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual({
        success: false,
        error: expect.stringMatching(
          /^openai:m \(https:\/\/127\.0\.0\.1:\d+\/v1\/embeddings\): UNABLE_TO_VERIFY_LEAF_SIGNATURE$/,
        ) as unknown,
      });
    }
    expect(requests).toBe(before);
  });
  it('a PostgreSQL profile over TLS (sslmode=verify-full) trusts the CA in NODE_EXTRA_CA_CERTS', async () => {
    // Enough of PostgreSQL's protocol to reach TLS: answer the SSLRequest with 'S', then
    // the handshake with the test CA's certificate; after it the connection is closed.
    const seen: string[] = [];
    const pgServer = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write('S');
        const tls = new TLSSocket(socket, {
          isServer: true,
          key: readFileSync(join(dir, 'srv.key')),
          cert: readFileSync(join(dir, 'srv.pem')),
        });
        tls.on('secure', () => {
          seen.push('handshake');
          tls.destroy();
        });
        tls.on('error', () => undefined);
      });
    });
    await new Promise<void>((r) => pgServer.listen(0, '127.0.0.1', r));
    const port = (pgServer.address() as AddressInfo).port;
    const home = join(dir, `pg home ${port}`);
    postgresProfileHome(home, `postgresql://u@127.0.0.1:${port}/db?sslmode=verify-full`);
    const bundle = join(dir, 'pg bundle.pem');
    writeFileSync(bundle, readFileSync(join(dir, 'ca.pem')));
    try {
      const args = ['recent', '--limit', '1', '--json'];
      const env = { ...base(), HERMES_HOME: home, XDG_CACHE_HOME: join(dir, `pgcache-${port}`) };
      const trusted = await run(linkedBin(), args, { ...env, NODE_EXTRA_CA_CERTS: bundle });
      // The handshake completed; the server then closed, which lookback says in one line.
      expect(seen).toEqual(['handshake']);
      expect(trusted.code).not.toBe(0);
      seen.length = 0;
      const refused = await run(linkedBin(), args, env);
      // The client refused the server's certificate: no handshake completed.
      expect(seen).not.toContain('handshake');
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toMatch(
        /UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify/i,
      );
    } finally {
      await new Promise((r) => pgServer.close(r));
    }
  });
});
