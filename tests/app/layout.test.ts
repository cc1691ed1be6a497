import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/store/types.js';
import { displayWidth, frameSafe, safeWidth } from '../../src/text/width.js';
import {
  fitLine,
  layoutMessage,
  layoutMessageUncached,
  lineText,
  lineWidth,
} from '../../src/app/geometry/lineLayout.js';

function msg(over: Partial<Message>): Message {
  return {
    id: 1,
    session_id: 's',
    role: 'assistant',
    content: '',
    timestamp: 1_790_000_000,
    tool_name: null,
    tool_calls: null,
    tool_call_id: null,
    reasoning: null,
    ...over,
  };
}

const opts = { width: 30, expanded: false, reasoning: false, terms: [] as string[] };

describe('line layout', () => {
  it('wraps CJK and emoji by display width, never past the pane', () => {
    const content =
      '数据库连接池排查：连接数一直在增长，看起来像是泄漏 🙏🚀 with some English words mixed in 👍🏽 and 👨‍👩‍👧 families';
    const l = layoutMessageUncached(msg({ content }), opts);
    expect(l.lines.length).toBeGreaterThan(3);
    // Measured the way the widest-drawing terminal draws it, too.
    for (const line of l.lines.slice(1)) expect(safeWidth(lineText(line))).toBeLessThanOrEqual(30);
    // Nothing lost but what frameSafe rewrites (👍🏽 → 👍, 👨‍👩‍👧 → 👨); spaces at wraps aside.
    const body = l.lines
      .slice(1)
      .map((x) => lineText(x).trim())
      .join('');
    expect(body.replace(/\s/g, '')).toBe(frameSafe(content).replace(/\s/g, ''));
  });

  it('starts with a role header and sanitizes hostile text', () => {
    const l = layoutMessageUncached(
      msg({ role: 'user', content: 'hi \x1b]52;c;ZXZpbA==\x07there\x1b[31m red' }),
      opts,
    );
    expect(lineText(l.lines[0]!)).toMatch(/^user · \d{4}-\d\d-\d\d \d\d:\d\d · #1$/);
    const all = l.lines.map(lineText).join('\n');
    expect(all).not.toMatch(/\x1b|\x07/);
    expect(all).toContain('hi there red');
  });

  it('collapses tool calls and tool output to one line each, expandable', () => {
    const opts = { width: 60, expanded: false, reasoning: false, terms: [] as string[] };
    const calls = [
      {
        id: 'c1',
        type: 'function',
        function: { name: 'terminal', arguments: '{"command":"ls -la"}' },
      },
    ];
    const collapsed = layoutMessageUncached(
      msg({ content: 'Let me check.', tool_calls: calls }),
      opts,
    );
    expect(collapsed.expandable).toBe(true);
    expect(lineText(collapsed.lines[collapsed.lines.length - 1]!)).toContain(
      '⚙ terminal · 3 lines',
    );
    const open = layoutMessageUncached(msg({ content: 'Let me check.', tool_calls: calls }), {
      ...opts,
      expanded: true,
    });
    expect(open.lines.length).toBeGreaterThan(collapsed.lines.length);
    expect(open.lines.map(lineText).join('\n')).toContain('"command": "ls -la"');

    const out = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const tool = layoutMessageUncached(
      msg({ role: 'tool', tool_name: 'terminal', content: out }),
      opts,
    );
    expect(tool.lines).toHaveLength(2);
    expect(lineText(tool.lines[1]!)).toContain('⚙ terminal output · 40 lines');
    const toolOpen = layoutMessageUncached(
      msg({ role: 'tool', tool_name: 'terminal', content: out }),
      { ...opts, expanded: true },
    );
    expect(toolOpen.lines).toHaveLength(42);
  });

  it('hides reasoning unless asked', () => {
    const m = msg({ content: 'answer', reasoning: 'first I think' });
    expect(layoutMessageUncached(m, opts).lines.map(lineText).join(' ')).not.toContain(
      'first I think',
    );
    expect(
      layoutMessageUncached(m, { ...opts, reasoning: true })
        .lines.map(lineText)
        .join(' '),
    ).toContain('first I think');
  });

  it('highlights query terms', () => {
    const l = layoutMessageUncached(msg({ content: 'the billing migration ran' }), {
      ...opts,
      terms: ['billing'],
    });
    const hits = l.lines
      .flat()
      .filter((s) => s.hit)
      .map((s) => s.text);
    expect(hits).toEqual(['billing']);
  });

  it('caches per message, width and expansion', () => {
    const m = msg({ id: 77, content: 'x' });
    expect(layoutMessage(m, opts)).toBe(layoutMessage(m, opts));
    expect(layoutMessage(m, { ...opts, width: 31 })).not.toBe(layoutMessage(m, opts));
  });

  it('fits a line to an exact width, CJK included', () => {
    for (const w of [1, 5, 9, 10, 11]) {
      const fitted = fitLine([{ text: '漢字かな' }, { text: 'abc🙂' }], w);
      expect(displayWidth(fitted.map((s) => s.text).join(''))).toBe(w);
    }
  });

  it('renders message text as Markdown: no raw markers, code lines kept, continuation indented', () => {
    const content = [
      '# Pool leak',
      '',
      'The **pool** grows and *never* shrinks.',
      '',
      '- first item that is long enough to wrap onto a second line here',
      '- second',
      '',
      '| key | value |',
      '| --- | ----- |',
      '| max | 20 |',
      '',
      '```ts',
      'const pool = createPool({ max: 20 });',
      '```',
    ].join('\n');
    const l = layoutMessageUncached(msg({ content }), { ...opts, width: 40 });
    const text = l.lines.slice(1).map(lineText);
    const all = text.join('\n');
    expect(all).not.toMatch(/^\s*#/m);
    expect(all).not.toContain('**');
    expect(all).not.toContain('```');
    expect(all).toContain('Pool leak');
    expect(all).toContain('The pool grows and never shrinks.');
    expect(all).toContain('const pool = createPool');
    expect(all).toMatch(/max\s+│?\s*20/);
    // The heading and strong text are bold, not marked up.
    const heading = l.lines.find((x) => lineText(x).includes('Pool leak'))!;
    expect(heading.some((s) => s.text.includes('Pool leak') && s.bold)).toBe(true);
    // A wrapped list item's continuation is indented under its text, not under the bullet.
    const first = text.findIndex((t) => t.includes('first item'));
    const cont = text[first + 1]!;
    const bulletCol = text[first]!.search(/\S/);
    expect(cont.search(/\S/)).toBeGreaterThan(bulletCol);
    for (const line of l.lines) expect(lineWidth(line)).toBeLessThanOrEqual(40);
  });

  it('pretty-prints tool JSON with real line breaks when expanded', () => {
    const m = msg({
      role: 'tool',
      tool_name: 'terminal',
      content: JSON.stringify({ output: 'line one\nline two', exit_code: 0 }),
    });
    const l = layoutMessageUncached(m, { ...opts, width: 60, expanded: true });
    const text = l.lines.map(lineText);
    expect(text.some((t) => t.includes('line one') && !t.includes('line two'))).toBe(true);
    expect(text.some((t) => t.includes('line two'))).toBe(true);
    expect(text.some((t) => t.includes('"exit_code"') || t.includes('exit_code'))).toBe(true);
    expect(text.join('\n')).not.toContain('\\n');
  });

  it('shows the matching fragment of a collapsed tool output', () => {
    const filler = 'nothing to see here '.repeat(20);
    const m = msg({
      role: 'tool',
      tool_name: 'terminal',
      content: `${filler}ECONNRESET at socket`,
    });
    const collapsed = layoutMessageUncached(m, { ...opts, width: 60, terms: ['econnreset'] });
    const summary = collapsed.lines[1]!;
    expect(lineText(summary)).toContain('ECONNRESET');
    expect(summary.some((s) => s.hit && s.text === 'ECONNRESET')).toBe(true);
    // Without a search the preview is the start of the output.
    const plain = layoutMessageUncached(m, { ...opts, width: 60 });
    expect(lineText(plain.lines[1]!)).not.toContain('ECONNRESET');
  });

  it('keeps skin tones, flags and ZWJ sequences within the width in every terminal', () => {
    const content = '👍🏽👍🏿 🇯🇵🇫🇷🇺🇸 👨‍👩‍👧‍👦👩🏽‍💻 ';
    for (const width of [6, 11, 30]) {
      const l = layoutMessageUncached(msg({ content: content.repeat(4), tool_name: '🇯🇵' }), {
        ...opts,
        width,
      });
      for (const line of l.lines.slice(1))
        expect(safeWidth(lineText(line))).toBeLessThanOrEqual(width);
      expect(l.lines.slice(1).map(lineText).join('')).toContain('[JP]');
    }
  });
});
