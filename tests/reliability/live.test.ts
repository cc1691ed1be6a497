/**
 * A live agent: the simulator writes the store at 500 messages/s across several
 * sessions, with compression rotations, titles, archiving, pruning, FTS
 * optimize, TRUNCATE checkpoints and VACUUM, while the real CLI runs in a loop
 * and an in-process Store (opened once) browses, searches and scrolls.
 *
 * Required: no crash and no unhandled error; "store busy" only as a transient
 * status; new sessions and messages become visible (the delays are printed; within
 * 2 s is asserted only in a soak run, LOOKBACK_SOAK=1, because on a shared 2-core CI
 * machine running the other test files in parallel a starved reader says nothing
 * about lookback); and what lookback shows once the writer stops is what the store
 * holds (checked against the oracle).
 * LOOKBACK_SOAK_SECONDS sets the v30 run (default 20 s); the v16 run is a third of it.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import type { Layout } from '../../src/demo/schema.js';
import { median, percentile } from '../bench/stats.js';
import { tempDir } from '../helpers/fixtures.js';
import { lookback } from '../helpers/cli.js';
import { expectedBrowse, expectedDiscover, loadSnapshot } from '../helpers/oracle.js';
import { AgentSim, startReaders, type ReaderReport } from '../helpers/liveReaders.js';

const SOAK_SECONDS = Number(process.env.LOOKBACK_SOAK_SECONDS ?? 20);
/**
 * "New sessions and messages visible within 2 s" in a soak run; otherwise a bound that
 * only a reader that stopped seeing changes would miss.
 */
const VISIBLE_WITHIN_MS = process.env.LOOKBACK_SOAK === '1' ? 2_000 : 10_000;
/** More "store busy" answers than this in a row would be a status that is not transient. */
const MAX_BUSY_STREAK = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function liveStore(layout: Layout): string {
  const dir = tempDir('lookback-live-');
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'state.db');
  generateStore(path, {
    layout,
    sessions: 150,
    seed: 11 + layout,
    // Real time, so the simulator's sessions are the newest activity, as they would be.
    now: Math.floor(Date.now() / 1000) - 120,
  });
  return path;
}

function describeRun(layout: number, sim: AgentSim, r: ReaderReport): string {
  const s = sim.summary;
  const lag = (pick: (m: ReaderReport['markers'][number]) => number | undefined) => {
    // Each delay against its own marker (filtering first would pair them with others).
    const xs = r.markers.flatMap((m) => {
      const seen = pick(m);
      return seen === undefined ? [] : [seen - m.marker.at];
    });
    return `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  };
  return [
    `live agent, schema v${layout}: writer ${s?.count} commits in ${s?.elapsed_s} s (${s?.rate}/s), ` +
      `commit p50 ${s?.p50_ms} ms, p95 ${s?.p95_ms} ms, p99 ${s?.p99_ms} ms, max ${s?.max_ms} ms`,
    `  writer ops: ${JSON.stringify(s?.stats)}`,
    `  CLI: ${r.cli.runs} runs (${r.cli.ok} ok, ${r.cli.busy} busy, ${r.cli.vanished} pruned target), ` +
      `median ${median(r.cli.ms).toFixed(0)} ms, p95 ${percentile(r.cli.ms, 95).toFixed(0)} ms`,
    `  in-process: ${r.store.runs} ops (${r.store.ok} ok, ${r.store.busy} busy, ${r.store.vanished} pruned target), ` +
      `median ${median(r.store.ms).toFixed(1)} ms, p95 ${percentile(r.store.ms, 95).toFixed(1)} ms`,
    `  markers: ${r.markers.length}; message visible in-process ${lag((m) => m.storeMessage)}; ` +
      `session in recent ${lag((m) => m.storeSession)}; via CLI ${lag((m) => m.cli)}`,
  ].join('\n');
}

describe('a live agent writing the store while lookback reads it', () => {
  it.each([
    [30 as Layout, SOAK_SECONDS, {}],
    // The short run packs the maintenance closer together, so each kind still happens.
    [
      16 as Layout,
      Math.max(4, Math.round(SOAK_SECONDS / 3)),
      { vacuumEvery: 2.5, pruneEvery: 1.5, optimizeEvery: 2, archiveEvery: 1.5, rotateEvery: 1 },
    ],
  ])(
    'schema v%i for %i s: no errors, busy only transient, new data within 2 s, the truth at the end',
    async (layout, seconds, maintenance) => {
      const path = liveStore(layout);
      const sim = new AgentSim({ path, rate: 500, seconds, seed: layout, ...maintenance });
      await sim.ready;
      const readers = startReaders({ path, sim });
      const code = await sim.exited;
      // Let the readers look for the last markers (written up to the writer's last second).
      const until = Date.now() + VISIBLE_WITHIN_MS + 1_000;
      while (Date.now() < until && readers.unseen().length > 0) await sleep(100);
      const report = await readers.stop();
      console.log(describeRun(layout, sim, report));

      expect(code, sim.stderr).toBe(0);
      expect(sim.summary).not.toBeNull();
      // No floor on the writer's rate: on a shared machine (and beside this suite's other
      // files, which run in parallel) a starved writer writes less; the figures are printed.
      expect(sim.summary!.count).toBeGreaterThan(0);
      expect(report.failures).toEqual([]);
      for (const reader of [report.cli, report.store]) {
        expect(reader.ok).toBeGreaterThan(0);
        expect(reader.longestBusyStreak).toBeLessThanOrEqual(MAX_BUSY_STREAK);
      }
      // A starved writer writes fewer markers (one every ~2 s when it keeps its rate);
      // the soak run asks for its full rate, an ordinary run for something to check.
      const soak = process.env.LOOKBACK_SOAK === '1';
      expect(report.markers.length).toBeGreaterThanOrEqual(soak ? Math.floor(seconds / 2) : 1);
      for (const m of report.markers) {
        expect(m.storeMessage, `marker ${m.marker.token} never found in-process`).toBeDefined();
        expect(m.storeSession, `marker session ${m.marker.session_id} never listed`).toBeDefined();
        expect(m.cli, `marker ${m.marker.token} never found by the CLI`).toBeDefined();
        expect(m.storeMessage! - m.marker.at).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
        expect(m.storeSession! - m.marker.at).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
        expect(m.cli! - m.marker.at).toBeLessThanOrEqual(VISIBLE_WITHIN_MS);
      }

      // Once the writer has stopped, what lookback shows is what the store holds.
      const snap = loadSnapshot(path);
      const recent = lookback(['recent', '--db', path, '--json', '--limit', '30']).json();
      expect((recent.results as { session_id: string }[]).map((x) => x.session_id)).toEqual(
        expectedBrowse(snap, 30, false).map((x) => x.session_id),
      );
      const found = lookback(['search', 'kestrel', '--db', path, '--json']).json();
      expect(
        (found.results as { session_id: string; match_message_id: number }[]).map((x) => [
          x.session_id,
          x.match_message_id,
        ]),
      ).toEqual(
        expectedDiscover(snap, snap.ftsOrder('kestrel'), 10).map((x) => [
          x.session_id,
          x.match_message_id,
        ]),
      );
    },
    SOAK_SECONDS * 1000 + 90_000,
  );
});
