/**
 * Terminal modes: the app enters the alternate screen and hides the cursor
 * itself (ink 6 has no alternate screen), and puts everything back with ONE
 * synchronous write on every way out: quit, Ctrl-C, SIGTERM, SIGHUP, an
 * uncaught exception or an unhandled rejection. Writing synchronously matters:
 * an async write can be lost when the process exits right after.
 */
import { writeSync } from 'node:fs';

/**
 * Alternate screen, cursor hidden, mouse reporting on: button presses and the
 * wheel (1000) in SGR form (1006), which has no column limit and cannot be
 * mistaken for typed text. Inside tmux with `mouse on`, tmux passes the wheel
 * on to an app that asked for mouse reports, instead of scrolling its own
 * copy mode.
 */
export const ENTER_SEQUENCE = '\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h\x1b[H';
/**
 * Attributes reset, bracketed paste and mouse reporting off (in case anything
 * turned them on), cursor shown, main screen back.
 */
export const RESTORE_SEQUENCE = '\x1b[0m\x1b[?2004l\x1b[?1000l\x1b[?1006l\x1b[?25h\x1b[?1049l';

export interface TerminalModes {
  enter(): void;
  /** Idempotent: restores once, however many exit paths run. */
  restore(): void;
  readonly active: boolean;
}

export function terminalModes(
  fd: number,
  write: (fd: number, s: string) => void = writeSync,
): TerminalModes {
  let active = false;
  return {
    enter() {
      if (active) return;
      active = true;
      write(fd, ENTER_SEQUENCE);
    },
    restore() {
      if (!active) return;
      active = false;
      try {
        write(fd, RESTORE_SEQUENCE);
      } catch {
        // The terminal is gone (SIGHUP): nothing left to restore.
      }
    },
    get active() {
      return active;
    },
  };
}

export type ExitReason =
  { kind: 'signal'; signal: 'SIGTERM' | 'SIGHUP' | 'SIGINT' } | { kind: 'error'; error: unknown };

/** Exit code for a way out (128 + signal number for signals, as shells expect). */
export function exitCodeFor(reason: ExitReason): number {
  if (reason.kind === 'error') return 1;
  return reason.signal === 'SIGHUP' ? 129 : reason.signal === 'SIGINT' ? 130 : 143;
}

/** One line naming an unexpected error (never a stack trace on the user's terminal). */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `lookback: ${message.replace(/\s+/g, ' ').trim() || 'unexpected error'}`;
}

/** Installs the abnormal exit paths; returns the uninstaller. */
export function onAbnormalExit(
  handler: (reason: ExitReason) => void,
  proc: NodeJS.Process = process,
): () => void {
  const onTerm = (): void => handler({ kind: 'signal', signal: 'SIGTERM' });
  const onHup = (): void => handler({ kind: 'signal', signal: 'SIGHUP' });
  const onInt = (): void => handler({ kind: 'signal', signal: 'SIGINT' });
  const onError = (error: unknown): void => handler({ kind: 'error', error });
  proc.on('SIGTERM', onTerm);
  proc.on('SIGHUP', onHup);
  proc.on('SIGINT', onInt);
  proc.on('uncaughtException', onError);
  proc.on('unhandledRejection', onError);
  return () => {
    proc.off('SIGTERM', onTerm);
    proc.off('SIGHUP', onHup);
    proc.off('SIGINT', onInt);
    proc.off('uncaughtException', onError);
    proc.off('unhandledRejection', onError);
  };
}

/** What suspending needs of the process (injected in tests). */
export interface SuspendDeps {
  modes: TerminalModes;
  /** Raw mode of stdin: off while stopped, so the shell gets a normal terminal. */
  setRawMode(on: boolean): void;
  /** Sends SIGTSTP to this process; `onContinue` runs once on SIGCONT. */
  stop(onContinue: () => void): void;
  /** Draws the whole frame again (the terminal's screen was the shell's meanwhile). */
  redraw(): void;
}

/**
 * Ctrl-Z: in raw mode the terminal sends it as a key, not as SIGTSTP, so the
 * app stops itself: terminal modes restored and raw mode off first (the
 * shell gets its screen back), then SIGTSTP; on SIGCONT raw mode and the
 * modes come back and the frame is drawn whole.
 */
export function suspend(deps: SuspendDeps): void {
  deps.modes.restore();
  deps.setRawMode(false);
  deps.stop(() => {
    deps.setRawMode(true);
    deps.modes.enter();
    deps.redraw();
  });
}

/** The real process: SIGTSTP to ourselves, SIGCONT once. */
export function stopSelf(
  proc: Pick<NodeJS.Process, 'pid' | 'kill' | 'once'> = process,
): (onContinue: () => void) => void {
  return (onContinue) => {
    proc.once('SIGCONT', onContinue);
    proc.kill(proc.pid, 'SIGTSTP');
  };
}
