/**
 * The one way to wire a Controller to an open store: its DataSource, and where
 * queries run (the worker thread when its bundle is there, else inline on the
 * main thread, which is also the worker's fallback). Used by src/tui/run.tsx,
 * the journey harness and the benchmark, so all three run the same app.
 */
import { IndexReader } from '../agents/appReads.js';
import { keepIndexing } from '../agents/background.js';
import type { Agent } from '../agents/model.js';
import type { Store } from '../store/store.js';
import { AgentSource } from './data/agentSource.js';
import { Controller } from './controller/controller.js';
import type { BackgroundEmbedder, BackgroundIndexer, ControllerOptions } from './controller/ctx.js';
import { DataSource } from './data/source.js';
import { answerMeaning } from './data/meaning.js';
import { ProfileStores, type OtherProfiles } from './data/profileStores.js';
import { HostAgents } from './data/hostAgents.js';
import { inlineBackend, workerBackend } from './worker/client.js';
import { startEmbedding } from './worker/embedding.js';

export interface CreateOptions extends Omit<
  ControllerOptions,
  'data' | 'queries' | 'fallbackQueries'
> {
  /** An open store; the caller closes it. */
  store: Store;
  /** The profiles on disk, for links naming another profile (the app reads no directories itself). */
  profiles?: () => string[];
  /**
   * The other profiles' stores (src/tui/otherProfiles.ts): for a pasted link of
   * another profile and the every-profile view (P); absent, such a link only
   * says where it lives and P says there is one profile.
   */
  otherProfiles?: OtherProfiles;
  /** The query worker's bundle (worker/client.ts findWorkerFile); null answers queries inline. */
  workerFile: string | null;
  /**
   * The embed worker's bundle (worker/embedding.ts findEmbedWorker): with an
   * embedder, the store's messages are embedded in the background. Absent or
   * null: each search by meaning embeds for a while itself.
   */
  embedWorker?: string | null;
  /**
   * The other agents' histories beside Hermes: their index file, which agents, and
   * whether to keep it indexed in the background (a worker bundle, or null for none).
   * Absent: Hermes alone, as with `--agent hermes`.
   */
  agents?: {
    indexFile: string;
    agents: Agent[];
    indexWorker: string | null;
    /** Pause between passes while the app is open. */
    everyMs?: number;
  };
}

import { INDEX_EVERY_MS } from '../budgets.js';
export { INDEX_EVERY_MS };

function indexerFor(a: NonNullable<CreateOptions['agents']>): BackgroundIndexer | undefined {
  const workerFile = a.indexWorker;
  if (!workerFile) return undefined;
  return {
    start: (h) =>
      keepIndexing(h, {
        indexFile: a.indexFile,
        agents: a.agents,
        workerFile,
        everyMs: a.everyMs ?? INDEX_EVERY_MS,
      }),
  };
}

export function createController(o: CreateOptions): Controller {
  const { store, workerFile, embedWorker, agents, profiles, otherProfiles, ...rest } = o;
  const on = agents && agents.agents.length > 0 ? agents : undefined;
  const data = new DataSource(
    store,
    on ? new AgentSource(new IndexReader(on.indexFile, on.agents)) : null,
    profiles,
    otherProfiles ? new ProfileStores(store.profile, otherProfiles) : null,
    // Other machines' agents, read as this app reads this machine's (its --agent choice).
    on && otherProfiles?.hostIndexes ? new HostAgents(otherProfiles.hostIndexes, on.agents) : null,
  );
  const indexer = on ? indexerFor(on) : undefined;
  const spec = rest.embedder;
  const embedding: BackgroundEmbedder | undefined =
    // Not the demo store (generated sample text): a search by meaning there embeds for itself.
    // No Hermes store: the other agents' index alone, when they are shown.
    embedWorker && spec && rest.semantic && (!rest.noHermes || on) && !rest.demo
      ? {
          start: (h) =>
            startEmbedding(
              embedWorker,
              {
                path: store.path,
                profile: store.profile,
                plan: store.openPlan,
                embedder: spec,
                ...(on ? { index: on.indexFile } : {}),
              },
              h,
            ),
        }
      : undefined;
  const base = {
    ...rest,
    data,
    ...(indexer ? { indexer } : {}),
    ...(embedding ? { embedding } : {}),
  };
  const load = rest.semantic;
  const inline = inlineBackend((req, post) =>
    req.kind !== 'meaning'
      ? data.answer(req, post)
      : load
        ? void answerMeaning(
            store,
            req,
            post,
            load,
            on ? { file: on.indexFile, agents: on.agents } : undefined,
          )
        : post({ kind: 'done', generation: req.generation, request: 'meaning' }),
  );
  if (!workerFile) return new Controller({ ...base, queries: inline });
  return new Controller({
    ...base,
    queries: workerBackend(workerFile, {
      path: store.path,
      profile: store.profile,
      plan: store.openPlan,
      ...(on ? { index: { file: on.indexFile, agents: on.agents } } : {}),
    }),
    fallbackQueries: inline,
  });
}
