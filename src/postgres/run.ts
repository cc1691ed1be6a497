/**
 * Running the PostgreSQL feed from synchronous code (the store choice of the
 * command line, the library and the MCP server is synchronous) and in the
 * background (the app): both in a worker thread (./worker.ts), so this module
 * loads neither `pg` nor the feed.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import type { PgTarget } from '../store/postgresConfig.js';
import type { SyncReport } from './feed.js';
import type { PgWorkerInit, PgWorkerMessage } from './worker.js';
import { SYNC_WAIT_MS } from '../budgets.js';

/** The worker bundle: beside this module in dist/ (or dist/chunks/), or the built one when run from src/. */
export function findPgWorker(base: string = import.meta.url): string | null {
  for (const rel of ['./pg-worker.js', '../pg-worker.js', '../../dist/pg-worker.js']) {
    const p = fileURLToPath(new URL(rel, base));
    if (existsSync(p)) return p;
  }
  return null;
}

export class PgRunError extends Error {}

/**
 * One sync, waited for: the mirror is up to date when this returns. Throws
 * PgRunError (one line). A long one draws its progress on stderr when stderr
 * is a terminal (the caller is blocked: nothing else could say it is working).
 */
export function syncBlocking(
  target: PgTarget,
  cacheDir: string,
  waitMs = SYNC_WAIT_MS,
  progress = process.stderr.isTTY === true,
): SyncReport {
  const file = findPgWorker();
  if (!file)
    throw new PgRunError(
      `profile ${target.profile}: the PostgreSQL reader is not built (npm run build)`,
    );
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const init: PgWorkerInit = { target, cacheDir, flag, port: port2, progress };
  const worker = new Worker(file, { workerData: init, transferList: [port2] });
  try {
    const woke = Atomics.wait(flag, 0, 0, waitMs);
    const got = receiveMessageOnPort(port1)?.message as PgWorkerMessage | undefined;
    if (woke === 'timed-out' || !got)
      throw new PgRunError(
        `profile ${target.profile}: PostgreSQL at ${target.endpoint} did not answer within ${Math.round(waitMs / 1000)} s`,
      );
    if (got.kind === 'error') throw new PgRunError(got.message);
    return got.report;
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/**
 * The app's live refresh for a PostgreSQL profile: a sync every `everyMs`
 * (longer when one is slow), each reported; the mirror's files change, so the
 * app's own poll of its store notices, exactly as with a local state.db.
 */
export function keepSyncing(
  target: PgTarget,
  cacheDir: string,
  everyMs: number,
  handlers: { onSync?: (r: SyncReport) => void; onError?: (message: string) => void } = {},
): { stop: () => void } {
  const file = findPgWorker();
  if (!file) {
    handlers.onError?.('the PostgreSQL reader is not built');
    return { stop: () => undefined };
  }
  const init: PgWorkerInit = { target, cacheDir, everyMs };
  const worker = new Worker(file, { workerData: init });
  worker.unref();
  let stopped = false;
  worker.on('message', (m: PgWorkerMessage) => {
    if (stopped) return;
    if (m.kind === 'done') handlers.onSync?.(m.report);
    else handlers.onError?.(m.message);
  });
  worker.on('error', (err) => {
    if (!stopped) handlers.onError?.(String(err?.message ?? err).split('\n')[0]!);
  });
  return {
    stop: () => {
      stopped = true;
      void worker.terminate();
    },
  };
}
