/**
 * A private tmux server running one shell, for real-terminal tests: `send-keys`
 * to type, `capture-pane -p` to read, polling with generous timeouts (a loaded
 * 2-core machine may take seconds to draw), never fixed sleeps.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** How long any one expected screen may take to appear. */
export const POLL_TIMEOUT_MS = 10_000;
const POLL_EVERY_MS = 50;
export const PROMPT = 'lbtest$';
export const MARKER = 'READY-MARKER';

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const TMUX = hasTmux();

/** The real-terminal tests fail, never skip, without tmux (.ci/run installs it). */
export function requireTmux(): void {
  if (!TMUX)
    throw new Error(
      'tmux is not on PATH: the real-terminal tests cannot run (.ci/run installs it)',
    );
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One private tmux server running one shell in a 160x48 window. */
export class Term {
  private readonly socket: string;
  private readonly target: string;

  constructor(
    name: string,
    private readonly env: NodeJS.ProcessEnv,
    cwd: string,
  ) {
    this.socket = `lookback-e2e-${process.pid}-${name}`;
    this.target = `${name}:0.0`;
    this.tmux(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      '160',
      '-y',
      '48',
      '-c',
      cwd,
      // Separate arguments: tmux runs bash directly (through sh, dash would reset PS1).
      'bash',
      '--norc',
      '--noprofile',
    );
  }

  tmux(...args: string[]): string {
    // -u: UTF-8 whatever the locale; -f /dev/null: no user config.
    return execFileSync('tmux', ['-u', '-f', '/dev/null', '-L', this.socket, ...args], {
      encoding: 'utf8',
      env: this.env,
      timeout: 10_000,
    });
  }

  capture(): string {
    return this.tmux('capture-pane', '-p', '-t', this.target);
  }

  lines(): string[] {
    return this.capture().split('\n');
  }

  /** Literal text, typed into whatever runs in the pane. */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.target, '-l', text);
  }

  /** A named key (Enter, C-c, …). */
  key(name: string): void {
    this.tmux('send-keys', '-t', this.target, name);
  }

  run(command: string): void {
    this.type(command);
    this.key('Enter');
  }

  resize(cols: number, rows: number): void {
    this.tmux('resize-window', '-t', this.target, '-x', String(cols), '-y', String(rows));
  }

  /** The process the shell started for the current command (the app), if one runs. */
  childPid(): number | null {
    const shell = this.tmux('list-panes', '-t', this.target, '-F', '#{pane_pid}').trim();
    let out: string;
    try {
      // Linux lists a task's children in /proc; elsewhere (or without it) ask pgrep.
      out = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8');
    } catch {
      try {
        out = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' });
      } catch {
        return null; // pgrep exits 1 when nothing matches
      }
    }
    const pid = Number(out.trim().split(/\s+/)[0]);
    return Number.isFinite(pid) && pid > 0 ? pid : null;
  }

  /** Polls the pane until `check` holds; fails with the last screen. */
  async waitFor(what: string, check: (screen: string) => boolean): Promise<string> {
    const end = Date.now() + POLL_TIMEOUT_MS;
    let screen = '';
    for (;;) {
      screen = this.capture();
      if (check(screen)) return screen;
      if (Date.now() > end)
        throw new Error(
          `timed out after ${POLL_TIMEOUT_MS} ms waiting for ${what}; screen:\n${screen}`,
        );
      await sleep(POLL_EVERY_MS);
    }
  }

  /** Stops this test's tmux server and removes its socket file (kill-server leaves it behind). */
  kill(): void {
    let socketPath = '';
    try {
      socketPath = this.tmux('display-message', '-p', '#{socket_path}').trim();
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
    if (socketPath !== '') rmSync(socketPath, { force: true });
  }
}

/**
 * The shell's environment for a real-terminal test: the test's temp dir as HOME (and
 * its cache), no Hermes home, a UTF-8 locale, a known prompt, the bundle as $LB, and
 * the Hermes store alone (the app shows every agent's history by default).
 */
export function shellEnv(home: string, bin: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CACHE_HOME: join(home, 'cache'),
    LOOKBACK_AGENTS: 'hermes',
    HERMES_HOME: '',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm-256color',
    PS1: `${PROMPT} `,
    HISTFILE: '/dev/null',
    LB: bin,
  };
}
