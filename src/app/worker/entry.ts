/**
 * The query worker: its own read-only connection to the same store, so a slow
 * search (a short CJK substring scan over the whole store) never blocks the
 * keyboard. One request at a time; the client supersedes stale ones.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { OpenPlan } from '../../store/open.js';
import { IndexReader } from '../../agents/appReads.js';
import type { Agent } from '../../agents/model.js';
import { smallPageCache } from '../../store/open.js';
import { Store } from '../../store/store.js';
import { AgentSource } from '../data/agentSource.js';
import type { ProfileRef } from '../data/everyProfile.js';
import { indexOpener } from '../data/hostAgents.js';
import { answerMeaning } from '../data/meaning.js';
import { answerQuery, type QueryRequest, type QueryResponse } from '../data/queries.js';

export interface WorkerInit {
  path: string;
  profile: string;
  /** The main thread's way of connecting: the worker never looks at the store's files itself. */
  plan?: OpenPlan;
  /** The other agents' index, when the app shows them. */
  index?: { file: string; agents: Agent[] };
}

const port = parentPort;
if (port) {
  // One of the app's threads: a small page cache (budgets.ts STORE_CACHE_KIB).
  smallPageCache();
  const init = workerData as WorkerInit;
  let store: Store | null = null;
  try {
    store = Store.open(init.path, {
      profile: init.profile,
      ...(init.plan ? { plan: init.plan } : {}),
    });
  } catch (err) {
    port.postMessage({ kind: 'fatal', message: (err as Error)?.message ?? String(err) });
  }
  const agents = init.index
    ? new AgentSource(new IndexReader(init.index.file, init.index.agents))
    : null;
  // The every-profile view's other stores, by the paths the main thread named (opened on first use, idle-closed).
  const others = new Map<string, Store>();
  const openRef = (ref: ProfileRef): Store => {
    let s = others.get(ref.path);
    if (!s) {
      s = Store.open(ref.path, { profile: ref.name });
      others.set(ref.path, s);
    }
    return s;
  };
  const post = (r: QueryResponse): void => port.postMessage(r);
  // Other machines' agents' indexes, by the files the main thread named (the app's --agent choice).
  const hostIndexes = init.index ? indexOpener(init.index.agents) : null;
  port.on('message', (req: QueryRequest) => {
    if (!store) return;
    // By meaning: asynchronous (a model, maybe a server); the client sends one request at a time.
    if (req.kind === 'meaning')
      void answerMeaning(store, req, post, () => import('../../semantic/doors.js'), init.index);
    else answerQuery(store, req, post, agents, openRef, hostIndexes?.open ?? null);
  });
}
