/**
 * Handing the terminal over to the agent (R, resume): the app leaves first
 * (ink unmounted, terminal modes restored, raw mode off, the store closed),
 * then the agent runs with lookback's stdin, stdout and stderr, and lookback
 * exits with the agent's exit code. While the agent runs, Ctrl-C and Ctrl-\
 * reach it (same foreground process group); lookback ignores them and waits
 * (not Ctrl-Z: a stopped agent must stop the whole job, lookback included).
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { sanitizeLine } from '../text/sanitize.js';

export interface ChildLike {
  on(event: 'exit', fn: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', fn: (err: Error) => void): unknown;
}

export type Spawner = (command: string, args: string[], cwd?: string) => ChildLike;

export const inheritSpawn: Spawner = (command, args, cwd) =>
  spawn(command, args, { stdio: 'inherit', ...(cwd ? { cwd } : {}) });

/**
 * Why an agent cannot be resumed in `cwd` (the directory is gone), checked before
 * the app leaves so the conversation stays on screen; null when it can.
 */
export function cwdRefusal(cwd: string | undefined): string | null {
  if (cwd === undefined || statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) return null;
  return `cannot resume: ${sanitizeLine(cwd)} is not a directory any more`;
}

/**
 * Where the agent runs: its recorded folder; when that is gone, a refusal, or,
 * for an agent that resumes by id alone (`cwdOptional`), the current folder.
 */
export function resumeFolder(
  cwd: string | undefined,
  cwdOptional = false,
): { cwd: string | undefined } | { refused: string } {
  const refused = cwdRefusal(cwd);
  if (refused === null) return { cwd };
  return cwdOptional ? { cwd: undefined } : { refused };
}

export interface HandOverDeps {
  /** Leaves the app: unmount, restore the terminal, close the store (in that order). */
  leave(): void;
  spawn: Spawner;
  /** Ignore the terminal's interrupt signals while the agent has the terminal; returns the undo. */
  ignoreSignals(): () => void;
  /** One line on stderr (the agent could not be started). */
  error(line: string): void;
}

/** Runs argv in the terminal after leaving the app; resolves with the exit code to leave with. */
export function handOver(
  argv: readonly string[],
  deps: HandOverDeps,
  cwd?: string,
): Promise<number> {
  const [command, ...args] = argv;
  deps.leave();
  if (command === undefined) {
    deps.error('lookback: nothing to run');
    return Promise.resolve(1);
  }
  const restore = deps.ignoreSignals();
  return new Promise<number>((resolve) => {
    let done = false;
    const end = (code: number): void => {
      if (done) return;
      done = true;
      restore();
      resolve(code);
    };
    let child: ChildLike;
    try {
      child = deps.spawn(command, args, cwd);
    } catch (err) {
      deps.error(`lookback: cannot run ${command}: ${(err as Error)?.message ?? String(err)}`);
      return end(127);
    }
    child.on('error', (err) => {
      deps.error(
        `lookback: cannot run ${command}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : err.message}`,
      );
      end(127);
    });
    child.on('exit', (code, signal) => {
      end(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
    });
  });
}

/** The real signal handling while the agent runs. */
export function ignoreTerminalSignals(proc: NodeJS.Process = process): () => void {
  const ignore = (): void => undefined;
  for (const sig of ['SIGINT', 'SIGQUIT'] as const) proc.on(sig, ignore);
  return () => {
    for (const sig of ['SIGINT', 'SIGQUIT'] as const) proc.off(sig, ignore);
  };
}
