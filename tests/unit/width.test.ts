import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitize } from '../../src/text/sanitize.js';
import {
  displayWidth,
  expandTabs,
  graphemes,
  padEnd,
  truncate,
  wrap,
} from '../../src/text/width.js';

const FAMILY = '👨\u200d👩\u200d👧';
const segmenter = new Intl.Segmenter();
const intlGraphemes = (s: string): string[] => Array.from(segmenter.segment(s), (x) => x.segment);

/** Text that a layout must cope with: words, CJK, emoji, combining marks, spaces, newlines, tabs. */
const layoutUnit = fc.oneof(
  fc.constantFrom(
    ' ',
    ' ',
    ' ',
    '\n',
    '\t',
    '-',
    '中',
    '文',
    '한',
    'ｶ',
    '😀',
    FAMILY,
    'e\u0301',
    '🇯🇵',
  ),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
);
const layoutText = fc.array(layoutUnit, { maxLength: 80 }).map((parts) => parts.join(''));

describe('displayWidth', () => {
  it('counts CJK and emoji as two columns, combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('中文')).toBe(4);
    expect(displayWidth('한국어')).toBe(6);
    expect(displayWidth('😀')).toBe(2);
    expect(displayWidth(FAMILY)).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('')).toBe(0);
    expect(displayWidth('\ud800')).toBe(0);
  });

  it('measures a prepended character apart from what follows it, as a terminal draws them', () => {
    // U+0D4E joins the next character into one grapheme (GB9b); a terminal gives each a column.
    expect(displayWidth('\u0d4e')).toBe(1);
    expect(displayWidth('\u0d4e ')).toBe(2);
    expect(displayWidth('\u0d4e\u2026')).toBe(2);
    expect(displayWidth(padEnd('\u0d4e', 2))).toBe(2);
    expect(displayWidth(truncate('\u0d4e\u0d4ea', 2))).toBeLessThanOrEqual(2);
    // One outside the BMP, alone and before another character.
    expect(displayWidth('\u{11a84}')).toBe(displayWidth('\u{11a84}x') - 1);
    expect(wrap('\u{11a84}', 1).every((l) => displayWidth(l) <= 1)).toBe(true);
  });
});

describe('truncate', () => {
  it('leaves text that fits alone', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('中文', 4)).toBe('中文');
  });

  it('cuts with an ellipsis within the width', () => {
    expect(truncate('hello world', 5)).toBe('hell…');
    expect(truncate('中文字幕', 5)).toBe('中文…');
    expect(truncate('中文字幕', 4)).toBe('中…');
    expect(truncate('abc', 1)).toBe('…');
    expect(truncate('hello', 3, '...')).toBe('...');
    expect(truncate('hello', 2, '...')).toBe('he');
  });

  it('never splits a grapheme', () => {
    expect(truncate(`${FAMILY}${FAMILY}`, 3)).toBe(`${FAMILY}…`);
    expect(truncate('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
    expect(truncate('😀😀', 2)).toBe('…');
  });

  it('returns empty for width 0 or nonsense widths', () => {
    expect(truncate('abc', 0)).toBe('');
    expect(truncate('abc', -3)).toBe('');
    expect(truncate('abc', Number.NaN)).toBe('');
  });

  it('is cheap on a huge string', () => {
    const s = '中'.repeat(2_000_000);
    expect(truncate(s, 10)).toBe('中中中中…');
  });

  it('never exceeds the width and keeps a prefix (property)', () => {
    fc.assert(
      fc.property(layoutText, fc.integer({ min: 0, max: 120 }), (s, width) => {
        const out = truncate(s, width);
        expect(displayWidth(out)).toBeLessThanOrEqual(width);
        const kept = out.endsWith('…') && out !== s ? out.slice(0, -1) : out;
        expect(s.startsWith(kept)).toBe(true);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 0, max: 40 }), (s, width) => {
        expect(displayWidth(truncate(s, width))).toBeLessThanOrEqual(width);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('padEnd', () => {
  it('pads or truncates to exactly the width', () => {
    expect(padEnd('ab', 4)).toBe('ab  ');
    expect(padEnd('中', 3)).toBe('中 ');
    expect(padEnd('abcdef', 3)).toBe('ab…');
    expect(padEnd('中文字', 5)).toBe('中文…');
    expect(padEnd('中文字', 4)).toBe('中… ');
    expect(padEnd('x', 0)).toBe('');
  });

  it('always yields exactly the width (property)', () => {
    fc.assert(
      fc.property(layoutText, fc.integer({ min: 0, max: 80 }), (s, width) => {
        expect(displayWidth(padEnd(sanitize(s).replace(/[\n\t]/g, ' '), width))).toBe(width);
      }),
      { numRuns: 500 },
    );
  });
});

describe('wrap', () => {
  it('word-wraps at spaces and drops the spaces at the wrap', () => {
    expect(wrap('hello world foo', 11)).toEqual(['hello world', 'foo']);
    expect(wrap('hello world foo', 5)).toEqual(['hello', 'world', 'foo']);
    expect(wrap('aa bb   cc', 6)).toEqual(['aa bb', 'cc']);
  });

  it('breaks words longer than the line', () => {
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('see https://example.com/a/very/long/path', 12)).toEqual([
      'see',
      'https://exam',
      'ple.com/a/ve',
      'ry/long/path',
    ]);
  });

  it('breaks after hyphens', () => {
    expect(wrap('state-of-the-art', 10)).toEqual(['state-of-', 'the-art']);
  });

  it('wraps CJK by character and never splits a wide character', () => {
    expect(wrap('数据库迁移计划', 6)).toEqual(['数据库', '迁移计', '划']);
    expect(wrap('数据库迁移计划', 5)).toEqual(['数据', '库迁', '移计', '划']);
    expect(wrap('ab数据库', 5)).toEqual(['ab数', '据库']);
  });

  it('keeps explicit newlines and empty lines', () => {
    expect(wrap('a\n\nb', 10)).toEqual(['a', '', 'b']);
    expect(wrap('', 10)).toEqual(['']);
    expect(wrap('x\n', 10)).toEqual(['x', '']);
  });

  it('keeps indentation of a line but not at soft wraps', () => {
    expect(wrap('    code here', 9)).toEqual(['    code', 'here']);
  });

  it('expands tabs', () => {
    expect(wrap('a\tb', 10)).toEqual(['a   b']);
  });

  it('keeps emoji and combining sequences whole', () => {
    expect(wrap(`${FAMILY}${FAMILY}${FAMILY}`, 4)).toEqual([`${FAMILY}${FAMILY}`, FAMILY]);
    expect(wrap('e\u0301e\u0301e\u0301', 2)).toEqual(['e\u0301e\u0301', 'e\u0301']);
  });

  it('puts a placeholder for a character wider than the line', () => {
    expect(wrap('中a', 1)).toEqual(['?', 'a']);
  });

  it('returns no lines for width < 1', () => {
    expect(wrap('abc', 0)).toEqual([]);
  });

  it('wraps a 100 KB message', () => {
    const text = 'The quick brown fox 数据库迁移 jumps over the lazy dog 😀.\n'.repeat(2000);
    const lines = wrap(text, 80);
    expect(lines.length).toBeGreaterThan(1000);
    expect(lines.every((l) => displayWidth(l) <= 80)).toBe(true);
  });

  it('keeps every line within the width (property)', () => {
    fc.assert(
      fc.property(layoutText, fc.integer({ min: 1, max: 200 }), (s, width) => {
        for (const line of wrap(s, width)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 200 }), (s, width) => {
        for (const line of wrap(s, width)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      }),
      { numRuns: 1000 },
    );
  });

  it('loses no visible text and splits no grapheme (property)', () => {
    fc.assert(
      fc.property(layoutText, fc.integer({ min: 2, max: 60 }), (s, width) => {
        const clean = sanitize(s);
        // A grapheme wider than the line is replaced by a placeholder, by design.
        fc.pre(graphemes(clean).every((g) => displayWidth(g) <= width));
        const lines = wrap(clean, width);
        const squash = (x: string): string => x.replace(/\s+/g, '');
        expect(squash(lines.join(''))).toBe(squash(clean));
        const expected = intlGraphemes(squash(clean));
        expect(lines.flatMap((l) => intlGraphemes(squash(l)))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('expandTabs', () => {
  it('expands to tab stops counted in display columns', () => {
    expect(expandTabs('a\tb', 4)).toBe('a   b');
    expect(expandTabs('\tx', 4)).toBe('    x');
    expect(expandTabs('中\tx', 4)).toBe('中  x');
    expect(expandTabs('abcd\tx', 4)).toBe('abcd    x');
    expect(expandTabs('ab\n\tc', 4)).toBe('ab\n    c');
    expect(expandTabs('no tabs')).toBe('no tabs');
  });
});

describe('graphemes', () => {
  it('agrees with Intl.Segmenter (property)', () => {
    fc.assert(
      fc.property(fc.oneof(layoutText, fc.string({ unit: 'binary', maxLength: 200 })), (s) => {
        expect(graphemes(s)).toEqual([...segmenter.segment(s)].map((x) => x.segment));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with Intl.Segmenter on tricky sequences', () => {
    const tricky = [
      'क्षत्रिय', // Indic conjuncts (GB9c)
      '\u0600١٢', // Arabic number sign (Prepend) before digits
      '\u0600a',
      'ᄀ가각', // leading jamo before a syllable
      '🇯🇵🇫🇷🇩🇪',
      '1\ufe0f\u20e3#\ufe0f\u20e3',
      `${FAMILY}中a`,
      '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}x',
      '\r\nx\ry',
    ];
    for (const s of tricky)
      expect(graphemes(s)).toEqual([...segmenter.segment(s)].map((x) => x.segment));
  });

  it('cuts only at real boundaries: every fast-path character after awkward predecessors', () => {
    const ranges: Array<[number, number, number]> = [
      [0x20, 0x7e, 1],
      [0xa0, 0x2ff, 1],
      [0x370, 0x52f, 1],
      [0x2010, 0x2027, 1],
      [0x2500, 0x257f, 1],
      [0x3000, 0x30ff, 1],
      [0x3400, 0x4dbf, 53],
      [0x4e00, 0x9fff, 97],
      [0xac00, 0xd7a3, 89],
      [0xff01, 0xff60, 1],
    ];
    const before = [
      'a',
      'क्',
      '😀\u200d',
      '\u1100',
      '\u1161',
      '\u11a8',
      '\uac00',
      '\ua960',
      '🇦',
      'e\u0301',
      '\r',
      '\u0600',
      '\u{110bd}',
      '\ud800',
      '\x00',
    ];
    const mismatches: string[] = [];
    for (const [lo, hi, step] of ranges) {
      for (let c = lo; c <= hi; c += step) {
        for (const p of before) {
          const s = p + String.fromCharCode(c) + '\u0301';
          const expected = [...segmenter.segment(s)].map((x) => x.segment);
          if (JSON.stringify(graphemes(s)) !== JSON.stringify(expected)) mismatches.push(s);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('stays linear on long runs without spaces and keeps pairs whole', () => {
    const emoji = '😀'.repeat(20_000);
    const out = graphemes(emoji);
    expect(out.length).toBe(20_000);
    expect(out.every((g) => g === '😀')).toBe(true);
    const cjk = '数据库迁移计划'.repeat(20_000);
    expect(graphemes(cjk).length).toBe(140_000);
  });
});
