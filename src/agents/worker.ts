/** The worker thread behind `indexInBackground`: one pass, progress posted as it goes. */
import { parentPort, workerData } from 'node:worker_threads';
import type { Overrides } from './discover.js';
import { indexAll } from './indexer.js';
import { indexPath, openIndex } from './indexDb.js';
import type { Agent } from './model.js';

const port = parentPort;
if (port) {
  const init = (workerData ?? {}) as {
    indexFile?: string;
    overrides?: Overrides;
    agents?: Agent[];
  };
  try {
    const { db } = openIndex(init.indexFile ?? indexPath());
    try {
      let last = 0;
      const report = indexAll(db, {
        ...(init.overrides ? { overrides: init.overrides } : {}),
        ...(init.agents ? { agents: init.agents } : {}),
        onProgress: (progress) => {
          const now = Date.now();
          if (now - last < 50 && progress.filesDone < progress.filesTotal) return;
          last = now;
          port.postMessage({ kind: 'progress', progress });
        },
      });
      port.postMessage({ kind: 'done', report });
    } finally {
      db.close();
    }
  } catch (err) {
    port.postMessage({
      kind: 'error',
      message: String((err as Error)?.message ?? err).split('\n')[0],
    });
  }
}
