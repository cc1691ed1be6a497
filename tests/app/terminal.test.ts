import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  ENTER_SEQUENCE,
  RESTORE_SEQUENCE,
  errorLine,
  exitCodeFor,
  onAbnormalExit,
  terminalModes,
  type ExitReason,
} from '../../src/tui/terminal.js';

describe('terminal modes', () => {
  it('enters the alternate screen and restores everything in one write, once', () => {
    const writes: [number, string][] = [];
    const modes = terminalModes(1, (fd, s) => writes.push([fd, s]));
    modes.restore();
    expect(writes).toEqual([]);
    modes.enter();
    modes.restore();
    modes.restore();
    expect(writes).toEqual([
      [1, ENTER_SEQUENCE],
      [1, RESTORE_SEQUENCE],
    ]);
    expect(ENTER_SEQUENCE).toContain('\x1b[?1049h');
    expect(RESTORE_SEQUENCE).toContain('\x1b[?1049l');
    expect(RESTORE_SEQUENCE).toContain('\x1b[?25h');
  });

  it('survives a terminal that is gone', () => {
    const modes = terminalModes(1, (_fd, s) => {
      if (s === RESTORE_SEQUENCE) throw new Error('EIO');
    });
    modes.enter();
    expect(() => modes.restore()).not.toThrow();
  });

  it('maps every way out to an exit code and one line', () => {
    expect(exitCodeFor({ kind: 'signal', signal: 'SIGTERM' })).toBe(143);
    expect(exitCodeFor({ kind: 'signal', signal: 'SIGHUP' })).toBe(129);
    expect(exitCodeFor({ kind: 'error', error: new Error('x') })).toBe(1);
    expect(errorLine(new Error('bad\n  thing'))).toBe('lookback: bad thing');
  });

  it('hears signals, exceptions and rejections, and uninstalls', () => {
    const emitter = new EventEmitter();
    const proc = emitter as unknown as NodeJS.Process;
    const got: ExitReason['kind'][] = [];
    const off = onAbnormalExit((r) => got.push(r.kind), proc);
    emitter.emit('SIGTERM');
    emitter.emit('uncaughtException', new Error('boom'));
    emitter.emit('unhandledRejection', new Error('nope'));
    off();
    emitter.emit('SIGHUP');
    expect(got).toEqual(['signal', 'error', 'error']);
  });
});
