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

describe('recall benchmark (small scale)', () => {
  it('relaxed beats exact on paraphrases with no regression where exact already answers', () => {
    const corpus = buildRecallCorpus(join(tempDir(), 'recall.db'), 120);
    expect(corpus.qrels.length).toBeGreaterThan(150);
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
});
