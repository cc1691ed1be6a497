/**
 * The recall benchmark (npm run bench:recall) on a small scale: the same
 * needles and questions over a small generated store, through the real search.
 * It guards the gates of #22: relaxed recall finds paraphrases the exact search
 * cannot, and loses nothing on exact words, identifiers and error messages.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { buildRecallCorpus } from '../bench/recall/corpus.js';
import { lexicalModes } from '../bench/recall/modes.js';
import { runModes } from '../bench/recall/report.js';
import { tempDir } from '../helpers/fixtures.js';
import { RandomIndexing } from '../bench/recall/randomIndexing.js';
import { semanticModes } from '../bench/recall/semanticModes.js';

describe('recall benchmark (small scale)', () => {
  it('relaxed beats exact on paraphrases with no regression where exact already answers', () => {
    const corpus = buildRecallCorpus(join(tempDir(), 'recall.db'), 120);
    expect(corpus.qrels.length).toBeGreaterThan(150);
    // The generated conversations on a needle's own topic are thinned (collisions.ts).
    expect(corpus.thinned).toBeGreaterThan(0);
    const store = Store.open(corpus.path);
    try {
      const [exact, relaxed] = runModes(corpus.qrels, lexicalModes(store));
      const at = (m: typeof exact, s: string) => m!.strata.find((x) => x.stratum === s)!;
      expect(at(exact, 'paraphrase').recall).toBe(0);
      expect(at(relaxed, 'paraphrase').recall).toBeGreaterThanOrEqual(0.5);
      for (const s of ['exact', 'identifier', 'error', 'cjk', 'crosslingual'])
        expect(at(relaxed, s).recall, s).toBeGreaterThanOrEqual(at(exact, s).recall);
      expect(at(relaxed, 'exact').recall).toBe(1);
      // A question nothing answers never gets an exact hit it should not have.
      expect(at(relaxed, 'none').exactHits).toBe(at(exact, 'none').exactHits);
    } finally {
      store.close();
    }
  });

  it('hybrid keeps every exact, identifier and error answer of relaxed, through the real embed pass', async () => {
    const corpus = buildRecallCorpus(join(tempDir(), 'recall.db'), 120);
    const store = Store.open(corpus.path);
    const texts = store
      .stmt(`SELECT content FROM messages WHERE role IN ('user','assistant') AND content <> ''`)
      .pluck()
      .all() as string[];
    const sem = await semanticModes(store, tempDir(), [
      { name: 'ri', make: () => new RandomIndexing(texts) },
    ]);
    try {
      expect(sem.notes[0]).toMatch(/^ri: [\d,]+ texts embedded for [\d,]+ messages/);
      for (const m of sem.modes) await m.prepare?.(corpus.qrels.map((q) => q.query));
      const [, relaxed] = lexicalModes(store);
      const [semantic, hybrid] = sem.modes;
      const [r, s, h] = runModes(corpus.qrels, [relaxed!, semantic!, hybrid!]);
      const at = (m: typeof r, st: string) => m!.strata.find((x) => x.stratum === st)!;
      for (const st of ['exact', 'identifier', 'error'])
        expect(at(h, st).recall, st).toBeGreaterThanOrEqual(at(r, st).recall);
      // The vector leg answers something on its own (CJK: the corpus embedder's bigrams).
      expect(at(s, 'cjk').recall).toBeGreaterThan(0.5);
    } finally {
      sem.close();
      store.close();
    }
    // A corpus built, embedded and asked 189 questions in three modes: ~15 s alone, 40 s at load 14.
  }, 120_000);
});
