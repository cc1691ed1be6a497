import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayWidth, frameSafe, safeWidth, truncate, wrap } from '../../src/text/width.js';

const THUMBS_TONE = '👍🏽';
const FLAG_JP = '🇯🇵';
const FAMILY4 = '👨\u200d👩\u200d👧\u200d👦';
const CODER = '👩🏽\u200d💻';
const RAINBOW = '🏳\ufe0f\u200d🌈';
const HEART_VS16 = '❤\ufe0f';
const KEYCAP_1 = '1\ufe0f\u20e3';
const ENGLAND = '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}';
const HANGUL_JAMO = '\u1100\u1161\u11a8'; // ᄀ + ᅡ + ᆨ: one syllable written in conjoining jamo
const COMBINING = 'e\u0301\u0323';

describe('safeWidth: the widest a common terminal draws', () => {
  it.each([
    ['skin tone', THUMBS_TONE, 2, 4],
    ['flag', FLAG_JP, 2, 4],
    ['family ZWJ', FAMILY4, 2, 8],
    ['ZWJ with skin tone', CODER, 2, 6],
    ['rainbow flag (VS16 + ZWJ)', RAINBOW, 2, 4],
    ['VS16 heart', HEART_VS16, 2, 2],
    ['keycap', KEYCAP_1, 2, 2],
    ['tag sequence flag', ENGLAND, 2, 4],
    ['wide CJK', '漢字', 4, 4],
    ['Hangul jamo', HANGUL_JAMO, 2, 2],
    ['combining marks', COMBINING, 1, 1],
    ['lone regional indicator', '🇯', 1, 2],
    ['plain emoji', '😀', 2, 2],
  ])('%s', (_name, s, display, safe) => {
    expect(displayWidth(s)).toBe(display);
    expect(safeWidth(s)).toBe(safe);
  });

  it('adds up over a line of skin-tone emoji', () => {
    const line = `ok ${THUMBS_TONE}${THUMBS_TONE} done`;
    expect(displayWidth(line)).toBe(3 + 4 + 5);
    expect(safeWidth(line)).toBe(3 + 8 + 5);
  });

  it('is never less than displayWidth', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
        expect(safeWidth(s)).toBeGreaterThanOrEqual(displayWidth(s));
      }),
    );
  });
});

describe('frameSafe', () => {
  it.each([
    [THUMBS_TONE, '👍'],
    [FLAG_JP, '[JP]'],
    [FAMILY4, '👨'],
    [CODER, '👩'],
    [RAINBOW, '🏳'],
    [HEART_VS16, '❤'],
    [KEYCAP_1, '1'],
    [ENGLAND, '🏴'],
    ['🇯', 'J'],
  ])('%s → %s', (input, expected) => {
    expect(frameSafe(input)).toBe(expected);
  });

  it('keeps text terminals agree on', () => {
    const text = `plain ascii\n漢字 한국어 ${HANGUL_JAMO} ${COMBINING} 😀 — café`;
    expect(frameSafe(text)).toBe(text);
  });

  it('rewrites inside a sentence and keeps the rest', () => {
    expect(frameSafe(`ship it ${THUMBS_TONE} from ${FLAG_JP}!`)).toBe('ship it 👍 from [JP]!');
  });

  const mixed = fc
    .array(
      fc.oneof(
        fc.constantFrom(THUMBS_TONE, FLAG_JP, FAMILY4, CODER, RAINBOW, HEART_VS16, KEYCAP_1),
        fc.constantFrom(ENGLAND, HANGUL_JAMO, COMBINING, '漢', '😀', ' ', '\n', '-', '🇯'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5 }),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }),
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));

  it('leaves nothing terminals disagree on: safeWidth equals displayWidth afterwards', () => {
    fc.assert(
      fc.property(mixed, (s) => {
        const safe = frameSafe(s);
        expect(safeWidth(safe)).toBe(displayWidth(safe));
        expect(frameSafe(safe)).toBe(safe);
      }),
    );
  });

  it('wrap and truncate of frame-safe text never exceed the width in any terminal', () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: 1, max: 30 }), (s, width) => {
        const safe = frameSafe(s);
        for (const line of wrap(safe, width)) expect(safeWidth(line)).toBeLessThanOrEqual(width);
        expect(safeWidth(truncate(safe, width))).toBeLessThanOrEqual(width);
      }),
    );
  });

  it('wrap and truncate never exceed the width as measured (any text)', () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: 1, max: 30 }), (s, width) => {
        for (const line of wrap(s, width)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
        expect(displayWidth(truncate(s, width))).toBeLessThanOrEqual(width);
      }),
    );
  });
});
