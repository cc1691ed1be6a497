/**
 * A real OpenSSH server on 127.0.0.1 for the `--host` tests: its own host key,
 * config, free port and authorized key, logging in as a dedicated user whose
 * home holds the "remote" histories. Needs root (to create the user and run
 * sshd) and Debian's openssh-server (.ci/run installs it). Never skips: a test
 * that cannot start or reach its sshd fails.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './fixtures.js';

export const SSHD = '/usr/sbin/sshd';

export interface Sshd {
  user: string;
  home: string;
  uid: number;
  port: number;
  /** An ssh_config with the aliases `remote-box` (this sshd) and `refusing-box` (a closed port). */
  config: string;
  dir: string;
  stop: () => Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** Creates the user if needed (useradd -m), and empties its home. */
export function remoteUser(user: string): { home: string; uid: number } {
  if (process.getuid?.() !== 0)
    throw new Error(`the ssh tests need root to create ${user} and run sshd (CI runs as root)`);
  try {
    execFileSync('id', ['-u', user], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['-m', '-s', '/bin/sh', user]);
  }
  // A locked password ("!") makes sshd refuse even key logins without PAM; "*" is no password at all.
  execFileSync('usermod', ['-p', '*', user]);
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const home = execFileSync('sh', ['-c', `getent passwd ${user} | cut -d: -f6`], {
    encoding: 'utf8',
  }).trim();
  mkdirSync(home, { recursive: true });
  for (const e of readdirSync(home)) rmSync(join(home, e), { recursive: true, force: true });
  return { home, uid };
}

export function chownHome(user: string, home: string): void {
  execFileSync('chown', ['-R', `${user}:${user}`, home]);
}

export async function startSshd(user = 'lookback-remote'): Promise<Sshd> {
  if (!existsSync(SSHD))
    throw new Error(`${SSHD} is missing: install openssh-server (.ci/run does)`);
  const { home, uid } = remoteUser(user);
  const dir = tempDir('lookback-sshd-');
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')));
  chmodSync(join(home, '.ssh', 'authorized_keys'), 0o600);
  chownHome(user, home);
  const port = await freePort();
  const closed = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'AuthorizedKeysFile .ssh/authorized_keys',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin no',
      `AllowUsers ${user}`,
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const hostPub = readFileSync(join(dir, 'host_key.pub'), 'utf8')
    .trim()
    .split(' ')
    .slice(0, 2)
    .join(' ');
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostPub}\n`);
  const entry = (alias: string, p: number) =>
    [
      `Host ${alias}`,
      '  HostName 127.0.0.1',
      `  Port ${p}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, 'client_key')}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '',
    ].join('\n');
  const config = join(dir, 'ssh_config');
  writeFileSync(
    config,
    entry('remote-box', port) + entry('second-box', port) + entry('refusing-box', closed),
  );
  chmodSync(config, 0o600);
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`sshd exited: ${log.trim()}`);
    if (await accepts(port)) break;
    if (i === 99) throw new Error(`sshd did not listen on 127.0.0.1:${port}: ${log.trim()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    user,
    home,
    uid,
    port,
    config,
    dir,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

/** Files under the temporary folders owned by `uid`: what a remote run could have left behind. */
export function ownedTemp(uid: number): string[] {
  const out: string[] = [];
  for (const d of ['/tmp', '/var/tmp', '/dev/shm']) {
    let names: string[] = [];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const n of names) {
      try {
        if (statSync(join(d, n)).uid === uid) out.push(join(d, n));
      } catch {
        /* gone meanwhile */
      }
    }
  }
  return out.sort();
}
