import { QUOTE_MAX_CHARS } from '../../src/budgets.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAnchor, isoTime, link, multi, quote, scrollCall } from '../../src/anchors/format.js';
import { parseAnchor, parseAnchors } from '../../src/anchors/parse.js';
import { sanitizeLine } from '../../src/text/sanitize.js';

const ID = '20260301_120000_a1b2c3';
const TS = 1_772_366_400; // 2026-03-01T12:00:00Z
const target = {
  profile: 'default',
  sessionId: ID,
  messageId: 9654,
  role: 'assistant',
  timestamp: TS,
  content: 'We decided to ship the billing change.\n\nNext: the webhook.',
  title: 'Billing migration plan',
};
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('format', () => {
  it('makes the link and the scroll call', () => {
    expect(link(target)).toBe(`@session:default/${ID}`);
    expect(link({ profile: '', sessionId: ID })).toBe(`@session:default/${ID}`);
    expect(link({ profile: 'work', sessionId: ID })).toBe(`@session:work/${ID}`);
    expect(scrollCall(target)).toBe(
      `session_search(session_id="${ID}", around_message_id=9654, window=5)`,
    );
    expect(scrollCall(target, 50)).toContain('window=20');
    expect(scrollCall(target, 0)).toContain('window=1');
  });

  it('names another profile in a scroll call, and reads it back', () => {
    const call = scrollCall({ sessionId: 'abc', messageId: 7 }, 5, 'work');
    expect(call).toBe(
      'session_search(session_id="abc", around_message_id=7, window=5, profile="work")',
    );
    expect(parseAnchor(call)).toEqual({
      kind: 'scroll',
      sessionId: 'abc',
      messageId: 7,
      window: 5,
      profile: 'work',
    });
    // Not a profile name: ignored, the call still reads as this store's.
    expect(
      parseAnchor('session_search(session_id="abc", around_message_id=7, profile="../x")'),
    ).toEqual({ kind: 'scroll', sessionId: 'abc', messageId: 7 });
  });

  it('escapes quotes and strips control characters in ids', () => {
    expect(scrollCall({ sessionId: 'a"b\\c\x1b[31m', messageId: 1 })).toBe(
      'session_search(session_id="a\\"b\\\\c", around_message_id=1, window=5)',
    );
    expect(link({ profile: 'p\u202e', sessionId: 'x\ny' })).toBe('@session:p/x y');
  });

  it('formats times as ISO-8601 and rejects nonsense', () => {
    expect(isoTime(TS)).toBe('2026-03-01T12:00:00Z');
    expect(isoTime(TS + 0.75)).toBe('2026-03-01T12:00:00Z');
    expect(isoTime(null)).toBeNull();
    expect(isoTime(Number.NaN)).toBeNull();
    expect(isoTime(1e300)).toBeNull();
  });

  it('quotes a message with its citation', () => {
    expect(quote(target)).toBe(
      [
        '> We decided to ship the billing change.',
        '>',
        '> Next: the webhook.',
        '',
        `— assistant · 2026-03-01T12:00:00Z · @session:default/${ID} · session_search(session_id="${ID}", around_message_id=9654, window=5)`,
      ].join('\n'),
    );
  });

  it('caps a long quote with a note and sanitizes it', () => {
    const long = quote({ ...target, content: `\x1b]52;c;QQ==\x07${'x'.repeat(10_000)}` });
    expect(long).not.toMatch(CONTROL);
    expect(long).toContain(
      `truncated: ${QUOTE_MAX_CHARS.toLocaleString('en-US')} of 10,000 characters`,
    );
    expect(long.length).toBeLessThan(QUOTE_MAX_CHARS + 500);
    // A surrogate pair at the cut is not split.
    const emoji = quote({ ...target, content: 'a' + '😀'.repeat(QUOTE_MAX_CHARS) });
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('handles long whitespace runs in content without regex backtracking', () => {
    const content = `a${' '.repeat(300_000)}b${' \n'.repeat(1000)}`;
    expect(quote({ ...target, content })).toContain('— assistant');
  });

  it('quotes an empty message', () => {
    expect(quote({ ...target, content: null, role: null, timestamp: null })).toMatch(
      /^> \(no text content\)\n\n— message · @session:/,
    );
  });

  it('builds one block for several anchors', () => {
    const block = multi([
      { sessionId: ID, messageId: 1 },
      { sessionId: '20260302_090000_ffffff', messageId: 42 },
      { sessionId: ID, messageId: 1 },
    ]);
    const lines = block.trimEnd().split('\n');
    expect(lines[0]).toBe('Recall these 2 messages with session_search:');
    expect(lines[1]).toBe(`session_search(session_id="${ID}", around_message_id=1, window=5)`);
    expect(lines[2]).toBe(
      'session_search(session_id="20260302_090000_ffffff", around_message_id=42, window=5)',
    );
    expect(JSON.parse(lines.at(-1) ?? '')).toEqual([
      { session_id: ID, around_message_id: 1 },
      { session_id: '20260302_090000_ffffff', around_message_id: 42 },
    ]);
    expect(multi([{ sessionId: ID, messageId: 7 }])).toMatch(/^Recall this message/);
    expect(multi([])).toBe('');
  });

  it('dispatches by form', () => {
    expect(formatAnchor('link', target)).toBe(link(target));
    expect(formatAnchor('scroll', target)).toBe(scrollCall(target));
    expect(formatAnchor('quote', target)).toBe(quote(target));
  });

  it('never emits control characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (id, content) => {
        const t = { ...target, sessionId: id, content, profile: id, role: content };
        for (const out of [link(t), scrollCall(t), quote(t), multi([t])]) {
          expect(out).not.toMatch(CONTROL);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseAnchor', () => {
  it('reads links, with or without a profile', () => {
    expect(parseAnchor(`@session:default/${ID}`)).toEqual({
      kind: 'link',
      profile: 'default',
      sessionId: ID,
    });
    expect(parseAnchor(` \`@session:work/${ID}\` `)).toEqual({
      kind: 'link',
      profile: 'work',
      sessionId: ID,
    });
    expect(parseAnchor(`@session:${ID}`)).toEqual({
      kind: 'link',
      profile: 'default',
      sessionId: ID,
    });
  });

  it('reads scroll calls in their many spellings', () => {
    const expected = { kind: 'scroll', sessionId: ID, messageId: 9654, window: 5 };
    for (const input of [
      `session_search(session_id="${ID}", around_message_id=9654, window=5)`,
      `session_search(session_id='${ID}', around_message_id=9654, window=5)`,
      `session_search( around_message_id = 9654 , window=5, session_id = "${ID}" )`,
      `session_id="${ID}", around_message_id=9654, window=5`,
      `session_id: "${ID}" around_message_id: 9654 window: 5`,
      `\`session_search(session_id="${ID}", around_message_id=9654, window=5)\``,
      `"session_search(session_id='${ID}', around_message_id=9654, window=5)"`,
      `\`\`\`\nsession_search(session_id="${ID}", around_message_id=9654, window=5)\n\`\`\``,
      `functions.session_search(session_id="${ID}", around_message_id="9654", window=5);`,
      `{"session_id": "${ID}", "around_message_id": 9654, "window": 5}`,
      `{'session_id': '${ID}', 'around_message_id': 9654, 'window': 5}`,
      `[{"session_id": "${ID}", "around_message_id": 9654, "window": 5}]`,
    ]) {
      expect(parseAnchor(input), input).toEqual(expected);
    }
    expect(parseAnchor(`session_search(session_id="${ID}", around_message_id=9654)`)).toEqual({
      kind: 'scroll',
      sessionId: ID,
      messageId: 9654,
    });
    expect(parseAnchor(`{"session_id": "${ID}", "match_message_id": 12}`)).toEqual({
      kind: 'scroll',
      sessionId: ID,
      messageId: 12,
    });
    expect(
      parseAnchor(`session_search(session_id="${ID}", around_message_id=1, window=99)`),
    ).toMatchObject({
      window: 20,
    });
  });

  it('reads a session-only call as a session id', () => {
    expect(parseAnchor(`session_search(session_id="${ID}")`)).toEqual({
      kind: 'sessionId',
      sessionId: ID,
    });
  });

  it('recognises session ids and their prefixes', () => {
    expect(parseAnchor(ID)).toEqual({ kind: 'sessionId', sessionId: ID });
    expect(parseAnchor(`"${ID}"`)).toEqual({ kind: 'sessionId', sessionId: ID });
    expect(parseAnchor('20260301_')).toEqual({ kind: 'idPrefix', prefix: '20260301_' });
    expect(parseAnchor('20260301_1200')).toEqual({ kind: 'idPrefix', prefix: '20260301_1200' });
    expect(parseAnchor('20260301_120000_a1')).toEqual({
      kind: 'idPrefix',
      prefix: '20260301_120000_a1',
    });
    expect(parseAnchor('20260301')).toBeNull();
    expect(parseAnchor('20260301_12x')).toBeNull();
    expect(parseAnchor('2026030_')).toBeNull();
  });

  it('returns null for ordinary queries and malformed anchors', () => {
    for (const input of [
      '',
      '   ',
      'billing migration',
      '"billing migration" OR stripe',
      'session_search(query="billing")',
      'session_search(session_id="x", around_message_id=-1)',
      'session_search(session_id="x", around_message_id=1.5)',
      'session_search(session_id="unterminated, around_message_id=1)',
      'session_search(session_id=, around_message_id=1)',
      '{"session_id": 5, "around_message_id": 1}',
      '{not json',
      '@session:',
      'x'.repeat(10_000),
    ]) {
      expect(parseAnchor(input), input).toBeNull();
    }
  });

  it('never throws on arbitrary input (property)', () => {
    const anchorish = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 5 }),
          fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
          fc.constantFrom(
            'session_search(',
            'session_id',
            '=',
            ':',
            '"',
            "'",
            '\\',
            ')',
            '{',
            '}',
            '[',
            ']',
            ',',
            '@session:',
            '/',
            '`',
            '```',
            '20260301_',
            '120000_',
            'abc',
            '5',
          ),
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(anchorish, fc.string({ unit: 'binary' })), (input) => {
        const a = parseAnchor(input);
        expect(a === null || typeof a.kind === 'string').toBe(true);
        expect(Array.isArray(parseAnchors(input))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  const agentId = fc
    .tuple(
      fc.integer({ min: 0, max: 99_999_999 }),
      fc.integer({ min: 0, max: 999_999 }),
      fc.stringMatching(/^[0-9a-f]{6}$/),
    )
    .map(([d, t, h]) => `${String(d).padStart(8, '0')}_${String(t).padStart(6, '0')}_${h}`);
  // Opaque ids: anything that survives sanitizeLine unchanged, quotes and backslashes included.
  const opaqueId = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 40 })
    .filter((s) => sanitizeLine(s) === s);
  const messageId = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

  it('round-trips scroll calls (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(agentId, opaqueId),
        messageId,
        fc.integer({ min: 1, max: 20 }),
        (sessionId, id, window) => {
          expect(parseAnchor(scrollCall({ sessionId, messageId: id }, window))).toEqual({
            kind: 'scroll',
            sessionId,
            messageId: id,
            window,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('round-trips links (property)', () => {
    const profile = fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/);
    const linkId = fc.oneof(
      agentId,
      opaqueId.filter((s) => !/\s/.test(s) && !/^[`'"]|[`'"]$/.test(s)),
    );
    fc.assert(
      fc.property(profile, linkId, (p, sessionId) => {
        expect(parseAnchor(link({ profile: p, sessionId }))).toEqual({
          kind: 'link',
          profile: p,
          sessionId,
        });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseAnchors', () => {
  it('reads back every anchor of a multi block', () => {
    const refs = [
      { sessionId: ID, messageId: 1 },
      { sessionId: '20260302_090000_ffffff', messageId: 42 },
    ];
    expect(parseAnchors(multi(refs))).toEqual([
      { kind: 'scroll', sessionId: ID, messageId: 1 },
      { kind: 'scroll', sessionId: '20260302_090000_ffffff', messageId: 42 },
    ]);
  });

  it('reads one anchor per line and skips the rest', () => {
    expect(parseAnchors(`look at these:\n@session:default/${ID}\n\n${ID}\nnot an anchor`)).toEqual([
      { kind: 'link', profile: 'default', sessionId: ID },
      { kind: 'sessionId', sessionId: ID },
    ]);
  });
});
