import { describe, expect, it } from 'vitest';
import { lookbackSegmenter, singletonStarts, SIMPLE_RANGES } from '../../src/text/segmenter.js';
import { SIMPLE_RANGES as WIDTH_SIMPLE_RANGES } from '../../scripts/widthPatch.mjs';
import { patchSegmenterSource } from '../../scripts/segmenterPatch.mjs';

const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const plain = (segs: Iterable<Intl.SegmentData>) =>
  [...segs].map(({ segment, index, input }) => ({ segment, index, input }));

/** A small deterministic generator (xorshift) so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

// Characters of the fast class, and every kind that must make it fall back.
const SIMPLE = ['a', 'Z', ' ', '~', '·', '…', '│', '─', '数', '가', '▶', '⚑', 'Ж', 'ω', '😅', '🌍'];
const CONTROL = ['\x1b', '\t', '\r', '\n', '\x7f', '\x85', '\x00'];
const OTHER = ['\u0301', '\u200d', '👍🏽', '🇫🇷', '\u1100', '\u1161', 'e\u0301', '\ufe0f', '\u0600'];
const ANSI = ['\x1b[31m', '\x1b[0m', '\x1b]8;;http://x\x07', '\x1b[1;38;5;208m'];

describe('lookbackSegmenter (src/text/segmenter.ts)', () => {
  it('uses the same class as the string-width patch', () => {
    expect(SIMPLE_RANGES).toEqual(WIDTH_SIMPLE_RANGES);
  });

  it('segments every code point of the class and every control beside each other as Intl.Segmenter does', () => {
    const seg = lookbackSegmenter(undefined, { granularity: 'grapheme' });
    const singles: string[] = [];
    for (const [lo, hi] of SIMPLE_RANGES)
      for (let c = lo; c <= hi; c += Math.max(1, Math.floor((hi - lo) / 40)))
        singles.push(String.fromCodePoint(c));
    for (let c = 0; c < 0xa0; c++) singles.push(String.fromCodePoint(c));
    const neighbours = [...SIMPLE, ...CONTROL];
    for (const c of singles)
      for (const n of neighbours)
        for (const s of [`${n}${c}`, `${c}${n}`, `${n}${c}${n}`])
          expect(plain(seg.segment(s)), JSON.stringify(s)).toEqual(plain(real.segment(s)));
  });

  it('gives Intl.Segmenter’s answer for random mixed strings, ANSI codes, CR LF and joiners included', () => {
    const seg = lookbackSegmenter();
    const next = rng(20);
    const pool = [...SIMPLE, ...CONTROL, ...OTHER, ...ANSI, '\r\n'];
    let fast = 0;
    for (let k = 0; k < 3000; k++) {
      const n = Math.floor(next() * 12);
      // Half the strings from the fast class only, half from everything.
      const from = k % 2 === 0 ? [...SIMPLE, ...ANSI, '\t'] : pool;
      let s = '';
      for (let i = 0; i < n; i++) s += from[Math.floor(next() * from.length)];
      if (singletonStarts(s) !== null) fast++;
      expect(plain(seg.segment(s)), JSON.stringify(s)).toEqual(plain(real.segment(s)));
      const segs = seg.segment(s);
      const truth = real.segment(s);
      for (let i = -1; i <= s.length; i++)
        expect(segs.containing(i), `${JSON.stringify(s)} at ${i}`).toEqual(
          truth.containing(i) && { ...truth.containing(i) },
        );
    }
    // The fast path was taken, and so was the fallback.
    expect(fast).toBeGreaterThan(1000);
    expect(fast).toBeLessThan(3000);
  });

  it('takes the fast path only for one-code-point graphemes: CR LF, marks, joiners, flags, modifiers fall back', () => {
    expect(singletonStarts('a│数😅\x1b[0m')).toEqual([0, 1, 2, 3, 5, 6, 7, 8]);
    for (const s of ['a\r\nb', 'e\u0301', 'a\u200db', '🇫🇷', '👍🏽', '\u1100\u1161', 'x\ufe0f'])
      expect(singletonStarts(s), JSON.stringify(s)).toBeNull();
    expect(singletonStarts('\r')).toEqual([0]);
    expect(singletonStarts('\n\r')).toEqual([0, 1]);
  });

  it('refuses a dependency file it was not written for instead of skipping it', () => {
    expect(() =>
      patchSegmenterSource(
        'const segmenter = new Intl.Segmenter("en");\n',
        '/x/node_modules/string-width/index.js',
      ),
    ).toThrow(/not the file/);
    expect(
      patchSegmenterSource(
        'const segmenter = new Intl.Segmenter();\nexport default 1;\n',
        '/x/node_modules/string-width/index.js',
      ),
    ).toContain('const segmenter = __lookbackSegmenter();');
  });
});
