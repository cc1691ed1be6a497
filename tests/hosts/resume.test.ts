/**
 * R on a remote conversation: the agent's resume command runs on its machine
 * over `ssh -t HOST 'cd DIR && exec …'`. The command built is checked word by
 * word, and then run for real, through a pseudo-terminal (`script`), against
 * the test sshd: the remote shell changes into a folder whose name is hostile
 * to a shell, runs the command there, and has a terminal (what `-t` is for).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeCommand } from '../../src/app/resume.js';
import { remoteResumeArgv } from '../../src/hosts/resume.js';
import { chownHome, startSshd, type Sshd } from '../helpers/sshd.js';

let sshd: Sshd;
const HOSTILE = `it's a "dir" $(touch pwned) \`x\``;

beforeAll(async () => {
  sshd = await startSshd('lookback-remote-r'); // a user of its own: test files run in parallel and each empties its user's home
  mkdirSync(join(sshd.home, HOSTILE), { recursive: true });
  chownHome(sshd.user, sshd.home);
}, 30_000);

afterAll(async () => {
  await sshd?.stop();
});

/** Runs argv with a terminal of its own (as R hands lookback's terminal over). */
function onTerminal(argv: string[]): { code: number | null; out: string } {
  const line = argv.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', line, '/dev/null'], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, out: r.stdout.replace(/\r/g, '') };
}

describe('resume over ssh -t', () => {
  it('builds ssh -t HOST with the command quoted for the remote shell', () => {
    const env = { LOOKBACK_SSH_CONFIG: '/cfg' };
    const claude = resumeCommand(
      { sessionId: 'abc-123', profile: 'default', agent: 'claude', cwd: HOSTILE, host: 'box' },
      { env },
    );
    expect(claude.ok && claude.argv).toEqual([
      'ssh',
      '-F',
      '/cfg',
      '-t',
      '--',
      'box',
      `cd 'it'\\''s a "dir" $(touch pwned) \`x\`' && exec claude --resume abc-123`,
    ]);
    // The folder is the remote's: nothing is checked or changed into here.
    expect(claude.ok && claude.cwd).toBeUndefined();
    // Codex finds its session by id: a folder gone there is no reason to stop.
    const codex = resumeCommand(
      { sessionId: 'c1', profile: 'default', agent: 'codex', cwd: '/srv/x', host: 'box' },
      { env: {} },
    );
    expect(codex.ok && codex.argv.at(-1)).toBe('cd /srv/x 2>/dev/null; exec codex resume c1');
    const hermes = resumeCommand({ sessionId: 'h1', profile: 'work', host: 'ana@box' });
    expect(hermes.ok && hermes.argv).toEqual([
      'ssh',
      '-t',
      '--',
      'ana@box',
      'exec hermes -p work --resume h1',
    ]);
    // A destination that would read as an option, or carries shell syntax, is refused.
    for (const bad of ['-oProxyCommand=x', 'box;rm', 'a b']) {
      const plan = resumeCommand({ sessionId: 'h1', profile: 'work', host: bad });
      expect(plan.ok).toBe(false);
    }
  });

  it('runs the command on the host, in its folder there, with a terminal', () => {
    const r = remoteResumeArgv(
      'remote-box',
      ['sh', '-c', 'echo "in=$(pwd)"; if [ -t 0 ]; then echo tty=yes; else echo tty=no; fi', 'x'],
      join(sshd.home, HOSTILE),
      false,
      { LOOKBACK_SSH_CONFIG: sshd.config },
    );
    expect(r.argv.slice(0, 4)).toEqual(['ssh', '-F', sshd.config, '-t']);
    const ran = onTerminal(r.argv);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.out).toContain(`in=${join(sshd.home, HOSTILE)}`);
    expect(ran.out).toContain('tty=yes');
    // Nothing in the folder name ran.
    expect(readdirSync(sshd.home)).not.toContain('pwned');
    expect(readdirSync(join(sshd.home, HOSTILE))).toEqual([]);
  }, 30_000);

  it('a resume plan of a Hermes conversation on a host runs there (the template from LOOKBACK_RESUME)', () => {
    const plan = resumeCommand(
      { sessionId: "s'1", profile: 'work', host: 'remote-box' },
      {
        env: {
          LOOKBACK_SSH_CONFIG: sshd.config,
          LOOKBACK_RESUME: `sh -c 'echo "resumed [$0] of [$1] as $(id -un)"' {id} {profile}`,
        },
      },
    );
    expect(plan.ok).toBe(true);
    const ran = onTerminal(plan.ok ? plan.argv : []);
    expect(ran.code, ran.out).toBe(0);
    expect(ran.out).toContain(`resumed [s'1] of [work] as ${sshd.user}`);
  }, 30_000);

  it('a folder gone on the host stops the agent in one line, with its exit code', () => {
    const r = remoteResumeArgv('remote-box', ['true'], '/no/such/folder', false, {
      LOOKBACK_SSH_CONFIG: sshd.config,
    });
    const ran = onTerminal(r.argv);
    expect(ran.code).not.toBe(0);
    expect(ran.out).toMatch(/no\/such\/folder/);
  }, 30_000);
});
