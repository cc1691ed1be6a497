/**
 * `indexInBackground(onProgress)`: one indexing pass in a worker thread, so the app
 * answers from the first frame while the index catches up. The worker opens its own
 * connection; the index's WAL lets the app read meanwhile.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Overrides } from './discover.js';
import type { IndexReport, Progress } from './indexer.js';
import type { Agent } from './model.js';

export interface BackgroundOptions {
  indexFile?: string;
  overrides?: Overrides;
  agents?: readonly Agent[];
  /** The worker bundle; found next to this module (dist/ or dist/chunks/) by default. */
  workerFile?: string;
}

/**
 * The app's indexer: a first pass, then another every `everyMs` (longer when a
 * pass is slow) until stopped, so a file an agent is writing shows its new
 * messages while the app is open. Each finished pass is reported.
 */
export function keepIndexing(
  handlers: {
    onProgress: (p: Progress) => void;
    onPass: (r: IndexReport) => void;
    onError: (message: string) => void;
  },
  opts: BackgroundOptions & { everyMs: number },
): { stop: () => void } {
  const file = opts.workerFile ?? findAgentsWorker();
  if (!file) {
    handlers.onError('agents worker not built');
    return { stop: () => undefined };
  }
  const worker = new Worker(file, {
    workerData: {
      indexFile: opts.indexFile,
      overrides: opts.overrides,
      agents: opts.agents,
      everyMs: opts.everyMs,
    },
  });
  worker.unref();
  let stopped = false;
  worker.on('message', (m: WorkerMessage) => {
    if (stopped) return;
    if (m.kind === 'progress') handlers.onProgress(m.progress);
    else if (m.kind === 'done') handlers.onPass(m.report);
    else handlers.onError(m.message);
  });
  worker.on('error', (err) => !stopped && handlers.onError(err.message));
  return {
    stop: () => {
      stopped = true;
      void worker.terminate();
    },
  };
}

export type WorkerMessage =
  | { kind: 'progress'; progress: Progress }
  | { kind: 'done'; report: IndexReport }
  | { kind: 'error'; message: string };

export function findAgentsWorker(base: string = import.meta.url): string | null {
  for (const rel of ['./agents-worker.js', '../agents-worker.js']) {
    const p = fileURLToPath(new URL(rel, base));
    if (existsSync(p)) return p;
  }
  return null;
}

export function indexInBackground(
  onProgress: (p: Progress) => void,
  opts: BackgroundOptions = {},
): { done: Promise<IndexReport>; cancel: () => Promise<void> } {
  const file = opts.workerFile ?? findAgentsWorker();
  if (!file)
    return { done: Promise.reject(new Error('agents worker not built')), cancel: async () => {} };
  const worker = new Worker(file, {
    workerData: { indexFile: opts.indexFile, overrides: opts.overrides, agents: opts.agents },
  });
  const done = new Promise<IndexReport>((resolve, reject) => {
    worker.on('message', (m: WorkerMessage) => {
      if (m.kind === 'progress') onProgress(m.progress);
      else if (m.kind === 'done') resolve(m.report);
      else reject(new Error(m.message));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`agents worker exited (${code})`)));
  });
  return {
    done: done.finally(() => void worker.terminate()),
    cancel: async () => {
      await worker.terminate();
    },
  };
}
