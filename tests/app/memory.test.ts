import { COLLECT_AFTER_BYTES, IDLE_COLLECT_MS } from '../../src/budgets.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  exposeGc,
  gcOnFirstUse,
  idleCollector,
  LEAN_HEAP_FLAGS,
  leanHeap,
  restoreStartFlags,
} from '../../src/tui/memory.js';
import { spawnSync } from 'node:child_process';

afterEach(() => {
  vi.useRealTimers();
});

describe('collecting garbage when the user pauses', () => {
  it('the engine gives its collector', () => {
    expect(typeof exposeGc()).toBe('function');
  });

  it('collects once, a quiet second after the last frame, and only after the heap grew', () => {
    vi.useFakeTimers();
    let heap = 10e6;
    const gc = vi.fn(() => {
      heap = 12e6;
    });
    const c = idleCollector(gc, () => heap);
    // Frames every 50 ms: never quiet, never collected.
    heap += COLLECT_AFTER_BYTES + 1;
    for (let i = 0; i < 40; i++) {
      c.activity();
      vi.advanceTimersByTime(50);
    }
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(gc).toHaveBeenCalledTimes(1);
    // Another pause after a frame that allocated little: nothing worth collecting.
    heap += 1e6;
    c.activity();
    vi.advanceTimersByTime(IDLE_COLLECT_MS * 2);
    expect(gc).toHaveBeenCalledTimes(1);
    // Stopped (the app quit): the pending collection is dropped.
    heap += COLLECT_AFTER_BYTES * 2;
    c.activity();
    c.stop();
    vi.advanceTimersByTime(IDLE_COLLECT_MS * 2);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('collects once per pause, never again until the next frame', () => {
    vi.useFakeTimers();
    let heap = 10e6;
    const gc = vi.fn(() => {
      heap = 12e6;
    });
    const c = idleCollector(gc, () => heap);
    heap += COLLECT_AFTER_BYTES + 1;
    c.activity();
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(gc).toHaveBeenCalledTimes(1);
    // A long pause: no timer left, nothing collected again (the collector is not scheduled).
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('makes the collector (a new V8 context, ~6 ms) at the first collection, not before the first frame', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    const expose = vi.fn(() => gc);
    let heap = 0;
    const c = idleCollector(gcOnFirstUse(expose), () => heap);
    c.activity();
    expect(expose).not.toHaveBeenCalled();
    heap = COLLECT_AFTER_BYTES + 1;
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(expose).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledTimes(1);
    heap = 2 * COLLECT_AFTER_BYTES + 2;
    c.activity();
    vi.advanceTimersByTime(IDLE_COLLECT_MS);
    expect(expose).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledTimes(2);
    // Where the engine gives none, each collection is nothing, and it is asked once.
    const none = vi.fn(() => null);
    const off = gcOnFirstUse(none);
    off();
    off();
    expect(none).toHaveBeenCalledTimes(1);
  });

  it('without a collector it does nothing at all', () => {
    vi.useFakeTimers();
    const c = idleCollector(null, () => 1e12);
    c.activity();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a leaner heap once the first frame is out', () => {
  it("gives back, for the code cache, every flag it sets, at V8's default", () => {
    const set = vi.fn();
    restoreStartFlags(false, set);
    const names = (flags: string[]) => flags.map((f) => f.replace(/=.*/, ''));
    const restored = names(set.mock.calls.map(([f]) => f as string));
    expect(restored).toContain('--no-expose-gc');
    for (const flag of names([...LEAN_HEAP_FLAGS])) expect(restored).toContain(flag);
    // The defaults, as this Node reports them.
    const r = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const f of set.mock.calls.map(([x]) => x as string).filter((x) => x.includes('=')))
      expect(r.stdout).toContain(`default: ${f}`);
  });

  it('sets the flags it names', () => {
    const set = vi.fn();
    leanHeap(set);
    expect(set.mock.calls.map(([f]) => f)).toEqual([...LEAN_HEAP_FLAGS]);
  });

  it('names only flags this Node knows (an unknown V8 flag would be ignored without a word)', () => {
    for (const flag of LEAN_HEAP_FLAGS) {
      const r = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
      expect([flag, r.status, r.stderr]).toEqual([flag, 0, '']);
    }
    const r = spawnSync(process.execPath, ['--heap-growing-pct=20', '-e', '0'], {
      encoding: 'utf8',
    });
    expect(r.status).not.toBe(0);
  });
});
