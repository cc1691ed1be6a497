/**
 * Property-based checks of the pieces every store string passes through on its
 * way to a terminal or into SQL. The generators mix the hostile fragments of
 * hostile.test.ts, raw UTF-16 code units (lone surrogates included), wide and
 * combining text, and arbitrary Unicode, and reach lengths of thousands.
 */
import { MAX_QUERY_CHARS } from '../../src/budgets.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sanitize, sanitizeLine } from '../../src/text/sanitize.js';
import { displayWidth, padEnd, truncate, wrap } from '../../src/text/width.js';
import { parseAnchor, parseAnchors } from '../../src/anchors/parse.js';
import { link, multi, quote, scrollCall } from '../../src/anchors/format.js';
import { conversationMarkdown } from '../../src/export/conversation.js';
import {
  hasCjk,
  likePattern,
  quoteAllTerms,
  routeQuery,
  sanitizeQuery,
} from '../../src/store/query.js';
import { inertJson } from '../../src/cli/commands.js';
import { unsafeIn } from '../helpers/inert.js';

const ESC = '\u001b';
const FRAGMENTS = [
  `${ESC}]52;c;AAAA\u0007`,
  `${ESC}]0;t${ESC}\\`,
  `${ESC}]8;;http://x${ESC}\\`,
  `${ESC}[2J`,
  `${ESC}[38;5;1m`,
  `${ESC}[`,
  `${ESC}]`,
  `${ESC}P`,
  ESC,
  '\u0090',
  '\u009b',
  '\u009c',
  '\u009d',
  '\u0085',
  '\u0007',
  '\u0000',
  '\r',
  '\n',
  '\t',
  '\u202e',
  '\u2066',
  '\u200f',
  '\u061c',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u2028',
  '\u0301',
  '\u0301'.repeat(40),
  '\ud800',
  '\udfff',
  '😀',
  '👨\u200d👩\u200d👧',
  '🇯🇵',
  '中文',
  '한',
  'ｶ',
  'e\u0301',
  '\u0e01\u0e33',
  ' ',
  '-',
  'word',
  'a.b_c-d',
];

/** Any UTF-16 code unit, so lone surrogates and every control appear. */
const codeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 200 })
  .map((xs) => String.fromCharCode(...xs));
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(...FRAGMENTS),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 120 },
  )
  .map((parts) => parts.join(''));
const anyText = fc.oneof(
  hostile,
  codeUnits,
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
);
const width = fc.integer({ min: 1, max: 160 });

describe('sanitize (property)', () => {
  it('never emits ESC, C1, BEL, other C0, bidi controls or lone surrogates', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const out = sanitize(s);
        expect(unsafeIn(out)).toEqual([]);
        expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\r]/);
        const line = sanitizeLine(s);
        expect(unsafeIn(line)).toEqual([]);
        expect(line).not.toMatch(/[\n\t]/);
      }),
      { numRuns: 3000 },
    );
  });

  it('is stable: sanitizing twice changes nothing', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const once = sanitize(s);
        expect(sanitize(once)).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('line layout (property)', () => {
  it('wrap never yields a line wider than the width, for raw or sanitized text', () => {
    fc.assert(
      fc.property(anyText, width, (s, w) => {
        for (const text of [s, sanitize(s)]) {
          const lines = wrap(text, w);
          for (const line of lines) {
            expect(displayWidth(line)).toBeLessThanOrEqual(w);
            expect(line).not.toContain('\n');
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('truncate never exceeds the width and padEnd fills it exactly', () => {
    fc.assert(
      fc.property(anyText, width, fc.constantFrom('…', '...', '', '→'), (s, w, ellipsis) => {
        const clean = sanitizeLine(s);
        expect(displayWidth(truncate(s, w, ellipsis))).toBeLessThanOrEqual(w);
        expect(displayWidth(truncate(clean, w, ellipsis))).toBeLessThanOrEqual(w);
        expect(displayWidth(padEnd(clean, w))).toBe(w);
      }),
      { numRuns: 1500 },
    );
  });

  it('copes with long lines of wide and combining text', () => {
    const long = fc
      .array(fc.constantFrom('中', '😀', 'e\u0301', ' ', 'ab', '\u0301'.repeat(10)), {
        minLength: 500,
        maxLength: 3000,
      })
      .map((xs) => xs.join(''));
    fc.assert(
      fc.property(long, width, (s, w) => {
        for (const line of wrap(s, w)) expect(displayWidth(line)).toBeLessThanOrEqual(w);
      }),
      { numRuns: 60 },
    );
  });
});

describe('anchor parser (property)', () => {
  const anchorish = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'session_search(',
          'session_id=',
          'around_message_id=',
          'window=',
          '@session:',
          '"',
          "'",
          '`',
          '```',
          '\\',
          '\\u',
          '\\x',
          ')',
          '(',
          '{',
          '}',
          '[',
          ']',
          ',',
          ':',
          '/',
          '\n',
          '20261123_',
          '101500_',
          'abcdef',
          '42',
          '-1',
          '1e309',
          '99999999999999999999',
          ...FRAGMENTS,
        ),
        fc.string({ unit: 'binary', maxLength: 6 }),
      ),
      { maxLength: 60 },
    )
    .map((xs) => xs.join(''));

  it('never throws, and returns an anchor or null (one) / a list (many)', () => {
    fc.assert(
      fc.property(fc.oneof(anchorish, anyText), (input) => {
        const one = parseAnchor(input);
        expect(one === null || typeof one.kind === 'string').toBe(true);
        if (one?.kind === 'scroll') expect(Number.isSafeInteger(one.messageId)).toBe(true);
        const many = parseAnchors(input);
        expect(Array.isArray(many)).toBe(true);
        expect(many.length).toBeLessThanOrEqual(200);
      }),
      { numRuns: 4000 },
    );
  });

  it('never throws on pastes far past its input limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4_000, max: 80_000 }),
        fc.constantFrom(...FRAGMENTS),
        (n, f) => {
          const big = `session_search(session_id="${f.repeat(Math.ceil(n / f.length))}", around_message_id=1)`;
          expect(() => parseAnchor(big)).not.toThrow();
          expect(() => parseAnchors(`${big}\n`.repeat(3))).not.toThrow();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('reads back the scroll call it writes', () => {
    const id = fc.stringMatching(/^\d{8}_\d{6}_[0-9a-f]{6}$/);
    fc.assert(
      fc.property(
        id,
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        (sessionId, messageId) => {
          expect(parseAnchor(scrollCall({ sessionId, messageId }))).toMatchObject({
            kind: 'scroll',
            sessionId,
            messageId,
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('anchor formats (property)', () => {
  it('are inert for any store text', () => {
    fc.assert(
      fc.property(anyText, anyText, anyText, fc.double(), (sid, content, title, ts) => {
        const t = {
          profile: title,
          sessionId: sid,
          messageId: 3,
          role: title,
          timestamp: ts,
          content,
          title,
        };
        for (const out of [
          link(t),
          scrollCall(t),
          quote(t),
          multi([t, { sessionId: content, messageId: 4 }]),
          conversationMarkdown(
            t,
            [
              {
                id: 3,
                session_id: sid,
                role: sid,
                content: content,
                timestamp: ts,
                tool_name: null,
                tool_calls: null,
                tool_call_id: null,
                reasoning: null,
              },
            ],
            {
              anchorId: 3,
              headingLevel: 2,
            },
          ).text,
        ])
          expect(unsafeIn(out)).toEqual([]);
      }),
      { numRuns: 800 },
    );
  });
});

describe('query builder (property)', () => {
  const querish = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'AND',
          'OR',
          'NOT',
          'NEAR',
          'near(',
          '"',
          '*',
          '**',
          '^',
          ':',
          '(',
          ')',
          '{',
          '}',
          '+',
          '-',
          '.',
          '_',
          "'",
          '\\',
          '%',
          '数据',
          '数据库迁移',
          'テスト',
          '한국어',
          'col:val',
          'a.b',
          'x-y',
          ...FRAGMENTS,
        ),
        fc.string({ unit: 'binary', maxLength: 6 }),
      ),
      { maxLength: 40 },
    )
    .map((xs) => xs.join(' '));

  it('never throws; every route is well formed and bounded', () => {
    fc.assert(
      fc.property(fc.oneof(querish, anyText), fc.boolean(), fc.boolean(), (q, fts, trigram) => {
        const s = sanitizeQuery(q);
        expect(s).not.toMatch(/[\u0000-\u001f\u007f]/);
        expect(Array.from(s).length).toBeLessThanOrEqual(MAX_QUERY_CHARS * 2);
        expect(() => quoteAllTerms(s)).not.toThrow();
        expect(typeof hasCjk(q)).toBe('boolean');
        const route = routeQuery(q, { fts, trigram });
        expect(['empty', 'fts', 'trigram', 'like']).toContain(route.kind);
        if (route.kind === 'fts' || route.kind === 'trigram')
          expect(route.match.length).toBeGreaterThan(0);
        if (route.kind === 'trigram') expect(trigram).toBe(true);
        if (route.kind === 'fts') expect(fts).toBe(true);
        if (route.kind === 'like') {
          expect(route.terms.length).toBeGreaterThan(0);
          for (const t of route.terms) expect(likePattern(t).startsWith('%')).toBe(true);
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('caps what reaches SQL for huge inputs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3_000, max: 200_000 }),
        fc.constantFrom('a ', '数', '"x" ', '😀'),
        (n, unit) => {
          const q = unit.repeat(Math.ceil(n / unit.length));
          const route = routeQuery(q, { fts: true, trigram: true });
          const text =
            route.kind === 'like'
              ? route.terms.join(' ')
              : route.kind === 'empty'
                ? ''
                : route.match;
          expect(Array.from(text).length).toBeLessThanOrEqual(MAX_QUERY_CHARS * 2);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('JSON output (property)', () => {
  it('is inert on a terminal and parses back to exactly what the store held', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const value = { a, list: [b, { c: a + b }] };
        const text = inertJson(value);
        expect(unsafeIn(text)).toEqual([]);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 2000 },
    );
  });
});
