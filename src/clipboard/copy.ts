import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { sanitize } from '../text/sanitize.js';
import { chooseMethods, insideTmux, type Method, type NativeMethod } from './choose.js';
import { osc52Sequence } from './osc52.js';
import { COPY_TIMEOUT_MS } from '../budgets.js';

/**
 * Copy text through the first clipboard route that works. Programs are run
 * directly with an argument vector (never a shell: the text and nothing else
 * goes to their stdin), each with a deadline so a hung tool cannot hang us.
 */

/** The part of a child process copyText uses; node's ChildProcess fits, so does a test fake. */
export interface ChildLike {
  stdin: {
    end(chunk: Uint8Array): unknown;
    on(event: 'error', listener: (err: Error) => void): unknown;
  } | null;
  once(
    event: 'exit',
    listener: (code: number | null, signal: NodeJS.Signals | null) => void,
  ): unknown;
  once(event: 'error', listener: (err: Error) => void): unknown;
  kill(signal?: NodeJS.Signals): boolean;
}

export interface SpawnOptionsLike {
  stdio: ['pipe', 'ignore', 'ignore'];
  shell: false;
  windowsHide: true;
}

export type SpawnLike = (command: string, args: string[], options: SpawnOptionsLike) => ChildLike;

export interface CopyDeps {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  has: (cmd: string) => boolean;
  spawn: SpawnLike;
  /** Writes raw bytes to the terminal (not through Ink). */
  writeToTerminal: (sequence: string) => unknown;
  timeoutMs?: number;
}

/**
 * What a copy did. `confirmed` is true only when a program said it took the
 * text (a clipboard tool or tmux exited 0); an OSC 52 sequence is written to
 * the terminal, which answers nothing, so it is never confirmed. `status` is
 * the line for the status bar and says where the text went, e.g. "copied to
 * the clipboard by pbcopy" or "sent to the terminal by OSC 52; not confirmed".
 */
export type CopyResult =
  | {
      ok: true;
      method: Method;
      methods: Method[];
      /** Short route names joined by " + " ("tmux buffer + pbcopy", "OSC 52 (not confirmed)"). */
      detail: string;
      confirmed: boolean;
      status: string;
    }
  | { ok: false; error: string };

/** Argument vectors per tool, tried in order (tmux before 3.2 has no `-w`). */
const COMMANDS: Record<NativeMethod, readonly (readonly string[])[]> = {
  tmux: [
    ['tmux', 'load-buffer', '-w', '-'],
    ['tmux', 'load-buffer', '-'],
  ],
  pbcopy: [['pbcopy']],
  'wl-copy': [['wl-copy']],
  xclip: [['xclip', '-selection', 'clipboard', '-in']],
  xsel: [['xsel', '--clipboard', '--input']],
  clip: [['clip']],
};

const DETAIL: Record<NativeMethod, string> = {
  tmux: 'tmux buffer',
  pbcopy: 'pbcopy',
  'wl-copy': 'wl-copy',
  xclip: 'xclip',
  xsel: 'xsel',
  clip: 'clip',
};

/** What goes to the tool's stdin. */
function encode(method: NativeMethod, text: string): Uint8Array {
  if (method === 'clip') {
    // clip.exe reads stdin in the console code page unless it sees a UTF-16LE BOM.
    const body = Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf16le');
    return Buffer.concat([Buffer.from([0xff, 0xfe]), body]);
  }
  return Buffer.from(text, 'utf8');
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Run one command with `input` on stdin; resolves null on exit code 0, else why it failed. */
export function runWithInput(
  argv: readonly string[],
  input: Uint8Array,
  start: SpawnLike,
  timeoutMs: number = COPY_TIMEOUT_MS,
): Promise<string | null> {
  return new Promise((resolve) => {
    const [command, ...args] = argv;
    if (command === undefined) {
      resolve('empty command');
      return;
    }
    let child: ChildLike;
    try {
      child = start(command, args, {
        stdio: ['pipe', 'ignore', 'ignore'],
        shell: false,
        windowsHide: true,
      });
    } catch (err) {
      resolve(reason(err));
      return;
    }
    let settled = false;
    const finish = (outcome: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      finish(`timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    timer.unref?.();
    child.once('error', (err) => finish(reason(err)));
    child.once('exit', (code, signal) =>
      finish(code === 0 ? null : signal !== null ? `killed by ${signal}` : `exit code ${code}`),
    );
    if (child.stdin === null) {
      finish('no stdin');
      return;
    }
    // EPIPE when a tool exits before reading; its exit status tells the story.
    child.stdin.on('error', () => undefined);
    try {
      child.stdin.end(input);
    } catch (err) {
      finish(reason(err));
    }
  });
}

async function copyNative(
  method: NativeMethod,
  text: string,
  deps: CopyDeps,
): Promise<{ failure: string } | { argv: readonly string[] }> {
  let failure = 'not attempted';
  for (const argv of COMMANDS[method]) {
    const outcome = await runWithInput(argv, encode(method, text), deps.spawn, deps.timeoutMs);
    if (outcome === null) return { argv };
    failure = outcome;
  }
  return { failure };
}

function insideScreen(env: NodeJS.ProcessEnv): boolean {
  return (env.STY ?? '') !== '' && (env.TERM ?? '').startsWith('screen');
}

async function copyOsc52(
  text: string,
  deps: CopyDeps,
): Promise<{ detail: string } | { failure: string }> {
  const tmux = insideTmux(deps.env);
  const screen = !tmux && insideScreen(deps.env);
  const result = osc52Sequence(text, { tmux, screen });
  if (!result.ok) return { failure: result.reason };
  try {
    await deps.writeToTerminal(result.sequence);
  } catch (err) {
    return { failure: reason(err) };
  }
  return {
    detail: tmux ? 'OSC 52 via tmux passthrough (not confirmed)' : 'OSC 52 (not confirmed)',
  };
}

/** Where the text went, in words, for the status line. */
function describeRoutes(done: readonly Method[], tmuxForwards: boolean): string {
  const parts: string[] = [];
  for (const method of done) {
    if (method === 'tmux')
      parts.push(
        tmuxForwards
          ? 'copied to the tmux buffer (tmux passes it on to the terminal, not confirmed)'
          : 'copied to the tmux buffer (this tmux cannot pass it on to the terminal)',
      );
    else if (method === 'osc52') parts.push('sent to the terminal by OSC 52; not confirmed');
    else parts.push(`copied to the clipboard by ${method}`);
  }
  return parts.join('; ');
}

/**
 * Put `text` (sanitized: no escape sequences or control characters but
 * newlines and tabs) on the clipboard. Methods come from chooseMethods and
 * are tried in order until one works; a tmux buffer is additive, so after it
 * a native tool is still tried, because tmux may not reach the system
 * clipboard. OSC 52 success cannot be confirmed by the terminal: once
 * written it counts as sent, and the result says it is not confirmed.
 */
export async function copyText(text: string, deps: CopyDeps): Promise<CopyResult> {
  const clean = sanitize(text);
  const done: Method[] = [];
  const details: string[] = [];
  const failures: string[] = [];
  let tmuxForwards = false;
  for (const method of chooseMethods(deps.env, deps.platform, deps.has)) {
    if (method === 'osc52') {
      // `tmux load-buffer -w` has already forwarded the text to the terminal.
      if (done.length > 0) break;
      const outcome = await copyOsc52(clean, deps);
      if ('failure' in outcome) {
        failures.push(`OSC 52: ${outcome.failure}`);
        continue;
      }
      done.push(method);
      details.push(outcome.detail);
      break;
    }
    const outcome = await copyNative(method, clean, deps);
    if ('failure' in outcome) {
      failures.push(`${method}: ${outcome.failure}`);
      continue;
    }
    if (method === 'tmux') tmuxForwards = outcome.argv.includes('-w');
    done.push(method);
    details.push(DETAIL[method]);
    if (method !== 'tmux') break;
  }
  const [first] = done;
  if (first === undefined) return { ok: false, error: `clipboard: ${failures.join('; ')}` };
  return {
    ok: true,
    method: first,
    methods: done,
    detail: details.join(' + '),
    confirmed: done.some((m) => m !== 'osc52'),
    status: describeRoutes(done, tmuxForwards),
  };
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const COMMAND_NAME = /^[A-Za-z0-9._+-]+$/;

/**
 * A `has(cmd)` that looks for an executable file named `cmd` in the PATH
 * entries (with PATHEXT on Windows), without a shell. Answers are cached per
 * name for the life of the returned function.
 */
export function createHas(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  isExecutable: (file: string) => boolean = (file) => isExecutableFile(file, platform),
): (cmd: string) => boolean {
  const cache = new Map<string, boolean>();
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return (cmd: string): boolean => {
    const known = cache.get(cmd);
    if (known !== undefined) return known;
    let found = false;
    if (COMMAND_NAME.test(cmd)) {
      const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':');
      const exts =
        platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
      found = dirs.some(
        (dir) => dir !== '' && exts.some((ext) => isExecutable(join(dir, cmd + ext))),
      );
    }
    cache.set(cmd, found);
    return found;
  };
}

let processHas: ((cmd: string) => boolean) | undefined;

/** `createHas()` for this process, made on first use. */
export function defaultHas(cmd: string): boolean {
  processHas ??= createHas();
  return processHas(cmd);
}

/** node's spawn behind the SpawnLike signature. */
export const nodeSpawn: SpawnLike = (command, args, options) => spawn(command, args, options);

/** Real dependencies for this process; only the terminal writer is the caller's. */
export function defaultCopyDeps(writeToTerminal: (sequence: string) => unknown): CopyDeps {
  return {
    env: process.env,
    platform: process.platform,
    has: defaultHas,
    spawn: nodeSpawn,
    writeToTerminal,
  };
}
