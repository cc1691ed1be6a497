/**
 * The transport: the system `ssh`, so the user's configuration is the address
 * book (aliases, keys, ports, jump hosts, agent forwarding). Never prompts:
 * BatchMode refuses a password or an unknown host key instead of asking.
 * `LOOKBACK_SSH_CONFIG` names an ssh_config file (`ssh -F`), for tests and for
 * people who keep one apart.
 */
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SSH_CONNECT_TIMEOUT_S } from '../budgets.js';

export interface SshResult {
  code: number;
  /** Empty when `onStdout` took the bytes as they came. */
  stdout: Buffer;
  /** Bytes the remote sent on stdout: what a sync moved. */
  bytes: number;
  /** The first line ssh or the remote script said on stderr, for the one-line error. */
  stderr: string;
}

export class HostError extends Error {
  constructor(
    readonly host: string,
    message: string,
  ) {
    super(message);
  }
}

export function sshArgs(host: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const args = [
    '-T',
    '-o',
    'BatchMode=yes',
    '-o',
    `ConnectTimeout=${SSH_CONNECT_TIMEOUT_S}`,
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=2',
  ];
  if (env.LOOKBACK_SSH_CONFIG) args.unshift('-F', env.LOOKBACK_SSH_CONFIG);
  // One connection for the few sessions of a sync: the first becomes a master that
  // the others reuse (saving a handshake each), closed by closeMaster() when the
  // sync ends, or by itself a minute later if lookback died first.
  args.push(
    '-o',
    'ControlMaster=auto',
    '-o',
    `ControlPath=${controlPath()}`,
    '-o',
    'ControlPersist=60',
  );
  return args;
}

/** Short (a socket path has about 100 bytes), private to this user; %C is ssh's hash of the destination. */
function controlPath(): string {
  return join(tmpdir(), `lookback-ssh-${process.getuid?.() ?? 0}-%C`);
}

/** Ends the shared connection of a sync, if one was made. */
export function closeMaster(host: string, env: NodeJS.ProcessEnv = process.env): void {
  const config = env.LOOKBACK_SSH_CONFIG ? ['-F', env.LOOKBACK_SSH_CONFIG] : [];
  spawnSync(
    env.LOOKBACK_SSH_BIN || 'ssh',
    [...config, '-o', `ControlPath=${controlPath()}`, '-O', 'exit', '--', host],
    { stdio: 'ignore', timeout: 5_000 },
  );
}

/** Quotes one word for a POSIX shell (the remote's login shell parses the command). */
export function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `sh -c SCRIPT` on `host` with `input` on its stdin; resolves with all of
 * stdout. The script is one argument of `sh -c`, so any POSIX-like login shell
 * passes it through unchanged.
 */
export function runRemote(
  host: string,
  script: string,
  input: string | Buffer = '',
  env: NodeJS.ProcessEnv = process.env,
  onStdout?: (chunk: Buffer) => void,
  args: string[] = [],
): Promise<SshResult> {
  return new Promise((resolve) => {
    const child = spawn(
      env.LOOKBACK_SSH_BIN || 'ssh',
      [
        ...sshArgs(host, env),
        '--',
        host,
        ['exec sh -c', shq(script), 'lookback', ...args.map(shq)].join(' '),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let err = '';
    let bytes = 0;
    let failed: Error | null = null;
    child.stdout.on('data', (b: Buffer) => {
      bytes += b.length;
      if (!onStdout) out.push(b);
      else if (!failed)
        try {
          onStdout(b);
        } catch (e) {
          // A stream we cannot follow: stop reading it, the caller is told.
          failed = e as Error;
          child.kill();
        }
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 4096) err += b.toString('utf8');
    });
    child.stdin.on('error', () => {
      /* the remote closed early; its exit code says why */
    });
    child.on('error', (e) =>
      resolve({
        code: 255,
        stdout: Buffer.alloc(0),
        bytes: 0,
        stderr: `cannot run ssh: ${e.message}`,
      }),
    );
    child.on('close', (code) =>
      resolve({
        code: failed ? 254 : (code ?? 255),
        stdout: Buffer.concat(out),
        bytes,
        stderr: failed ? failed.message : firstLine(err),
      }),
    );
    child.stdin.end(input);
  });
}

function firstLine(s: string): string {
  const lines = s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^Warning: Permanently added/.test(l));
  return lines[0] ?? '';
}
