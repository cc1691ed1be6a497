/**
 * The one way to wire a Controller to an open store: its DataSource, and where
 * queries run (the worker thread when its bundle is there, else inline on the
 * main thread, which is also the worker's fallback). Used by src/tui/run.tsx,
 * the journey harness and the benchmark, so all three run the same app.
 */
import type { Store } from '../store/store.js';
import { Controller } from './controller/controller.js';
import type { ControllerOptions } from './controller/ctx.js';
import { DataSource } from './data/source.js';
import { inlineBackend, workerBackend } from './worker/client.js';

export interface CreateOptions extends Omit<
  ControllerOptions,
  'data' | 'queries' | 'fallbackQueries'
> {
  /** An open store; the caller closes it. */
  store: Store;
  /** The query worker's bundle (worker/client.ts findWorkerFile); null answers queries inline. */
  workerFile: string | null;
}

export function createController(o: CreateOptions): Controller {
  const { store, workerFile, ...rest } = o;
  const data = new DataSource(store);
  const inline = inlineBackend((req, post) => data.answer(req, post));
  if (!workerFile) return new Controller({ ...rest, data, queries: inline });
  return new Controller({
    ...rest,
    data,
    queries: workerBackend(workerFile, {
      path: store.path,
      profile: store.profile,
      plan: store.openPlan,
    }),
    fallbackQueries: inline,
  });
}
