/**
 * The shell side of issue 9: mouse modes on and off, SGR parsing, Ctrl-Z's
 * order of restore / stop / re-enter, the terminal handed over to the agent
 * in the right order with its exit code, and what --print prints.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMouse } from '../../src/app/input/mouse.js';
import { printMode, UsageError } from '../../src/cli/commands.js';
import { cwdRefusal, handOver, inheritSpawn, type ChildLike } from '../../src/tui/handover.js';
import {
  ENTER_SEQUENCE,
  RESTORE_SEQUENCE,
  stopSelf,
  suspend,
  terminalModes,
} from '../../src/tui/terminal.js';

describe('mouse reporting', () => {
  it('is turned on with the app and off on restore', () => {
    expect(ENTER_SEQUENCE).toContain('\x1b[?1000h');
    expect(ENTER_SEQUENCE).toContain('\x1b[?1006h');
    expect(RESTORE_SEQUENCE).toContain('\x1b[?1000l');
    expect(RESTORE_SEQUENCE).toContain('\x1b[?1006l');
  });

  it('parses SGR reports as ink hands them over (with or without ESC), and nothing else', () => {
    expect(parseMouse('[<64;10;5M')).toEqual([{ kind: 'wheel', dir: -1, x: 10, y: 5 }]);
    expect(parseMouse('\x1b[<65;3;4M')).toEqual([{ kind: 'wheel', dir: 1, x: 3, y: 4 }]);
    expect(parseMouse('[<0;7;9M[<0;7;9m')).toEqual([
      { kind: 'press', button: 'left', x: 7, y: 9 },
      { kind: 'other' },
    ]);
    // Motion with a button held is not a click.
    expect(parseMouse('[<32;7;9M')).toEqual([{ kind: 'other' }]);
    expect(parseMouse('[<')).toBeNull();
    expect(parseMouse('j')).toBeNull();
    expect(parseMouse('[<0;7;9M and text')).toBeNull();
  });
});

describe('Ctrl-Z', () => {
  it('restores the terminal before stopping and re-enters it, then redraws, on SIGCONT', () => {
    const steps: string[] = [];
    const writes: string[] = [];
    const modes = terminalModes(1, (_fd, s) => writes.push(s));
    modes.enter();
    let cont: (() => void) | null = null;
    suspend({
      modes,
      setRawMode: (on) => steps.push(`raw ${on}`),
      stop: (onContinue) => {
        steps.push(`stop (modes active: ${modes.active})`);
        cont = onContinue;
      },
      redraw: () => steps.push('redraw'),
    });
    expect(writes).toEqual([ENTER_SEQUENCE, RESTORE_SEQUENCE]);
    expect(steps).toEqual(['raw false', 'stop (modes active: false)']);
    cont!();
    expect(steps).toEqual(['raw false', 'stop (modes active: false)', 'raw true', 'redraw']);
    expect(writes).toEqual([ENTER_SEQUENCE, RESTORE_SEQUENCE, ENTER_SEQUENCE]);
    expect(modes.active).toBe(true);
  });

  it('stops the process with SIGTSTP and waits for SIGCONT once', () => {
    const proc = Object.assign(new EventEmitter(), {
      pid: 4242,
      kills: [] as [number, string][],
      kill(pid: number, sig: string) {
        this.kills.push([pid, sig]);
        return true;
      },
    });
    let continued = 0;
    stopSelf(proc as unknown as NodeJS.Process)(() => continued++);
    expect(proc.kills).toEqual([[4242, 'SIGTSTP']]);
    proc.emit('SIGCONT');
    proc.emit('SIGCONT');
    expect(continued).toBe(1);
  });
});

class FakeChild extends EventEmitter implements ChildLike {}

describe('resume hands the terminal over', () => {
  it('leaves the app before spawning, ignores interrupts while the agent runs, exits with its code', async () => {
    const steps: string[] = [];
    const child = new FakeChild();
    const done = handOver(['hermes', '-p', 'default', '--resume', 'S1'], {
      leave: () => steps.push('leave'),
      ignoreSignals: () => {
        steps.push('ignore signals');
        return () => steps.push('signals back');
      },
      spawn: (cmd, args) => {
        steps.push(`spawn ${cmd} ${args.join(' ')}`);
        return child;
      },
      error: (line) => steps.push(line),
    });
    expect(steps).toEqual(['leave', 'ignore signals', 'spawn hermes -p default --resume S1']);
    child.emit('exit', 3, null);
    expect(await done).toBe(3);
    expect(steps.at(-1)).toBe('signals back');
  });

  it('says in one line when the agent cannot be started, and exits 127', async () => {
    const lines: string[] = [];
    const child = new FakeChild();
    const done = handOver(['no-such-agent'], {
      leave: () => undefined,
      ignoreSignals: () => () => undefined,
      spawn: () => child,
      error: (line) => lines.push(line),
    });
    child.emit('error', Object.assign(new Error('spawn no-such-agent ENOENT'), { code: 'ENOENT' }));
    expect(await done).toBe(127);
    expect(lines).toEqual(['lookback: cannot run no-such-agent: not found']);
  });

  it("runs another agent in the conversation's directory, and refuses one that is gone", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'lookback-resume-')));
    const deps = {
      leave: () => undefined,
      ignoreSignals: () => () => undefined,
      spawn: inheritSpawn,
      error: () => undefined,
    };
    // A real child: exits 0 only when it runs in `dir`.
    const check = ['sh', '-c', '[ "$(pwd -P)" = "$1" ]', 'sh', dir];
    expect(await handOver(check, deps, dir)).toBe(0);
    expect(await handOver(check, deps)).toBe(1);
    expect(cwdRefusal(dir)).toBeNull();
    expect(cwdRefusal(undefined)).toBeNull();
    rmSync(dir, { recursive: true });
    expect(cwdRefusal(dir)).toBe(`cannot resume: ${dir} is not a directory any more`);
  });
});

describe('--print', () => {
  it('takes id, link or anchor; bare means anchor; anything else is a usage error', () => {
    expect(printMode(undefined)).toBeNull();
    expect(printMode('')).toBe('anchor');
    expect(printMode('id')).toBe('id');
    expect(printMode('LINK')).toBe('link');
    expect(() => printMode('everything')).toThrow(UsageError);
  });
});
