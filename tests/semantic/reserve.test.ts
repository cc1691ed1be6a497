/**
 * The hybrid's kept places (`HYBRID_RESERVE` in src/semantic/fuse.ts) at the
 * command line, end to end: the built binary, a real store, a model2vec folder
 * the test writes. "puppy walk": six conversations say "walk" (relaxed hits,
 * none has every word), and one says only "dog", which this model reads as
 * "puppy". The semantic leg's best is the dog conversation, but not by enough
 * to earn the blend any weight; the page's last places still show it, marked.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { HYBRID_RESERVE } from '../../src/semantic/fuse.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { writeModel2Vec } from './tinyModel.js';

const DIMS = 8;
const unit = (i: number): number[] => Array.from({ length: DIMS }, (_, j) => (j === i ? 1 : 0));
/** puppy and dog share a row (the model's "meaning"); walk and the colours are apart from it. */
const WORDS: [string, number][] = [
  ['[PAD]', 6],
  ['[UNK]', 5],
  ['[CLS]', 6],
  ['[SEP]', 6],
  ['walk', 0],
  ['dog', 1],
  ['puppy', 1],
  ['red', 2],
  ['blue', 3],
  ['green', 4],
  ['.', 7],
];

type Hit = { session_id: string; match?: string; score_parts: Record<string, unknown> };

describe('hybrid keeps its last places for the semantic leg', () => {
  it('shows the conversation only the semantic leg finds, marked semantic_reserve, below the relaxed hits it keeps in order', () => {
    const dir = tempDir();
    const db = join(dir, 'state.db');
    generateStore(db, { layout: 30, sessions: 3, seed: 5 });
    const w = new Database(db);
    const walks = [
      'walk red',
      'walk blue',
      'walk green',
      'walk red blue',
      'walk blue green',
      'walk green red',
    ].map((content) => {
      const id = insertSession(w, { source: 'cli', title: content });
      insertMessage(w, { session_id: id, role: 'user', content });
      return id;
    });
    const dog = insertSession(w, { source: 'cli', title: 'pets' });
    insertMessage(w, { session_id: dog, role: 'user', content: 'dog' });
    w.close();
    const model = writeModel2Vec(
      join(dir, 'model'),
      WORDS.map(([t]) => t),
      WORDS.map(([, i]) => unit(i)),
    );
    const env = { LOOKBACK_VECTORS_DB: join(dir, 'cache', 'vectors.db') };
    const run = (limit: number): Hit[] => {
      const r = lookback(
        [
          'search',
          'puppy walk',
          '--db',
          db,
          '--mode',
          'hybrid',
          '--embedder',
          `model2vec:${model}`,
          '--limit',
          String(limit),
          '--json',
        ],
        env,
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const a = r.json();
      expect(a.mode_realized).toBe('hybrid');
      return a.results as Hit[];
    };
    const limit = 4;
    const page = run(limit);
    expect(page).toHaveLength(limit);
    // Above the kept places: the relaxed hits in relaxed order, nothing marked.
    const kept = limit - HYBRID_RESERVE.slots;
    page.slice(0, kept).forEach((h, i) => {
      expect(walks).toContain(h.session_id);
      expect(['relaxed', 'lex+sem']).toContain(h.match);
      expect(h.score_parts.lexical_rank).toBe(i + 1);
      expect(h.score_parts.semantic_reserve).toBeUndefined();
    });
    // The dog conversation: the semantic leg's best, too flat a lead for weight, shown anyway.
    const at = page.findIndex((h) => h.session_id === dog);
    expect(at).toBeGreaterThanOrEqual(kept);
    expect(page[at]).toMatchObject({
      match: 'semantic',
      score_parts: { lexical_rank: null, semantic_rank: 1, semantic_reserve: true },
    });
    expect(page[at]!.score_parts.semantic_weight as number).toBeLessThan(0.2);
    // The page's fused scores never rise down the page.
    const fused = page.map((h) => h.score_parts.fused as number);
    for (let i = 1; i < fused.length; i++) expect(fused[i]!).toBeLessThanOrEqual(fused[i - 1]!);
    // A longer page has room for it by the blend's own order: nothing is marked.
    const all = run(20);
    expect(all.map((h) => h.session_id)).toContain(dog);
    expect(all.every((h) => h.score_parts.semantic_reserve === undefined)).toBe(true);
  });
});
