/**
 * The shipped hybrid (`hybrid` in src/semantic/fuse.ts, what every door calls):
 * exact hits first, then the confident blend, whose semantic weight follows
 * how far the semantic leg's best candidate stands out.
 */
import { describe, expect, it } from 'vitest';
import {
  blend,
  HYBRID_ALPHA,
  HYBRID_BLEND_K,
  HYBRID_CONFIDENCE,
  HYBRID_RESERVE,
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

  describe('the reserve: the page’s last places kept for the semantic leg’s best', () => {
    const relaxedOnly = lexical.slice(1);
    const page = (cos: Map<string, number>, limit = 10, lex = relaxedOnly) => {
      const semantic = [...cos]
        .sort((a, b) => b[1] - a[1])
        .map(([key, c]) => ({ key, item: key, cos: c }));
      const cosOf = (key: string) => (cos.has(key) ? { cos: cos.get(key)!, item: key } : null);
      return {
        shipped: hybrid(lex, semantic, limit, cosOf),
        // The same blend without the reserve: what the page was before it.
        unreserved: blend(
          lex,
          semantic,
          cosOf,
          limit,
          HYBRID_ALPHA,
          HYBRID_BLEND_K,
          HYBRID_CONFIDENCE,
        ),
      };
    };

    it('puts a conversation only the semantic leg finds, at its rank 1, on a page of 10 even when its standout earns no weight', () => {
      // A flat embedder: `s` is its best but barely, so the blend gives it no weight.
      const cos = cosines(0.5, 0.545);
      expect(semanticStandout([...cos.values()])).toBeLessThan(HYBRID_CONFIDENCE.from);
      const { shipped, unreserved } = page(cos);
      expect(unreserved.map((f) => f.key)).not.toContain('s');
      const keys = shipped.map((f) => f.key);
      expect(keys).toHaveLength(10);
      const at = keys.indexOf('s');
      expect(at).toBeGreaterThanOrEqual(10 - HYBRID_RESERVE.slots);
      expect(shipped[at]).toMatchObject({
        lexical_rank: null,
        semantic_rank: 1,
        reserved: true,
        semantic_weight: 0,
      });
      // Conversations both legs found keep their places above the reserve.
      expect(keys.slice(0, 10 - HYBRID_RESERVE.slots)).toEqual(
        unreserved.slice(0, 10 - HYBRID_RESERVE.slots).map((f) => f.key),
      );
      expect(keys.slice(0, 8)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8']);
      // Scores never rise down the page.
      for (let i = 1; i < shipped.length; i++)
        expect(shipped[i]!.fused).toBeLessThanOrEqual(shipped[i - 1]!.fused);
    });

    it('changes nothing when the semantic leg’s best are already on the page', () => {
      const cos = cosines(0.5, 0.5);
      cos.delete('s');
      for (const [k, c] of [
        ['r1', 0.9],
        ['r2', 0.89],
        ['r3', 0.88],
      ] as const)
        cos.set(k, c);
      const { shipped, unreserved } = page(cos);
      expect(shipped.map((f) => f.key)).toEqual(unreserved.map((f) => f.key));
      expect(shipped.some((f) => f.reserved)).toBe(false);
    });

    it('takes only the semantic leg’s top HYBRID_RESERVE.within', () => {
      // The semantic leg's top three are on the page; `s` is its fourth: it stays off.
      const cos = cosines(0.5, 0.5);
      for (const [k, c] of [
        ['r1', 0.9],
        ['r2', 0.89],
        ['r3', 0.88],
        ['s', 0.87],
      ] as const)
        cos.set(k, c);
      expect(HYBRID_RESERVE.within).toBe(3);
      const keys = page(cos).shipped.map((f) => f.key);
      expect(keys).not.toContain('s');
      expect(keys).toHaveLength(10);
    });

    it('never displaces an exact hit', () => {
      const exact = Array.from({ length: 10 }, (_, i) => ({
        key: `e${i + 1}`,
        item: `e${i + 1}`,
        exact: true,
      }));
      const cos = new Map<string, number>(exact.map((e, i) => [e.key, 0.2 + i * 0.001]));
      cos.set('s', 0.95);
      const { shipped } = page(cos, 10, [...exact, ...relaxedOnly]);
      expect(shipped.map((f) => f.key)).toEqual(exact.map((e) => e.key));
      // Nine exact hits leave one place: the semantic leg's best takes it.
      const nine = page(cos, 10, [...exact.slice(0, 9), ...relaxedOnly]).shipped;
      expect(nine.map((f) => f.key)).toEqual([...exact.slice(0, 9).map((e) => e.key), 's']);
    });
  });
});
