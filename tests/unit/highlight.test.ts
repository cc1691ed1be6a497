import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseSnippetMarkers,
  splitHighlights,
  termsFromQuery,
  type Segment,
} from '../../src/text/highlight.js';
import { sanitizeLine } from '../../src/text/sanitize.js';

const hits = (segments: Segment[]): string[] => segments.filter((s) => s.hit).map((s) => s.text);
const joined = (segments: Segment[]): string => segments.map((s) => s.text).join('');

describe('termsFromQuery', () => {
  it('splits words and keeps quoted phrases whole', () => {
    expect(termsFromQuery('billing migration')).toEqual(['billing', 'migration']);
    expect(termsFromQuery('"billing  migration" webhook')).toEqual([
      'billing migration',
      'webhook',
    ]);
  });

  it('drops FTS operators (uppercase only, as FTS5 reads them)', () => {
    expect(termsFromQuery('stripe OR paypal NOT refund AND tax')).toEqual([
      'stripe',
      'paypal',
      'refund',
      'tax',
    ]);
    expect(termsFromQuery('rock and roll')).toEqual(['rock', 'and', 'roll']);
    expect(termsFromQuery('NEAR(alpha beta, 5)')).toEqual(['alpha', 'beta', '5']);
  });

  it('keeps a trailing * as a prefix marker and drops stray ones', () => {
    expect(termsFromQuery('migrat*')).toEqual(['migrat*']);
    expect(termsFromQuery('*lead **double** mid*dle')).toEqual(['lead', 'double*', 'middle']);
    expect(termsFromQuery('*')).toEqual([]);
  });

  it('strips FTS specials and unbalanced quotes', () => {
    expect(termsFromQuery('(alpha) +beta ^gamma content:delta {x}')).toEqual([
      'alpha',
      'beta',
      'gamma',
      'content',
      'delta',
      'x',
    ]);
    expect(termsFromQuery('"unclosed phrase')).toEqual(['unclosed', 'phrase']);
  });

  it('keeps dotted, hyphenated and underscored terms, and CJK as written', () => {
    expect(termsFromQuery('chat-send P2.2 my_app.config.ts')).toEqual([
      'chat-send',
      'P2.2',
      'my_app.config.ts',
    ]);
    expect(termsFromQuery('数据库 迁移')).toEqual(['数据库', '迁移']);
    expect(termsFromQuery('"数据库迁移"')).toEqual(['数据库迁移']);
  });

  it('dedupes case-insensitively and ignores empty input', () => {
    expect(termsFromQuery('Stripe stripe STRIPE')).toEqual(['Stripe']);
    expect(termsFromQuery('')).toEqual([]);
    expect(termsFromQuery('   ')).toEqual([]);
    expect(termsFromQuery('AND OR')).toEqual([]);
  });

  it('handles long punctuation runs without regex backtracking', () => {
    expect(termsFromQuery(`${'!'.repeat(2000)}a`)).toEqual(['a']);
    expect(termsFromQuery(`a${'!'.repeat(2000)}b`)).toEqual(
      [`a${'!'.repeat(2000)}b`].filter((t) => t.length <= 200),
    );
  });

  it('never throws (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (q) => {
        const terms = termsFromQuery(q);
        expect(Array.isArray(terms)).toBe(true);
        for (const t of terms) expect(t.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('splitHighlights', () => {
  it('marks case-insensitive occurrences', () => {
    const segments = splitHighlights('Billing migration: the BILLING team', ['billing']);
    expect(segments).toEqual([
      { text: 'Billing', hit: true },
      { text: ' migration: the ', hit: false },
      { text: 'BILLING', hit: true },
      { text: ' team', hit: false },
    ]);
  });

  it('prefers the longest term and merges adjacent hits', () => {
    expect(
      hits(splitHighlights('billing migration plan', ['billing', 'billing migration'])),
    ).toEqual(['billing migration']);
    expect(splitHighlights('abab', ['ab'])).toEqual([{ text: 'abab', hit: true }]);
  });

  it('extends prefix terms to the end of the word', () => {
    expect(hits(splitHighlights('We migrated; migration done', ['migrat*']))).toEqual([
      'migrated',
      'migration',
    ]);
  });

  it('treats regex characters literally', () => {
    expect(
      hits(splitHighlights('a+b (c) [d] x.y chat-send', ['a+b', '(c)', '[d]', 'x.y', 'chat-send'])),
    ).toEqual(['a+b', '(c)', '[d]', 'x.y', 'chat-send']);
    expect(hits(splitHighlights('xay', ['x.y']))).toEqual([]);
  });

  it('highlights CJK substrings', () => {
    expect(splitHighlights('我们的数据库迁移计划', ['数据库'])).toEqual([
      { text: '我们的', hit: false },
      { text: '数据库', hit: true },
      { text: '迁移计划', hit: false },
    ]);
  });

  it('returns the text unhit without terms, and nothing for empty text', () => {
    expect(splitHighlights('abc', [])).toEqual([{ text: 'abc', hit: false }]);
    expect(splitHighlights('abc', ['', '*', '  '])).toEqual([{ text: 'abc', hit: false }]);
    expect(splitHighlights('', ['a'])).toEqual([]);
  });

  it('works with terms from a query', () => {
    const terms = termsFromQuery('"billing migration" OR webhook*');
    expect(hits(splitHighlights('The billing migration and webhooks', terms))).toEqual([
      'billing migration',
      'webhooks',
    ]);
  });

  it('never throws and loses no text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 5 }),
        (text, terms) => {
          const segments = splitHighlights(text, terms);
          expect(joined(segments)).toBe(text);
          for (let i = 1; i < segments.length; i++) {
            expect(segments[i]?.hit).not.toBe(segments[i - 1]?.hit);
          }
        },
      ),
      { numRuns: 500 },
    );
    // Lone surrogates in text and terms.
    expect(joined(splitHighlights('a\ud800b', ['\ud800']))).toBe('a\ud800b');
  });
});

describe('parseSnippetMarkers', () => {
  const OPEN = '\u0002';
  const CLOSE = '\u0003';

  it('splits on the markers', () => {
    expect(
      parseSnippetMarkers(
        `…we decided to ${OPEN}migrate${CLOSE} the ${OPEN}billing${CLOSE}…`,
        OPEN,
        CLOSE,
      ),
    ).toEqual([
      { text: '…we decided to ', hit: false },
      { text: 'migrate', hit: true },
      { text: ' the ', hit: false },
      { text: 'billing', hit: true },
      { text: '…', hit: false },
    ]);
  });

  it('works with multi-character markers', () => {
    expect(parseSnippetMarkers('a[[b]]c', '[[', ']]')).toEqual([
      { text: 'a', hit: false },
      { text: 'b', hit: true },
      { text: 'c', hit: false },
    ]);
  });

  it('highlights to the end when unclosed and drops stray close markers', () => {
    expect(parseSnippetMarkers(`a${OPEN}b`, OPEN, CLOSE)).toEqual([
      { text: 'a', hit: false },
      { text: 'b', hit: true },
    ]);
    expect(parseSnippetMarkers(`a${CLOSE}b`, OPEN, CLOSE)).toEqual([{ text: 'ab', hit: false }]);
  });

  it('sanitizes each piece (markers are parsed first), or uses the cleaner given', () => {
    const snippet = `x\x1b]52;c;QQ==\x07 ${OPEN}hit\x1b[31m${CLOSE}\nnext`;
    expect(parseSnippetMarkers(snippet, OPEN, CLOSE)).toEqual([
      { text: 'x ', hit: false },
      { text: 'hit', hit: true },
      { text: '\nnext', hit: false },
    ]);
    expect(parseSnippetMarkers(snippet, OPEN, CLOSE, sanitizeLine).at(-1)).toEqual({
      text: ' next',
      hit: false,
    });
  });

  it('treats empty markers as no markers', () => {
    expect(parseSnippetMarkers('abc', '', '')).toEqual([{ text: 'abc', hit: false }]);
  });

  it('never throws and keeps all non-marker text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(OPEN, CLOSE),
            fc.string({ unit: 'grapheme-ascii', maxLength: 5 }),
          ),
        ),
        (parts) => {
          const snippet = parts.join('');
          const segments = parseSnippetMarkers(snippet, OPEN, CLOSE);
          expect(joined(segments)).toBe(snippet.replaceAll(OPEN, '').replaceAll(CLOSE, ''));
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), fc.string(), (s, o, c) => {
        expect(Array.isArray(parseSnippetMarkers(s, o, c))).toBe(true);
      }),
    );
  });
});
