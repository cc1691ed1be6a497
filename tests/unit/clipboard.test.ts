import { OSC52_MAX_BYTES } from '../../src/budgets.js';
import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseMethods } from '../../src/clipboard/choose.js';
import {
  copyText,
  createHas,
  runWithInput,
  type ChildLike,
  type CopyDeps,
  type SpawnLike,
  type SpawnOptionsLike,
} from '../../src/clipboard/copy.js';
import { osc52Sequence } from '../../src/clipboard/osc52.js';

const ESC = '\x1b';
const all = (): boolean => true;
const none = (): boolean => false;
const only =
  (...cmds: string[]) =>
  (cmd: string): boolean =>
    cmds.includes(cmd);

describe('chooseMethods', () => {
  it('inside tmux: tmux first, then OSC 52 when remote', () => {
    expect(
      chooseMethods({ TMUX: '/tmp/tmux-1/default,1,0', SSH_TTY: '/dev/pts/1' }, 'linux', all),
    ).toEqual(['tmux', 'osc52']);
  });

  it('inside tmux on a desktop: tmux, then the native tool, then OSC 52', () => {
    expect(chooseMethods({ TMUX: 'x', DISPLAY: ':0' }, 'linux', only('tmux', 'xclip'))).toEqual([
      'tmux',
      'xclip',
      'osc52',
    ]);
    expect(chooseMethods({ TMUX: 'x' }, 'darwin', all)).toEqual(['tmux', 'pbcopy', 'osc52']);
  });

  it('tmux is skipped when the binary is missing', () => {
    expect(chooseMethods({ TMUX: 'x' }, 'darwin', only('pbcopy'))).toEqual(['pbcopy', 'osc52']);
  });

  it('over SSH: OSC 52 only, whatever is installed', () => {
    for (const env of [
      { SSH_TTY: '/dev/pts/0' },
      { SSH_CONNECTION: '1 2 3 4' },
      { SSH_CLIENT: '1 2 3' },
    ]) {
      expect(chooseMethods({ ...env, DISPLAY: ':10' }, 'linux', all)).toEqual(['osc52']);
      expect(chooseMethods(env, 'darwin', all)).toEqual(['osc52']);
    }
  });

  it('Linux without a display: OSC 52', () => {
    expect(chooseMethods({}, 'linux', all)).toEqual(['osc52']);
    expect(chooseMethods({ DISPLAY: '' }, 'freebsd', all)).toEqual(['osc52']);
  });

  it('Linux desktop: wl-copy under Wayland, else xclip/xsel, then OSC 52', () => {
    expect(chooseMethods({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', all)).toEqual([
      'wl-copy',
      'osc52',
    ]);
    expect(chooseMethods({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, 'linux', all)).toEqual([
      'wl-copy',
      'xclip',
      'xsel',
      'osc52',
    ]);
    expect(
      chooseMethods({ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, 'linux', only('xsel')),
    ).toEqual(['xsel', 'osc52']);
    expect(chooseMethods({ DISPLAY: ':0' }, 'linux', only('xclip'))).toEqual(['xclip', 'osc52']);
    expect(chooseMethods({ DISPLAY: ':0' }, 'linux', none)).toEqual(['osc52']);
  });

  it('macOS and Windows: their tool, then OSC 52', () => {
    expect(chooseMethods({}, 'darwin', all)).toEqual(['pbcopy', 'osc52']);
    expect(chooseMethods({}, 'darwin', none)).toEqual(['osc52']);
    expect(chooseMethods({}, 'win32', all)).toEqual(['clip', 'osc52']);
  });

  it('always ends with OSC 52 and never repeats a method (property)', () => {
    const envVar = fc.option(fc.constantFrom('', 'x', ':0'), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({ TMUX: envVar, SSH_TTY: envVar, DISPLAY: envVar, WAYLAND_DISPLAY: envVar }),
        fc.constantFrom<NodeJS.Platform>('linux', 'darwin', 'win32', 'freebsd'),
        fc.func(fc.boolean()),
        (env, platform, has) => {
          const methods = chooseMethods(env, platform, (cmd) => has(cmd));
          expect(methods.at(-1)).toBe('osc52');
          expect(new Set(methods).size).toBe(methods.length);
        },
      ),
    );
  });
});

describe('osc52Sequence', () => {
  const decode = (sequence: string): string => {
    const m = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(sequence);
    if (m === null) throw new Error(`not an OSC 52 sequence: ${JSON.stringify(sequence)}`);
    return Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  };

  it('encodes text that base64-decodes back', () => {
    const text = 'session_search(session_id="x", around_message_id=1)\n中文 😀';
    const result = osc52Sequence(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(decode(result.sequence)).toBe(text);
  });

  it('round-trips any text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const result = osc52Sequence(text);
        if (!result.ok) throw new Error(result.reason);
        expect(decode(result.sequence)).toBe(text);
      }),
    );
  });

  it('wraps for tmux passthrough with inner ESCs doubled', () => {
    const result = osc52Sequence('hi', { tmux: true });
    expect(result).toEqual({
      ok: true,
      sequence: `${ESC}Ptmux;${ESC}${ESC}]52;c;aGk=\x07${ESC}\\`,
    });
  });

  it('wraps for GNU screen in chunks', () => {
    const result = osc52Sequence('x'.repeat(3000), { screen: true });
    if (!result.ok) throw new Error(result.reason);
    const chunks = result.sequence.split(`${ESC}\\`).filter((c) => c !== '');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.startsWith(`${ESC}P`) && c.length <= 770)).toBe(true);
    const inner = chunks.map((c) => c.slice(2)).join('');
    expect(decode(inner)).toBe('x'.repeat(3000));
  });

  it('refuses more than 100 KB', () => {
    expect(osc52Sequence('a'.repeat(OSC52_MAX_BYTES)).ok).toBe(true);
    expect(osc52Sequence('a'.repeat(150 * 1024))).toEqual({
      ok: false,
      reason: 'too large: 150 KB (limit 100 KB)',
    });
    // The limit counts UTF-8 bytes, not characters.
    expect(osc52Sequence('中'.repeat(40 * 1024)).ok).toBe(false);
  });
});

type Behaviour = { exit?: number; error?: string; hang?: boolean };

interface Call {
  command: string;
  args: string[];
  options: SpawnOptionsLike;
  stdin: Buffer | null;
}

/** A spawn that records argv, options and stdin, and exits as told per command. */
function fakeSpawn(behaviour: Record<string, Behaviour | Behaviour[]> = {}): {
  spawn: SpawnLike;
  calls: Call[];
} {
  const calls: Call[] = [];
  const attempts = new Map<string, number>();
  const spawn: SpawnLike = (command, args, options) => {
    const call: Call = { command, args, options, stdin: null };
    calls.push(call);
    const n = attempts.get(command) ?? 0;
    attempts.set(command, n + 1);
    const configured = behaviour[command] ?? {};
    const b = Array.isArray(configured) ? (configured[n] ?? configured.at(-1) ?? {}) : configured;
    const child = new EventEmitter() as EventEmitter & ChildLike;
    child.kill = () => {
      setImmediate(() => child.emit('exit', null, 'SIGTERM'));
      return true;
    };
    child.stdin = {
      end(chunk: Uint8Array) {
        call.stdin = Buffer.from(chunk);
        if (b.hang) return;
        setImmediate(() => {
          if (b.error !== undefined) child.emit('error', new Error(b.error));
          else child.emit('exit', b.exit ?? 0, null);
        });
      },
      on: () => undefined,
    };
    return child;
  };
  return { spawn, calls };
}

function deps(
  overrides: Partial<CopyDeps> & { written?: string[] },
): CopyDeps & { written: string[] } {
  const written = overrides.written ?? [];
  return {
    env: {},
    platform: 'linux',
    has: all,
    spawn: fakeSpawn().spawn,
    writeToTerminal: (seq: string) => {
      written.push(seq);
    },
    timeoutMs: 200,
    ...overrides,
    written,
  };
}

describe('copyText', () => {
  it('inside tmux: runs tmux load-buffer -w - with an argv array and the text on stdin', async () => {
    const { spawn, calls } = fakeSpawn();
    const d = deps({ env: { TMUX: 'x', SSH_TTY: '/dev/pts/1' }, spawn });
    const result = await copyText('hello 中文', d);
    expect(result).toEqual({
      ok: true,
      method: 'tmux',
      methods: ['tmux'],
      detail: 'tmux buffer',
      confirmed: true,
      status: 'copied to the tmux buffer (tmux passes it on to the terminal, not confirmed)',
    });
    expect(calls).toHaveLength(1);
    expect([calls[0]?.command, ...(calls[0]?.args ?? [])]).toEqual([
      'tmux',
      'load-buffer',
      '-w',
      '-',
    ]);
    expect(calls[0]?.options.shell).toBe(false);
    expect(calls[0]?.stdin?.toString('utf8')).toBe('hello 中文');
    expect(d.written).toEqual([]); // load-buffer -w already forwarded to the terminal
  });

  it('falls back to tmux load-buffer without -w on old tmux', async () => {
    const { spawn, calls } = fakeSpawn({ tmux: [{ exit: 1 }, { exit: 0 }] });
    const result = await copyText('x', deps({ env: { TMUX: 'x' }, spawn }));
    expect(result).toMatchObject({
      ok: true,
      confirmed: true,
      status: 'copied to the tmux buffer (this tmux cannot pass it on to the terminal)',
    });
    expect(calls.map((c) => [c.command, ...c.args])).toEqual([
      ['tmux', 'load-buffer', '-w', '-'],
      ['tmux', 'load-buffer', '-'],
    ]);
  });

  it('inside tmux on a desktop also fills the system clipboard', async () => {
    const { spawn, calls } = fakeSpawn();
    const result = await copyText('x', deps({ env: { TMUX: 'x' }, platform: 'darwin', spawn }));
    expect(result).toEqual({
      ok: true,
      method: 'tmux',
      methods: ['tmux', 'pbcopy'],
      detail: 'tmux buffer + pbcopy',
      confirmed: true,
      status:
        'copied to the tmux buffer (tmux passes it on to the terminal, not confirmed); copied to the clipboard by pbcopy',
    });
    expect(calls.map((c) => c.command)).toEqual(['tmux', 'pbcopy']);
  });

  it('over SSH: writes an OSC 52 sequence to the terminal and spawns nothing', async () => {
    const { spawn, calls } = fakeSpawn();
    const d = deps({ env: { SSH_TTY: '/dev/pts/0' }, spawn });
    const result = await copyText('anchor', d);
    expect(result).toEqual({
      ok: true,
      method: 'osc52',
      methods: ['osc52'],
      detail: 'OSC 52 (not confirmed)',
      confirmed: false,
      status: 'sent to the terminal by OSC 52; not confirmed',
    });
    expect(calls).toEqual([]);
    expect(d.written).toEqual([`${ESC}]52;c;${Buffer.from('anchor').toString('base64')}\x07`]);
  });

  it('uses tmux passthrough for OSC 52 when tmux itself failed', async () => {
    const { spawn } = fakeSpawn({ tmux: { exit: 1 } });
    const d = deps({ env: { TMUX: 'x', SSH_TTY: 'y' }, spawn });
    const result = await copyText('a', d);
    expect(result).toMatchObject({
      ok: true,
      method: 'osc52',
      detail: 'OSC 52 via tmux passthrough (not confirmed)',
      confirmed: false,
      status: 'sent to the terminal by OSC 52; not confirmed',
    });
    expect(d.written[0]?.startsWith(`${ESC}Ptmux;`)).toBe(true);
  });

  it('runs the native tools with their argv', async () => {
    const cases: Array<[NodeJS.ProcessEnv, NodeJS.Platform, string[]]> = [
      [{}, 'darwin', ['pbcopy']],
      [{ WAYLAND_DISPLAY: 'w' }, 'linux', ['wl-copy']],
      [{ DISPLAY: ':0' }, 'linux', ['xclip', '-selection', 'clipboard', '-in']],
    ];
    for (const [env, platform, argv] of cases) {
      const { spawn, calls } = fakeSpawn();
      const result = await copyText('t', deps({ env, platform, spawn }));
      expect(result.ok).toBe(true);
      expect([calls[0]?.command, ...(calls[0]?.args ?? [])]).toEqual(argv);
      expect(calls[0]?.options).toEqual({
        stdio: ['pipe', 'ignore', 'ignore'],
        shell: false,
        windowsHide: true,
      });
    }
  });

  it('feeds clip.exe UTF-16LE with a BOM and CRLF line ends', async () => {
    const { spawn, calls } = fakeSpawn();
    const result = await copyText('a\n中', deps({ platform: 'win32', spawn }));
    expect(result).toMatchObject({
      ok: true,
      method: 'clip',
      confirmed: true,
      status: 'copied to the clipboard by clip',
    });
    const bytes = calls[0]?.stdin ?? Buffer.alloc(0);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(bytes.subarray(2).toString('utf16le')).toBe('a\r\n中');
  });

  it('tries the next method when one fails, and reports why when all fail', async () => {
    const { spawn, calls } = fakeSpawn({
      xclip: { error: 'spawn xclip ENOENT' },
      xsel: { exit: 1 },
    });
    const d = deps({ env: { DISPLAY: ':0' }, spawn });
    const result = await copyText('x', d);
    expect(calls.map((c) => c.command)).toEqual(['xclip', 'xsel']);
    // The tools failed, so the text only went to the terminal, and the result does not claim more.
    expect(result).toMatchObject({
      ok: true,
      method: 'osc52',
      confirmed: false,
      status: 'sent to the terminal by OSC 52; not confirmed',
    });

    const big = 'x'.repeat(OSC52_MAX_BYTES + 1);
    const failing = await copyText(
      big,
      deps({
        env: { DISPLAY: ':0' },
        spawn: fakeSpawn({ xclip: { exit: 1 }, xsel: { exit: 2 } }).spawn,
      }),
    );
    expect(failing).toEqual({
      ok: false,
      error:
        'clipboard: xclip: exit code 1; xsel: exit code 2; OSC 52: too large: 101 KB (limit 100 KB)',
    });
  });

  it('gives up on a hung tool after the timeout', async () => {
    const { spawn } = fakeSpawn({ pbcopy: { hang: true } });
    const result = await copyText('x', deps({ platform: 'darwin', spawn, timeoutMs: 20 }));
    expect(result).toMatchObject({ ok: true, method: 'osc52' });
  });

  it('reports a terminal write that throws', async () => {
    const result = await copyText(
      'x',
      deps({
        env: { SSH_TTY: 'y' },
        writeToTerminal: () => {
          throw new Error('EPIPE');
        },
      }),
    );
    expect(result).toEqual({ ok: false, error: 'clipboard: OSC 52: EPIPE' });
  });

  it('sanitizes the text before copying (keeps newlines and tabs)', async () => {
    const { spawn, calls } = fakeSpawn();
    await copyText(`a\tb\nc${ESC}]52;c;QQ==\x07\u202ed\x00`, deps({ platform: 'darwin', spawn }));
    expect(calls[0]?.stdin?.toString('utf8')).toBe('a\tb\ncd');
  });

  it('survives a spawn that throws synchronously', async () => {
    const spawn: SpawnLike = () => {
      throw new Error('EINVAL');
    };
    expect(await runWithInput(['pbcopy'], Buffer.from('x'), spawn)).toBe('EINVAL');
    expect(await runWithInput([], Buffer.from('x'), spawn)).toBe('empty command');
  });
});

describe('createHas', () => {
  it('looks through PATH entries for an executable, without a shell, and caches', () => {
    const seen: string[] = [];
    const has = createHas({ PATH: '/usr/local/bin::/usr/bin' }, 'linux', (file) => {
      seen.push(file);
      return file === '/usr/bin/xclip';
    });
    expect(has('xclip')).toBe(true);
    expect(has('xclip')).toBe(true);
    expect(has('xsel')).toBe(false);
    expect(seen).toEqual([
      '/usr/local/bin/xclip',
      '/usr/bin/xclip',
      '/usr/local/bin/xsel',
      '/usr/bin/xsel',
    ]);
  });

  it('uses PATHEXT on Windows', () => {
    const has = createHas(
      { Path: 'C:\\Windows\\System32', PATHEXT: '.COM;.EXE' },
      'win32',
      (file) => file.toLowerCase() === 'c:\\windows\\system32\\clip.exe',
    );
    expect(has('clip')).toBe(true);
  });

  it('rejects names that are paths or shell syntax', () => {
    const has = createHas({ PATH: '/bin' }, 'linux', () => true);
    expect(has('../bin/sh')).toBe(false);
    expect(has('xclip; rm -rf /')).toBe(false);
    expect(has('')).toBe(false);
  });

  it('finds a real executable on this machine', () => {
    expect(createHas()('node')).toBe(true);
    expect(createHas()('definitely-not-a-command-lookback')).toBe(false);
  });
});
