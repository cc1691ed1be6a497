/**
 * The worker thread behind `indexInBackground`: one pass, progress posted as it
 * goes; with `everyMs`, another pass after each (the app's live updates) until
 * the worker is terminated. A pass that finds nothing new only stats files.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Overrides } from './discover.js';
import { indexAll, type IndexReport } from './indexer.js';
import { indexPath, openIndex, stampPass } from './indexDb.js';
import type { Agent } from './model.js';
import { AGENTS } from './model.js';

const port = parentPort;
if (port) {
  const init = (workerData ?? {}) as {
    indexFile?: string;
    overrides?: Overrides;
    agents?: Agent[];
    everyMs?: number;
  };
  const file = init.indexFile ?? indexPath();
  const fail = (err: unknown) =>
    port.postMessage({
      kind: 'error',
      message: String((err as Error)?.message ?? err).split('\n')[0],
    });
  try {
    // Each pass opens its own connection and closes it when it ends: nothing (64 MB of page
    // cache, the index's file handles) is held while the app waits for the next one.
    const pass = (): void => {
      const { db } = openIndex(file);
      let report: IndexReport;
      try {
        let last = 0;
        report = indexAll(db, {
          ...(init.overrides ? { overrides: init.overrides } : {}),
          ...(init.agents ? { agents: init.agents } : {}),
          onProgress: (progress) => {
            const now = Date.now();
            if (now - last < 50 && progress.filesDone < progress.filesTotal) return;
            last = now;
            port.postMessage({ kind: 'progress', progress });
          },
        });
      } finally {
        db.close();
      }
      if ((init.agents ?? AGENTS).length === AGENTS.length && !init.overrides) stampPass(file);
      port.postMessage({ kind: 'done', report });
    };
    if (!init.everyMs) pass();
    else {
      const every = init.everyMs;
      const loop = (): void => {
        const t0 = Date.now();
        try {
          pass();
        } catch (err) {
          fail(err);
        }
        // A slow pass (thousands of files) waits longer: at most a third of the time indexing.
        setTimeout(loop, Math.max(every, 2 * (Date.now() - t0)));
      };
      loop();
    }
  } catch (err) {
    fail(err);
  }
}
