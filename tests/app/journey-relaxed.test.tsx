/**
 * Relaxed recall in the app (#22): after real key input, the rows that do not
 * hold every word come after the exact ones, each marked ≈, and the Results
 * title says what they are; checked against the store's own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { discover } from '../../src/store/search.js';
import { buildStore } from '../helpers/stores.js';
import { WIDE, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  const path = buildStore(30, (db) => {
    const a = insertSession(db, { id: 'queue', started_at: 1_790_000_000, title: 'Job queue' });
    insertMessage(db, { session_id: a, content: 'Use a postgres table as the job queue' });
    const b = insertSession(db, { id: 'pool', started_at: 1_790_100_000, title: 'Pool sizing' });
    insertMessage(db, { session_id: b, content: 'postgres connection pool exhausted at night' });
  });
  h = await startHarness(path, WIDE);
});
afterAll(async () => {
  await h.close();
});

describe('relaxed rows in Results', () => {
  it('follow the exact rows, marked ≈, and the title says how many', async () => {
    await h.press('/');
    await h.type('postgres queue');
    await h.waitFor(
      () => !h.state().results.busy && h.state().results.items.length === 2,
      'two results',
    );
    const truth = discover(h.store, 'postgres queue', { views: false });
    expect(truth.results.map((r) => r.match ?? 'exact')).toEqual(['exact', 'relaxed']);
    const items = h.state().results.items;
    expect(items.map((r) => [r.sessionId, r.relaxed === true])).toEqual([
      ['queue', false],
      ['pool', true],
    ]);
    const frame = h.frame();
    expect(frame).toContain('Results: 2 sessions · ≈ 1 without every word, closest first');
    const lines = frame.split('\n');
    // The Results pane is the left one: its rows start the line.
    const row = (title: string) => lines.find((l) => l.startsWith('│') && l.includes(title))!;
    const exact = row('Job queue').split('││')[0]!;
    const loose = row('Pool sizing').split('││')[0]!;
    expect(exact).toMatch(/1 hit/);
    expect(exact).not.toContain('≈');
    expect(loose).toMatch(/^│ {2}≈ Pool sizing/);
    // No exact hit to count (or walk with n/N) in a relaxed row: no "0 hits".
    expect(loose).not.toMatch(/hits?/);
    expect(lines.indexOf(row('Job queue'))).toBeLessThan(lines.indexOf(row('Pool sizing')));
  });
});
