/**
 * The shipped hybrid (`hybrid` in src/semantic/fuse.ts, what every door calls):
 * exact hits first, then the confident blend, whose semantic weight follows
 * how far the semantic leg's best candidate stands out.
 */
import { describe, expect, it } from 'vitest';
import {
  HYBRID_ALPHA,
  HYBRID_CONFIDENCE,
  hybrid,
  semanticStandout,
} from '../../src/semantic/fuse.js';

/** One exact hit, then 30 relaxed ones (r1 best), as discover's relaxed leg hands them. */
const lexical = [
  { key: 'exact', item: 'exact', exact: true },
  ...Array.from({ length: 30 }, (_, i) => ({ key: `r${i + 1}`, item: `r${i + 1}`, exact: false })),
];

/** Cosines of every candidate: relaxed ones spread a little around `base`, the semantic-only `s` at `s`. */
function cosines(base: number, s: number): Map<string, number> {
  const m = new Map<string, number>([['exact', base]]);
  for (let i = 1; i <= 30; i++) m.set(`r${i}`, base + ((i * 7) % 5) * 0.01);
  m.set('s', s);
  return m;
}

function run(cos: Map<string, number>) {
  const semantic = [...cos]
    .sort((a, b) => b[1] - a[1])
    .map(([key, c]) => ({ key, item: key, cos: c }));
  return hybrid(lexical, semantic, 40, (key) =>
    cos.has(key) ? { cos: cos.get(key)!, item: key } : null,
  );
}

describe('the shipped hybrid: a confident blend', () => {
  it('keeps exact hits first and puts a clearly similar semantic-only conversation above weak relaxed ones', () => {
    const cos = cosines(0.2, 0.9);
    expect(semanticStandout([...cos.values()])).toBeGreaterThan(HYBRID_CONFIDENCE.to);
    const out = run(cos);
    const keys = out.map((f) => f.key);
    expect(keys[0]).toBe('exact');
    // The semantic-only conversation climbs above every relaxed hit but the first few.
    const at = keys.indexOf('s');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(keys.indexOf('r10'));
    expect(out[at]!).toMatchObject({ lexical_rank: null, semantic_rank: 1 });
    expect(out[at]!.semantic_weight).toBeCloseTo(HYBRID_ALPHA, 9);
    // A relaxed hit with no better similarity keeps its lexical order among the others.
    const relaxed = keys.filter((k) => k.startsWith('r'));
    expect(relaxed.indexOf('r1')).toBeLessThan(relaxed.indexOf('r20'));
  });

  it('leaves relaxed lexical order alone when the embedder scores every candidate alike', () => {
    // A weak embedder: the semantic-only conversation is its best, but barely above the rest.
    const cos = cosines(0.5, 0.545);
    expect(semanticStandout([...cos.values()])).toBeLessThan(HYBRID_CONFIDENCE.from);
    const out = run(cos);
    const keys = out.map((f) => f.key);
    expect(keys).toEqual(['exact', ...Array.from({ length: 30 }, (_, i) => `r${i + 1}`), 's']);
    expect(out.every((f) => f.semantic_weight === 0)).toBe(true);
  });

  it('keeps exact hits in lexical order even when the semantic leg is confident about another', () => {
    const lex = [
      { key: 'a', item: 'a', exact: true },
      { key: 'b', item: 'b', exact: true },
      ...lexical.slice(1),
    ];
    const cos = cosines(0.2, 0.95);
    cos.set('a', 0.1);
    cos.set('b', 0.05);
    const semantic = [{ key: 's', item: 's', cos: 0.95 }];
    const out = hybrid(lex, semantic, 12, (key) =>
      cos.has(key) ? { cos: cos.get(key)!, item: key } : null,
    );
    const keys = out.map((f) => f.key);
    expect(keys.slice(0, 2)).toEqual(['a', 'b']);
    expect(keys).toContain('s');
  });

  it('without cosOf judges only on the semantic leg’s own cosines', () => {
    const out = hybrid(
      [{ key: 'x', item: 'x', exact: false }],
      [{ key: 'y', item: 'y', cos: 0.9 }],
      5,
    );
    // Two candidates: no spread to stand out from, so no semantic weight; lexical first.
    expect(out.map((f) => f.key)).toEqual(['x', 'y']);
  });
});
