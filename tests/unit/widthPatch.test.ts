/**
 * The string-width patch (scripts/widthPatch.mjs) measures "simple" characters
 * one by one, without the segmenter. Every character of its class must have
 * the width the unpatched string-width gives it, under both ambiguous-width
 * settings, and stand alone as a grapheme whatever its neighbours; random
 * strings mixing them with marks, joiners, emoji, jamo and escapes must
 * measure the same with and without the patch.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { patchWidthSource, SIMPLE_RANGES } from '../../scripts/widthPatch.mjs';

const source = readFileSync(resolve('node_modules/string-width/index.js'), 'utf8');

/** The patched function, loaded from the patched source (imports pointed at the installed packages). */
async function patchedWidth(): Promise<typeof stringWidth> {
  const dep = (name: string) => `file://${resolve(`node_modules/${name}/index.js`)}`;
  const code = patchWidthSource(source)
    .replace("from 'strip-ansi'", `from '${dep('strip-ansi')}'`)
    .replace("from 'get-east-asian-width'", `from '${dep('get-east-asian-width')}'`);
  const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  return ((await import(url)) as { default: typeof stringWidth }).default;
}

const simpleChars: string[] = SIMPLE_RANGES.flatMap(([lo, hi]) =>
  Array.from({ length: hi - lo + 1 }, (_, i) => String.fromCodePoint(lo + i)),
);
const hex = (s: string) => [...s].map((c) => `U+${c.codePointAt(0)!.toString(16)}`).join(' ');

/** Characters that join their neighbours or take the slow path, for the mixed strings. */
const TRICKY = [
  '\u0301', // combining acute
  '\u200d', // zero-width joiner
  '\ufe0f', // emoji presentation selector
  '\u20e3', // combining keycap
  '\u00ad', // soft hyphen (zero-width)
  '\u0600', // Arabic number sign (Prepend)
  '\u0e33', // Thai sara am (SpacingMark)
  '\u1100', // Hangul leading jamo
  '\u1161', // Hangul vowel jamo
  '\u11a8', // Hangul trailing jamo
  '\u3099', // combining kana voiced sound mark
  '\uff9e', // halfwidth voiced sound mark
  '\t',
  '\n',
  '⚑',
  '⚙',
  '✅',
  '☀',
  '👍',
  '🏽',
  '🇫',
  '🇷',
  '\u{e0067}', // tag
  '\x1b[31m',
  '\x1b[0m',
];

describe('the string-width patch (scripts/widthPatch.mjs)', () => {
  it('builds the RGI emoji regex on first use, not when the module loads', async () => {
    const patched = patchWidthSource(source);
    expect(source).toContain('const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;');
    expect(patched).not.toContain('/^\\p{RGI_Emoji}$/v');
    const width = await patchedWidth();
    for (const s of ['👍', '👨‍👩‍👧', '🇫🇷', '✅', 'a👍b']) expect(width(s)).toBe(stringWidth(s));
  });

  it('cuts only where a grapheme boundary is certain: between two characters of the class', () => {
    const seg = new Intl.Segmenter();
    // Every character of the class has grapheme break property Other (or is a
    // precomposed Hangul syllable, which joins only a following jamo): beside
    // itself or any other of them it stays a grapheme of its own.
    const neighbours = [
      'a',
      '·',
      '…',
      '│',
      '数',
      '가',
      '▶',
      '©',
      'Ä',
      'ｱ',
      'ω',
      'Ж',
      '⚑',
      '😅',
      '🌍',
    ];
    const joined = simpleChars.filter((c) =>
      [c, ...neighbours].some((n) =>
        [...seg.segment(`${n}${c}${n}`)].some((g) => g.segment.includes(c) && g.segment !== c),
      ),
    );
    expect(joined.map(hex)).toEqual([]);
  });

  it('gives each character of the class the width the unpatched function gives it', async () => {
    const patched = await patchedWidth();
    const wrong: string[] = [];
    for (const ambiguousIsNarrow of [true, false])
      for (const c of simpleChars) {
        const want = stringWidth(c, { ambiguousIsNarrow });
        if (patched(c, { ambiguousIsNarrow }) !== want || want < 1) wrong.push(hex(c));
      }
    expect(wrong).toEqual([]);
  });

  it('measures mixed strings as the unpatched function does', async () => {
    const patched = await patchedWidth();
    const samples = [
      'Recent · 12 conversations │ ↑↓ move … ? help',
      '⚑ pinned · 数据库迁移 · pgbouncer の timeout ── ½ × ±',
      'Ärger über Café – “quoted” ‹›',
      'a\u0301b ▶\u200d▶ ©\ufe0f 1\u20e3 \u1100가 👍🏽 🇫🇷',
      '\x1b[31mred · text\x1b[0m',
    ];
    for (const ambiguousIsNarrow of [true, false])
      for (const s of samples)
        expect([s, patched(s, { ambiguousIsNarrow })]).toEqual([
          s,
          stringWidth(s, { ambiguousIsNarrow }),
        ]);
    const pick = fc.oneof(
      fc.constantFrom(
        ...simpleChars.filter((_, i) => i % 97 === 0),
        'a',
        '·',
        '…',
        '│',
        '数',
        '가',
        '▶',
        '©',
      ),
      fc.constantFrom(...TRICKY),
    );
    fc.assert(
      fc.property(fc.array(pick, { maxLength: 24 }), fc.boolean(), (parts, ambiguousIsNarrow) => {
        const s = parts.join('');
        expect([hex(s), patched(s, { ambiguousIsNarrow })]).toEqual([
          hex(s),
          stringWidth(s, { ambiguousIsNarrow }),
        ]);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a string-width it was not written for instead of skipping silently', () => {
    expect(() => patchWidthSource(source.replace('export default function', 'function'))).toThrow(
      /re-check the patch/,
    );
  });
});
