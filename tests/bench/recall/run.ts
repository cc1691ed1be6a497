/**
 * `npm run bench:recall`: the recall benchmark. Builds (once, cached) a Hermes
 * store from the demo generator plus the hand-written needles, asks every
 * question in every search mode, and prints session-level Recall@10, MRR@10 and
 * nDCG@10 per stratum. LOOKBACK_RECALL_SESSIONS sets the corpus size.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { discardFile } from '../../../src/demo/store.js';
import { join, resolve } from 'node:path';
import { Store } from '../../../src/store/store.js';
import { buildRecallCorpus, loadRecallCorpus } from './corpus.js';
import { lexicalModes } from './modes.js';
import { headroom, report } from './report.js';
import { RandomIndexing } from './randomIndexing.js';
import { Lsa } from './lsa.js';
import { semanticModes } from './semanticModes.js';
import { openUseLite } from './useLite.js';
import { model2vecThroughput } from './model2vecShape.js';
import { discardFile as discardVectors } from '../../../src/demo/store.js';
import { execFileSync } from 'node:child_process';

const ROOT = resolve(import.meta.dirname, '..');
const DIR = resolve(process.env.LOOKBACK_BENCH_DIR ?? join(ROOT, '.bench'));
const SESSIONS = Number(process.env.LOOKBACK_RECALL_SESSIONS ?? 2000);

mkdirSync(DIR, { recursive: true });
const path = join(DIR, `recall-${SESSIONS}s.db`);
// The corpus is rebuilt every run (the needles may have changed), unless asked to keep it.
if (process.env.LOOKBACK_RECALL_KEEP !== '1') discardFile(path);
const t0 = performance.now();
const corpus = existsSync(path) ? loadRecallCorpus(path) : buildRecallCorpus(path, SESSIONS);
console.log(
  `corpus: ${corpus.sessions} sessions, ${corpus.messages.toLocaleString()} messages, ${corpus.qrels.length} questions, ${corpus.thinned ?? 0} sessions thinned (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);
const store = Store.open(path);
// LOOKBACK_RECALL_SEMANTIC=0 leaves out the semantic and hybrid modes (embedding takes a while).
const vectorsDir = join(DIR, `recall-${SESSIONS}s-vectors`);
if (process.env.LOOKBACK_RECALL_KEEP !== '1') discardVectors(join(vectorsDir, 'vectors.db'));
const semantic =
  process.env.LOOKBACK_RECALL_SEMANTIC === '0'
    ? null
    : await semanticModes(store, vectorsDir, [
        {
          name: 'ri',
          make: () =>
            new RandomIndexing(
              store
                .stmt(
                  `SELECT content FROM messages WHERE role IN ('user','assistant') AND content <> ''`,
                )
                .pluck()
                .iterate() as Iterable<string>,
            ),
        },
        // LOOKBACK_RECALL_LSA=0 leaves out the corpus LSA control (lsa.ts).
        ...(process.env.LOOKBACK_RECALL_LSA === '0'
          ? []
          : [
              {
                name: 'lsa',
                make: () =>
                  new Lsa(
                    store
                      .stmt(
                        `SELECT content FROM messages WHERE role IN ('user','assistant') AND content <> ''`,
                      )
                      .pluck()
                      .iterate() as Iterable<string>,
                  ),
              },
            ]),
        // LOOKBACK_RECALL_USE=DIR: USE-lite too, from a folder it was installed in (useLite.ts).
        ...(process.env.LOOKBACK_RECALL_USE
          ? [{ name: 'use', make: () => openUseLite(process.env.LOOKBACK_RECALL_USE!) }]
          : []),
      ]);
try {
  const modes = [...lexicalModes(store), ...(semantic?.modes ?? [])];
  for (const m of modes) await m.prepare?.(corpus.qrels.map((q) => q.query));
  for (const n of semantic?.notes ?? []) console.log(`embedding ${n}`);
  for (const n of semantic?.standouts(corpus.qrels) ?? []) console.log(`standout ${n}`);
  // LOOKBACK_RECALL_M2V=1: time the model2vec path on a model of the real shape.
  if (process.env.LOOKBACK_RECALL_M2V === '1')
    console.log(`embedding ${await model2vecThroughput(store, vectorsDir)}`);
  console.log(`load: ${execFileSync('uptime').toString().trim()}`);
  console.log(report(corpus.qrels, modes));
  // LOOKBACK_RECALL_MISSES=mode: the questions that mode does not answer in its top 3, with their half.
  const misses = modes.find((m) => m.name === process.env.LOOKBACK_RECALL_MISSES);
  if (misses)
    for (const q of corpus.qrels) {
      if (q.session === null) continue;
      const at = misses.search(q.query).findIndex((r) => r.root === q.session);
      if (at < 0 || at > 2)
        console.log(`${q.stratum}\t${q.half}\t${at < 0 ? 'miss' : `#${at + 1}`}\t${q.query}`);
    }
  // LOOKBACK_RECALL_HEADROOM=NAME: per tune-half paraphrase, the rank (top 10) of its conversation in
  // relaxed, semantic:NAME and every mode ending in :NAME or :NAME:… (held-out is never printed: tuning looks at tune only).
  const hr = process.env.LOOKBACK_RECALL_HEADROOM;
  if (hr) console.log(headroom(corpus.qrels, modes, hr));
} finally {
  semantic?.close();
  store.close();
}
