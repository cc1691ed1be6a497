/**
 * The agents' hybrid says `lex+sem` only when both legs found the hit. The
 * blend also gives a cosine to a conversation only the lexical leg found (its
 * best message's, through `cosOf`): that hit stays `relaxed`, with no semantic
 * rank. An embedder of a few fixed directions places each conversation:
 * ZEBRA_NEAR and 55 others lie near the query, ZEBRA_FAR far from it, so the
 * semantic leg's 50 conversations leave ZEBRA_FAR out while the lexical leg
 * finds both zebras.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { semanticAgentsSearch } from '../../src/semantic/agents.js';
import { normalise, type Embedder } from '../../src/semantic/types.js';
import { tempDir } from '../helpers/fixtures.js';
import { PROJ, claudeLines } from './agentHome.js';

const ZEBRA_NEAR = 'abcd0001-0000-4000-8000-000000000001';
const ZEBRA_FAR = 'abcd0002-0000-4000-8000-000000000002';
const OTHERS = 55;
const other = (i: number) => `abcd1${String(i).padStart(3, '0')}-0000-4000-8000-000000000000`;

/** Directions by word: the query and "grazing"/"savanna" along one axis, "stripes" mostly off it. */
const directions: Embedder = {
  id: 'directions',
  dims: 4,
  fingerprint: 'directions:v1',
  remote: false,
  embed: (texts) =>
    Promise.resolve(
      texts.map((t) =>
        normalise(
          Float32Array.from(
            /quokka|grazing/.test(t)
              ? [1, 0, 0, 0]
              : /savanna/.test(t)
                ? [1, 0.3, 0, 0]
                : /stripes/.test(t)
                  ? [0.2, 0, 1, 0]
                  : [0, 0, 0, 1],
          ),
          t,
        ),
      ),
    ),
};

describe("the agents' lex+sem label", () => {
  it('is given only when both legs found the hit, not when the blend gave it a cosine', async () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    const proj = join(home, ...PROJ);
    mkdirSync(proj, { recursive: true });
    const put = (id: string, text: string) =>
      writeFileSync(
        join(proj, `${id}.jsonl`),
        claudeLines(id, [
          ['user', text],
          ['assistant', 'noted'],
        ]).join('\n') + '\n',
      );
    put(ZEBRA_NEAR, 'zebra grazing');
    put(ZEBRA_FAR, 'zebra stripes');
    for (let i = 0; i < OTHERS; i++) put(other(i), `savanna walk ${i}`);
    const { db } = openIndex(join(dir, 'agents.db'));
    try {
      indexAll(db, { env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' } });
      const a = await semanticAgentsSearch(db, ['claude'], 'zebra quokka', {
        mode: 'hybrid',
        embedder: directions,
        limit: 60,
        vectorsPath: join(dir, 'vectors.db'),
      });
      expect(a.mode_realized).toBe('hybrid');
      type Hit = { session_id: string; match?: string; score_parts: Record<string, unknown> };
      const hits = a.results as Hit[];
      const near = hits.find((h) => h.session_id === ZEBRA_NEAR)!;
      const far = hits.find((h) => h.session_id === ZEBRA_FAR)!;
      // Both legs found ZEBRA_NEAR.
      expect(near.match).toBe('lex+sem');
      expect(near.score_parts.lexical_rank).not.toBeNull();
      expect(near.score_parts.semantic_rank).not.toBeNull();
      // The semantic leg's 50 conversations are ZEBRA_NEAR and savanna ones: ZEBRA_FAR is not among them.
      const semantic = hits.filter((h) => h.score_parts.semantic_rank !== null);
      expect(semantic.length).toBe(50);
      expect(semantic.some((h) => h.session_id === ZEBRA_FAR)).toBe(false);
      // ZEBRA_FAR: the lexical leg only. The blend weighed it by its best cosine, shown,
      // but it is relaxed, not lex+sem.
      expect(far.score_parts.lexical_rank).not.toBeNull();
      expect(far.score_parts.semantic_rank).toBeNull();
      expect(far.score_parts.cosine).toBeCloseTo(0.2 / Math.hypot(0.2, 1), 1);
      expect(far.match).toBe('relaxed');
    } finally {
      db.close();
    }
  });
});
