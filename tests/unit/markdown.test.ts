import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightCode, codeLanguage } from '../../src/text/highlightCode.js';
import { inline, renderMarkdown, renderToolJson } from '../../src/text/markdown.js';
import { prettyJsonText, prettyJsonPlain } from '../../src/text/prettyJson.js';
import { overlayHighlights, plainText, type StyledLine } from '../../src/text/styled.js';
import { displayWidth, safeWidth } from '../../src/text/width.js';

/** A line as text with non-plain segments marked {style:text}, to assert text and style together. */
const show = (lines: readonly StyledLine[]): string[] =>
  lines.map((l) =>
    l.map((s) => (s.style === 'plain' ? s.text : `{${s.style}:${s.text}}`)).join(''),
  );
const md = (text: string, width = 40): string[] => show(renderMarkdown(text, width));

describe('renderMarkdown', () => {
  it('headings, emphasis, strong, inline code, links as their text', () => {
    expect(
      md('## Billing *plan*\n\nSome **strong**, _em_, `a_b` and [the docs](https://x.io/d).'),
    ).toEqual([
      '{heading:Billing plan}',
      '',
      'Some {strong:strong}, {emphasis:em}, {code:a_b} and {link:the docs}.',
    ]);
  });

  it('leaves snake_case, lone stars and 2 * 3 alone', () => {
    expect(md('use snake_case_name and 2 * 3 * 4 and a*')).toEqual([
      'use snake_case_name and 2 * 3 * 4 and a*',
    ]);
    expect(show([inline('\\*not em\\*')].map((d) => d.map((s) => ({ ...s, start: 0 }))))).toEqual([
      '*not em*',
    ]);
  });

  it('bullets and numbers with continuation lines indented under the item', () => {
    expect(
      md(
        '- first item that is long enough to wrap here\n  continued\n- second\n  1. nested one\n  2. two',
        30,
      ),
    ).toEqual([
      '{bullet:• }first item that is long',
      '  enough to wrap here',
      '  continued',
      '{bullet:• }second',
      '  {bullet:1. }nested one',
      '  {bullet:2. }two',
    ]);
  });

  it('block quotes keep inner styles behind a bar', () => {
    expect(md('> quoted **text**\n> more')).toEqual([
      '{quote:│ quoted }{strong:text}',
      '{quote:│ more}',
    ]);
  });

  it('tables: aligned columns cut to the width', () => {
    const table =
      '| name | n |\n|:-----|--:|\n| alpha | 1 |\n| a much longer cell than fits | 22 |';
    expect(md(table, 20)).toEqual([
      '{tableHeader:name}           {tableBorder: │ } {tableHeader:n}',
      '{tableBorder:────────────────┼───}',
      'alpha          {tableBorder: │ } 1',
      'a much longer {muted:…}{tableBorder: │ }22',
    ]);
  });

  it('a table too narrow for columns becomes header: value lines', () => {
    expect(md('| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |', 8)).toEqual([
      '{tableHeader:a}{tableBorder:: }1',
      '{tableHeader:b}{tableBorder:: }2',
      '{tableHeader:c}{tableBorder:: }3',
      '{tableBorder:───}',
    ]);
  });

  it('fenced code with its language colours, indented, label above', () => {
    expect(md('```ts\nconst x = 42; // answer\n```')).toEqual([
      '{fence:ts}',
      '  {keyword:const}{code: x }{punct:=}{code: }{number:42}{punct:;}{code: }{comment:// answer}',
    ]);
    expect(md('```\nplain *not em*\n```')).toEqual(['  {code:plain *not em*}']);
  });

  it('an unclosed fence runs to the end; a rule spans the width', () => {
    expect(md('```py\nx = "a"', 10)).toEqual([
      '{fence:py}',
      '  {code:x }{punct:=}{code: }{string:"a"}',
    ]);
    expect(md('***', 5)).toEqual(['{rule:─────}']);
  });

  it('never emits a control character from hostile text', () => {
    const hostile =
      '# t\u001b]52;c;aGk=\u0007itle\n```sh\necho \u001b[2J\u0085x\n```\n| a\u009b | b |\n|---|---|\n| \u0007 | c |';
    const text = plainText(renderMarkdown(hostile, 30));
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('title');
  });

  it('no line wider than the width in any terminal, for any input (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '# ',
        '- ',
        '1. ',
        '> ',
        '```ts\n',
        '```\n',
        '| a | b |\n|---|--:|\n',
        '**',
        '_',
        '`',
      ),
      fc.constantFrom('漢字', '👨\u200d👩\u200d👧', '🇯🇵', '👍🏽', 'e\u0301', ' ', '\n', '\t', 'word'),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }),
        fc.integer({ min: 1, max: 50 }),
        (parts, width) => {
          const lines = renderMarkdown(parts.join(''), width);
          for (const line of lines) {
            const text = line.map((s) => s.text).join('');
            expect(safeWidth(text)).toBeLessThanOrEqual(width);
            expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('overlayHighlights', () => {
  it('lays hits found in the plain text over styled segments, across a style change', () => {
    const lines = renderMarkdown('the **billing** migration', 40);
    expect(plainText(lines)).toBe('the billing migration');
    const lit = overlayHighlights(lines, ['billing migration']);
    expect(lit[0]?.map((s) => [s.text, s.style, s.hit === true])).toEqual([
      ['the ', 'plain', false],
      ['billing', 'strong', true],
      [' migration', 'plain', true],
    ]);
  });
  it('offsets point into the plain text', () => {
    const lines = renderMarkdown('a\n\n`b` c', 40);
    const text = plainText(lines);
    for (const line of lines)
      for (const s of line) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
  });
});

describe('highlightCode', () => {
  const styles = (code: string, lang: string): string[] =>
    show(highlightCode(code, lang).map((d) => d.map((s) => ({ ...s, start: 0 }))));
  it.each([
    [
      'python',
      'def f(x):\n    return "a" # c',
      ['{keyword:def} f{punct:(}x{punct:):}', '    {keyword:return} {string:"a"} {comment:# c}'],
    ],
    [
      'bash',
      'if [ -f "$X" ]; then echo $HOME; fi # x',
      [
        '{keyword:if} {punct:[} {punct:-}f {string:"$X"} {punct:];} {keyword:then} {keyword:echo} {key:$HOME}{punct:;} {keyword:fi} {comment:# x}',
      ],
    ],
    [
      'json',
      '{"a": 1, "b": [true, "x"]}',
      [
        '{punct:{}{key:"a"}{punct::} {number:1}{punct:,} {key:"b"}{punct::} {punct:[}{keyword:true}{punct:,} {string:"x"}{punct:]}}',
      ],
    ],
    [
      'sql',
      "SELECT id FROM t WHERE s = 'it''s' -- c",
      [
        "{keyword:SELECT} id {keyword:FROM} t {keyword:WHERE} s {punct:=} {string:'it''s'} {comment:-- c}",
      ],
    ],
    [
      'rust',
      'fn main() { let x = 0x1F; }',
      [
        '{keyword:fn} main{punct:()} {punct:{} {keyword:let} x {punct:=} {number:0x1F}{punct:;} {punct:}}',
      ],
    ],
    [
      'go',
      'func f() string { return `a\nb` }',
      [
        '{keyword:func} f{punct:()} string {punct:{} {keyword:return} {string:`a}',
        '{string:b`} {punct:}}',
      ],
    ],
    [
      'yaml',
      'name: "x" # c\n- key: 3',
      ['{key:name}{punct::} {string:"x"} {comment:# c}', '- {key:key}{punct::} {number:3}'],
    ],
    [
      'js',
      '/* a\nb */ let s = `t`',
      ['{comment:/* a}', '{comment:b */} {keyword:let} s {punct:=} {string:`t`}'],
    ],
  ])('%s', (lang, code, expected) => {
    expect(styles(code, lang)).toEqual(expected);
  });
  it('unknown languages are plain', () => {
    expect(codeLanguage('brainfuck')).toBeNull();
    expect(styles('if x', 'brainfuck')).toEqual(['if x']);
    expect(codeLanguage('TypeScript {1,3}')).toBe('js');
  });
});

describe('tool JSON', () => {
  it('shows a string holding \\n as its lines, continuation indented under the key', () => {
    const json = JSON.stringify({
      command: 'cd /x &&\nmake test',
      timeout: 30,
      flags: [true, null],
    });
    expect(show(renderToolJson(json, 40) ?? [])).toEqual([
      '{punct:{}',
      '  {key:"command"}{punct:: }{string:"cd /x &&}',
      '    {string:make test"}{punct:,}',
      '  {key:"timeout"}{punct:: }{number:30}{punct:,}',
      '  {key:"flags"}{punct:: [}',
      '    {keyword:true}{punct:,}',
      '    {keyword:null}',
      '  {punct:]}',
      '{punct:}}',
    ]);
  });
  it('wraps long values with the continuation indented, and says when it is still exact JSON', () => {
    const lines = show(renderToolJson('{"path":"/a/very/long/path/that/does/not/fit"}', 20) ?? []);
    expect(lines).toEqual([
      '{punct:{}',
      '  {key:"path"}{punct::}',
      '    {string:"/a/very/long/pa}',
      '    {string:th/that/does/not}',
      '    {string:/fit"}',
      '{punct:}}',
    ]);
    const exact = prettyJsonText('{"a":[1,{"b":"c"}]}');
    expect(exact?.exact).toBe(true);
    expect(JSON.parse(prettyJsonPlain(exact!))).toEqual({ a: [1, { b: 'c' }] });
    expect(prettyJsonText('{"a":"x\\ny"}')?.exact).toBe(false);
  });
  it('returns null for text that is not JSON, and escapes control characters in strings', () => {
    expect(renderToolJson('not json', 40)).toBeNull();
    expect(renderToolJson('{"a": ', 40)).toBeNull();
    const text = plainText(renderToolJson('{"a":"\\u001b]52;c;x\\u0007"}', 40) ?? []);
    expect(text).toBe('{\n  "a": "\\u001b]52;c;x\\u0007"\n}');
    expect(displayWidth(text)).toBeGreaterThan(0);
  });
});

describe('long lines', () => {
  it('shows a huge line of unclosed markers as plain text, wrapped', () => {
    const blob = '[**'.repeat(3_000);
    const lines = renderMarkdown(blob, 80);
    expect(plainText(lines).replaceAll('\n', '')).toBe(blob);
    expect(lines.every((l) => l.every((s) => s.style === 'plain'))).toBe(true);
  });
});

describe('indentation', () => {
  it('keeps leading spaces of plain lines and wraps under them', () => {
    expect(md('src/\n  app/\n    controller.ts is a long file name here', 24)).toEqual([
      'src/',
      '  app/',
      '    controller.ts is a',
      '    long file name here',
    ]);
  });
});

describe('highlightCode: multi-line constructs and word edges', () => {
  const styles = (code: string, lang: string): string[] =>
    show(highlightCode(code, lang).map((d) => d.map((s) => ({ ...s, start: 0 }))));
  it('python triple-quoted strings span lines; SQL keywords in any case; shell # inside a word', () => {
    expect(styles('x = """a\nb""" + 1', 'py')).toEqual([
      'x {punct:=} {string:"""a}',
      '{string:b"""} {punct:+} {number:1}',
    ]);
    expect(styles('select 1 From t', 'sql')).toEqual([
      '{keyword:select} {number:1} {keyword:From} t',
    ]);
    expect(styles('echo a#b # c', 'sh')).toEqual(['{keyword:echo} a#b {comment:# c}']);
    expect(styles('cat done-file', 'bash')).toEqual(['cat done{punct:-}file']); // done: not the keyword
  });
});

describe('code blocks cut as less -S (codeShift)', () => {
  const text = '```\n' + 'ab漢字cd'.repeat(12) + '\nshort\n```';
  it('never draws a line wider than the width, at any shift, wide characters included', () => {
    for (let shift = 0; shift < 80; shift++) {
      const lines = renderMarkdown(text, 20, { codeShift: shift });
      expect(lines.length).toBe(2);
      for (const l of lines)
        expect(displayWidth(l.map((s) => s.text).join('')), `shift ${shift}`).toBeLessThanOrEqual(
          20,
        );
    }
    const first = renderMarkdown(text, 20, { codeShift: 0 })[0]!
      .map((s) => s.text)
      .join('');
    expect(first.trimEnd().endsWith('›')).toBe(true);
    expect(first).not.toContain('‹');
    const later = renderMarkdown(text, 20, { codeShift: 10 })[0]!
      .map((s) => s.text)
      .join('');
    expect(later.trimStart().startsWith('‹')).toBe(true);
  });
});
