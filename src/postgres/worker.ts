/**
 * The worker thread behind `syncBlocking` and `keepSyncing` (./run.ts): the
 * PostgreSQL client is asynchronous, the store choice is not, so one sync runs
 * here while the caller waits on a shared flag; with `everyMs`, a sync after
 * each pause until the worker is terminated (the app's live refresh).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { PgTarget } from '../store/postgresConfig.js';

export interface PgWorkerInit {
  target: PgTarget;
  cacheDir: string;
  /** Set to 1 (and notified) when the answer is on `port`: the blocking caller wakes. */
  flag?: Int32Array;
  port?: MessagePort;
  everyMs?: number;
  /** Draw the sync's progress on stderr (a terminal, a blocking caller): ./progress.ts. */
  progress?: boolean;
}

export type PgWorkerMessage =
  { kind: 'done'; report: import('./feed.js').SyncReport } | { kind: 'error'; message: string };

const init = workerData as PgWorkerInit | undefined;
const out = init?.port ?? parentPort;
if (init && out) {
  const post = (m: PgWorkerMessage) => {
    out.postMessage(m);
    if (init.flag) {
      Atomics.store(init.flag, 0, 1);
      Atomics.notify(init.flag, 0);
    }
  };
  const oneLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0]!;
  // Loaded here, not imported above: a worker that cannot load still answers.
  Promise.all([import('./feed.js'), import('./progress.js')]).then(
    ([{ syncPostgres }, { progressWriter }]) => {
      const pass = async (): Promise<void> => {
        const bar = init.progress ? progressWriter() : null;
        try {
          const report = await syncPostgres(init.target, {
            cacheDir: init.cacheDir,
            ...(bar ? { onProgress: bar.update } : {}),
          });
          bar?.done();
          post({ kind: 'done', report });
        } catch (err) {
          bar?.done();
          post({ kind: 'error', message: oneLine(err) });
        }
      };
      const every = init.everyMs;
      if (!every) return void pass();
      const loop = (): void => {
        const t0 = Date.now();
        void pass().then(() => setTimeout(loop, Math.max(every, 2 * (Date.now() - t0))));
      };
      loop();
    },
    (err: unknown) =>
      post({ kind: 'error', message: `the PostgreSQL reader could not load: ${oneLine(err)}` }),
  );
}
