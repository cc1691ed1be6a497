/**
 * The app's embed worker (issue 22): embeds the Hermes store's new messages for
 * search by meaning in the background, then the other agents' index's
 * (src/semantic/agents.ts) when the app shows them, incrementally (src/semantic/hermes.ts
 * embedStore goes on from the last message linked), and posts its progress.
 * Low priority: the thread asks the OS for the lowest priority where it can
 * (Linux: a thread's own nice value), and it runs in slices of about
 * EMBED_SLICE_MS with a pause of at least twice the slice between them. Between
 * slices it holds nothing: the store and vectors.db are opened for a slice and
 * closed after it, so no file, lock or connection is kept while it waits; the
 * store is only read, in short statements. Asked to stop, it stops at the next
 * batch the model is handed (the batch it is in is kept: vectors, then units).
 */
import Database from 'better-sqlite3';
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { EMBED_PAUSE_MS, EMBED_RECHECK_MS, EMBED_SLICE_MS } from '../../budgets.js';
import { vectorsPath } from '../../semantic/answer.js';
import { embedAgents } from '../../semantic/agents.js';
import type { EmbedProgress } from '../../semantic/embedPass.js';
import { embedStore } from '../../semantic/hermes.js';
import { openEmbedder } from '../../semantic/spec.js';
import type { Embedder } from '../../semantic/types.js';
import { VectorDb } from '../../semantic/vectors.js';
import type { OpenPlan } from '../../store/open.js';
import { smallPageCache } from '../../store/open.js';
import { Store } from '../../store/store.js';

export interface EmbedInit {
  path: string;
  profile: string;
  plan?: OpenPlan;
  /** The other agents' index, embedded after the Hermes store (its messages in their own namespace). */
  index?: string;
  /** The embedder's spec (--embedder, LOOKBACK_EMBEDDER). */
  embedder: string;
  /** vectors.db; default as the search's (LOOKBACK_VECTORS_DB, else the cache folder). */
  vectors?: string;
  sliceMs?: number;
  pauseMs?: number;
  recheckMs?: number;
}

export type EmbedMessage =
  | { kind: 'progress'; done: number; total: number; embedded: number; docsPerSecond: number }
  | { kind: 'error'; message: string }
  | { kind: 'stopped' };

/** Two passes' progress as one (the Hermes store's and the agents' index's). */
function sum(a: EmbedProgress, b: EmbedProgress): EmbedProgress {
  return {
    done: a.done + b.done,
    total: a.total + b.total,
    embedded: a.embedded + b.embedded,
    docsPerSecond: a.docsPerSecond + b.docsPerSecond,
    model: a.model,
  };
}

/** Stops the pass at the next batch it hands the model. */
class Stopped extends Error {}

/** This thread at the lowest priority, where the OS names threads (Linux); elsewhere the pauses alone keep it low. */
function lowPriority(): void {
  try {
    // "<pid>/task/<tid>": setpriority on a thread id sets that thread's nice value alone.
    const task = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    if (task) setPriority(Number(task[1]), 19);
  } catch {
    // No /proc/thread-self (macOS, Windows): the duty cycle is the only limit.
  }
}

const port = parentPort;
if (port) {
  // One of the app's threads: a small page cache (budgets.ts STORE_CACHE_KIB).
  smallPageCache();
  const init = workerData as EmbedInit;
  const post = (m: EmbedMessage): void => port.postMessage(m);
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  const stop = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    post({ kind: 'stopped' });
    port.close();
  };
  port.on('message', (m: { kind: 'stop' }) => {
    if (m.kind !== 'stop') return;
    stopping = true;
    // Waiting between slices: stop now; in a slice, at its next batch (run below).
    if (timer !== null) stop();
  });
  lowPriority();
  const slice = init.sliceMs ?? EMBED_SLICE_MS;
  const pause = init.pauseMs ?? EMBED_PAUSE_MS;
  const recheck = init.recheckMs ?? EMBED_RECHECK_MS;
  const later = (ms: number): void => {
    timer = setTimeout(() => {
      timer = null;
      void run();
    }, ms);
  };
  let model: Embedder | null = null;
  const run = async (): Promise<void> => {
    if (stopping) return stop();
    const t0 = performance.now();
    let store: Store | null = null;
    let vdb: VectorDb | null = null;
    try {
      model ??= await openEmbedder(init.embedder);
      const inner = model;
      // The model as embedStore sees it: refuses a batch once a stop is asked.
      const guarded: Embedder = {
        id: inner.id,
        fingerprint: inner.fingerprint,
        remote: inner.remote,
        get dims() {
          return inner.dims;
        },
        set dims(d: number) {
          inner.dims = d;
        },
        embed: (texts, role) => {
          if (stopping) throw new Stopped();
          return inner.embed(texts, role);
        },
      };
      store = Store.open(init.path, {
        profile: init.profile,
        ...(init.plan ? { plan: init.plan } : {}),
      });
      vdb = new VectorDb(init.vectors ?? vectorsPath());
      const p = await embedStore(
        store,
        vdb,
        guarded,
        (q) => post({ kind: 'progress', ...q }),
        t0 + slice,
      );
      let all = p;
      // The Hermes store first; then, in what is left of the slice, the other agents' index.
      if (init.index && p.done >= p.total && !stopping && existsSync(init.index)) {
        const index = new Database(init.index, { readonly: true, fileMustExist: true });
        try {
          const a = await embedAgents(
            index,
            vdb,
            guarded,
            (q) => post({ kind: 'progress', ...sum(p, q) }),
            t0 + slice,
          );
          all = sum(p, a);
        } finally {
          index.close();
        }
      }
      post({ kind: 'progress', ...all });
      store.close();
      vdb.close();
      store = null;
      vdb = null;
      if (stopping) return stop();
      later(all.done < all.total ? Math.max(pause, 2 * (performance.now() - t0)) : recheck);
    } catch (err) {
      vdb?.close();
      store?.close();
      if (err instanceof Stopped || stopping) return stop();
      post({ kind: 'error', message: String((err as Error)?.message ?? err).split('\n')[0]! });
      // A server down or a model that failed to load: tried again later, never in a loop.
      model = null;
      later(Math.max(recheck, 2 * (performance.now() - t0)));
    }
  };
  void run();
}
