import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act } from 'react';
import { WIDE, makeStore, startHarness, type Harness } from '../app/harness.js';
import { AgentSim } from '../helpers/liveReaders.js';

const SECONDS = Number(process.env.LOOKBACK_SOAK_SECONDS ?? 10);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let path: string;
let h: Harness;

beforeAll(async () => {
  path = makeStore(30);
  // The app's own polling (every 200 ms here, about once a second in real use).
  h = await startHarness(path, WIDE, { pollMs: 200 });
});
afterAll(async () => {
  await h.close();
});

describe('the app while the agent writes', () => {
  it('keeps answering keys, shows new conversations within 2 s, never shows an error', async () => {
    const sim = new AgentSim({ path, rate: 300, seconds: SECONDS, markerEvery: 1 });
    await sim.ready;
    const seenAt = new Map<string, number>();
    const errors: string[] = [];
    let done = false;
    void sim.exited.then(() => (done = true));
    let k = 0;
    while (!done) {
      // A person moving through the list while the store changes under it.
      await h.press(k++ % 4 < 2 ? 'j' : 'k');
      const s = h.state();
      if (s.status?.tone === 'error') errors.push(s.status.text);
      const ids = new Set(s.recent.entries.map((r) => r.sessionId));
      for (const m of sim.markers)
        if (!seenAt.has(m.session_id) && ids.has(m.session_id))
          seenAt.set(m.session_id, Date.now());
      await act(async () => {
        await pause(50);
      });
    }
    expect(await sim.exited).toBe(0);
    expect(errors).toEqual([]);
    // Markers written in the last 2 s may not have been polled yet.
    const due = sim.markers.filter((m) => m.at < Date.now() - 2_500);
    expect(due.length).toBeGreaterThan(2);
    const delays = due.map((m) => (seenAt.get(m.session_id) ?? Infinity) - m.at);
    expect(Math.max(...delays)).toBeLessThanOrEqual(2_000);
    // Still responsive afterwards.
    await h.press('?');
    expect(h.frame()).toMatch(/Quit/);
    await h.press('\x1b');
  }, 60_000);
});
