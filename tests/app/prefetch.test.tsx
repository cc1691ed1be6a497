/**
 * Read-ahead at a conversation's loaded edges: after a key's frame, the next slice
 * is read when the viewport comes within PREFETCH_SCREENS of a loaded edge (once the
 * host says the frame is drawn: Controller.frameDrawn), so the
 * key that then crosses into the last screen finds it loaded and does no store read
 * of its own (the read used to sit in the key's path: 6-10 ms at 200x60).
 */
import { PREFETCH_DELAY_MS, WINDOW_MAX_MESSAGES } from '../../src/budgets.js';
import { describe, expect, it } from 'vitest';
import type { Timers } from '../../src/app/controller/ctx.js';

import { type WinItem } from '../../src/app/geometry/window.js';
import { KEY, WIDE, makeStore, withHarness } from './harness.js';

/** Timers the test runs by hand: only the read-ahead's, never the status TTL or the poll. */
function manualTimers() {
  const due = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      due.set(next, { fn, ms });
      return next++;
    },
    clearTimeout: (h) => void due.delete(h as number),
    setInterval: () => next++,
    clearInterval: () => undefined,
  };
  const runShort = (): number => {
    let ran = 0;
    for (const [id, t] of [...due]) {
      if (t.ms !== PREFETCH_DELAY_MS) continue;
      due.delete(id);
      t.fn();
      ran++;
    }
    return ran;
  };
  return { timers, runShort };
}

const firstId = (items: readonly WinItem[]): number => {
  const m = items.find((it) => it.kind === 'message');
  return m?.kind === 'message' ? m.msg.id : -1;
};

async function walkUp(readAhead: boolean): Promise<{ keyReads: number; aheadReads: number }> {
  const { timers, runShort } = manualTimers();
  let keyReads = 0;
  let aheadReads = 0;
  await withHarness(
    makeStore(),
    WIDE,
    async (h) => {
      const rows = h.state().recent.entries;
      const longest = rows.reduce(
        (best, r, i) => (r.messageCount > rows[best]!.messageCount ? i : best),
        0,
      );
      expect(rows[longest]!.messageCount).toBeGreaterThan(WINDOW_MAX_MESSAGES * 2);
      for (let i = 0; i < longest; i++) await h.press('j');
      await h.press(KEY.enter);
      const opened = firstId(h.state().view!.win.items);
      for (let i = 0; i < 40 && !h.state().view!.win.atStart; i++) {
        const before = firstId(h.state().view!.win.items);
        await h.press(KEY.pageUp);
        if (firstId(h.state().view!.win.items) !== before) keyReads++;
        if (!readAhead) continue;
        const ahead = firstId(h.state().view!.win.items);
        // What ink's onRender tells the app in src/tui/run.tsx: the key's frame is out.
        h.controller.frameDrawn();
        runShort();
        if (firstId(h.state().view!.win.items) !== ahead) aheadReads++;
      }
      // The walk went well past the first slice loaded.
      expect(firstId(h.state().view!.win.items)).toBeLessThan(opened);
    },
    { timers },
  );
  return { keyReads, aheadReads };
}

describe('read-ahead at the loaded edges of a conversation', () => {
  it('PgUp through a long conversation: every slice read after a frame, none in a key', async () => {
    const { keyReads, aheadReads } = await walkUp(true);
    expect(aheadReads).toBeGreaterThan(1);
    expect(keyReads).toBe(0);
  });

  it('without the idle time to read ahead, the keys still load what they need', async () => {
    const { keyReads } = await walkUp(false);
    expect(keyReads).toBeGreaterThan(1);
  });
});
