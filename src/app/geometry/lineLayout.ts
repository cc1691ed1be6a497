/**
 * Line layout of messages: each message is pre-wrapped into display lines for
 * one width (string-width aware, via src/text/width.ts) and cached per
 * (message id, width, expanded, reasoning shown, highlight terms). The message
 * window scrolls over these lines, so all its arithmetic is on integers.
 * Everything that came from the store is sanitized here, before layout.
 */
import { isAgentMessageId, messageLabel } from '../data/agentIds.js';
import { contentText, toolCallNames, type ToolCall } from '../../store/content.js';
import type { Message } from '../../store/types.js';
import { splitHighlights } from '../../text/highlight.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import { displayWidth, truncate, wrap } from '../../text/width.js';
import { clockTime, formatCount } from '../../text/format.js';
import { glyph, roleTone, type Tone } from '../theme.js';

/** A run of text with one style. */
export interface Span {
  text: string;
  tone?: Tone;
  hit?: boolean;
  bold?: boolean;
  italic?: boolean;
}

export type Line = readonly Span[];

/** Columns left of every message line: the focus bar and the anchor/mark glyph. */
export const GUTTER = 2;
/** Body lines are indented under the header by this much. */
export const BODY_INDENT = 2;
/** Characters of one message laid out; a multi-megabyte paste would otherwise cost seconds and thousands of lines. */
export const MESSAGE_MAX_CHARS = 50_000;
/** Lines of an expanded tool call or tool output; the rest is a note (copy the message to read it all). */
export const EXPANDED_MAX_LINES = 400;
/** Reasoning is a side channel: a few screens at most. */
export const REASONING_MAX_CHARS = 8_000;
/** Laid-out messages kept; a few windows' worth at two widths. */
export const LAYOUT_CACHE_MAX = 2_000;

export interface LayoutOptions {
  /** Columns available right of the gutter. */
  width: number;
  expanded: boolean;
  reasoning: boolean;
  /** Terms to highlight (already parsed from the query). */
  terms: readonly string[];
}

export interface MessageLayout {
  /** lines[0] is the header. */
  lines: Line[];
  /** Has a collapsed or expandable part (tool call, tool output, system prompt). */
  expandable: boolean;
}

function capText(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  return { text: text.slice(0, max), cut: text.length - max };
}

function highlighted(line: string, terms: readonly string[], tone?: Tone, italic?: boolean): Line {
  const spans: Span[] = [{ text: ' '.repeat(BODY_INDENT) }];
  if (terms.length === 0) {
    spans.push({ text: line, ...(tone ? { tone } : {}), ...(italic ? { italic } : {}) });
    return spans;
  }
  for (const seg of splitHighlights(line, terms))
    spans.push({
      text: seg.text,
      ...(seg.hit ? { hit: true } : tone ? { tone } : {}),
      ...(italic ? { italic } : {}),
    });
  return spans;
}

function bodyLines(
  text: string,
  width: number,
  terms: readonly string[],
  tone?: Tone,
  italic?: boolean,
): Line[] {
  return wrap(text, Math.max(1, width - BODY_INDENT)).map((l) =>
    highlighted(l, terms, tone, italic),
  );
}

function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function summaryLine(parts: string[], width: number, terms: readonly string[]): Line {
  const text = truncate(
    parts.filter((p) => p !== '').join(' · '),
    Math.max(1, width - BODY_INDENT),
  );
  const spans: Span[] = [{ text: ' '.repeat(BODY_INDENT) }];
  for (const seg of splitHighlights(text, terms))
    spans.push({ text: seg.text, ...(seg.hit ? { hit: true } : { tone: 'tool' as Tone }) });
  return spans;
}

function expandedLines(text: string, width: number, terms: readonly string[]): Line[] {
  const lines = bodyLines(text, width, terms, 'dim');
  if (lines.length <= EXPANDED_MAX_LINES) return lines;
  const more = lines.length - EXPANDED_MAX_LINES;
  return [
    ...lines.slice(0, EXPANDED_MAX_LINES),
    [
      { text: ' '.repeat(BODY_INDENT) },
      {
        text: `… ${formatCount(more)} more lines (copy the message to read them all)`,
        tone: 'dim',
      },
    ],
  ];
}

function callArguments(call: ToolCall): string {
  const raw = call.function?.arguments;
  if (typeof raw !== 'string') return raw === undefined ? '' : JSON.stringify(raw, null, 2);
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function oneLinePreview(text: string): string {
  return sanitizeLine(text.length > 400 ? text.slice(0, 400) : text).trim();
}

function headerLine(m: Message, extra: string): Line {
  const role = sanitizeLine(m.role) || 'message';
  const spans: Span[] = [
    { text: role, tone: roleTone(m.role), bold: true },
    { text: ` · ${clockTime(m.timestamp)} · ${idLabel(m.id)}`, tone: 'dim' },
  ];
  if (extra) spans.push({ text: ` · ${extra}`, tone: 'dim' });
  return spans;
}

/** Lays out one message (uncached). */
export function layoutMessageUncached(m: Message, opts: LayoutOptions): MessageLayout {
  const width = Math.max(4, opts.width);
  const { terms } = opts;
  const lines: Line[] = [];
  let expandable = false;
  const text = sanitize(contentText(m.content));
  const isToolish = m.role === 'tool' || m.role === 'system';
  const toolName = m.tool_name ? sanitizeLine(m.tool_name) : '';
  lines.push(headerLine(m, m.role === 'tool' ? toolName : ''));

  if (opts.reasoning && m.reasoning) {
    const r = capText(sanitize(m.reasoning), REASONING_MAX_CHARS);
    lines.push([
      { text: ' '.repeat(BODY_INDENT) },
      { text: 'thinking', tone: 'dim', italic: true },
    ]);
    lines.push(
      ...bodyLines(
        r.text + (r.cut ? ` … (${formatCount(r.cut)} more characters)` : ''),
        width,
        terms,
        'dim',
        true,
      ),
    );
  }

  if (isToolish) {
    expandable = text !== '';
    const n = countLines(text);
    const label =
      m.role === 'tool'
        ? `${glyph.tool} ${toolName || 'tool'} output`
        : `${glyph.tool} system prompt`;
    lines.push(
      summaryLine(
        [
          label,
          `${formatCount(n)} line${n === 1 ? '' : 's'}`,
          opts.expanded ? '' : oneLinePreview(text),
        ],
        width,
        terms,
      ),
    );
    if (opts.expanded && text !== '') {
      const c = capText(text, MESSAGE_MAX_CHARS);
      lines.push(...expandedLines(c.text, width, terms));
    }
  } else if (text !== '') {
    const c = capText(text, MESSAGE_MAX_CHARS);
    lines.push(...bodyLines(c.text, width, terms));
    if (c.cut)
      lines.push([
        { text: ' '.repeat(BODY_INDENT) },
        {
          text: `… ${formatCount(c.cut)} more characters (copy the message to read them all)`,
          tone: 'dim',
        },
      ]);
  }

  const calls = m.tool_calls;
  if (calls !== null) {
    expandable = true;
    if (typeof calls === 'string') {
      const raw = sanitize(calls);
      lines.push(
        summaryLine(
          [`${glyph.tool} (unreadable tool call)`, `${formatCount(countLines(raw))} lines`],
          width,
          terms,
        ),
      );
      if (opts.expanded)
        lines.push(...expandedLines(capText(raw, MESSAGE_MAX_CHARS).text, width, terms));
    } else {
      const names = toolCallNames(calls);
      calls.forEach((call, i) => {
        const args = sanitize(callArguments(call));
        const n = countLines(args);
        const name = sanitizeLine(names[i] ?? 'tool');
        lines.push(
          summaryLine(
            [
              `${glyph.tool} ${name}`,
              `${formatCount(n)} line${n === 1 ? '' : 's'}`,
              opts.expanded ? '' : oneLinePreview(args),
            ],
            width,
            terms,
          ),
        );
        if (opts.expanded && args !== '')
          lines.push(...expandedLines(capText(args, MESSAGE_MAX_CHARS).text, width, terms));
      });
    }
  }

  if (lines.length === 1)
    lines.push([{ text: ' '.repeat(BODY_INDENT) }, { text: '(no text)', tone: 'dim' }]);
  return { lines, expandable };
}

const cache = new Map<string, MessageLayout>();

function cacheKey(m: Message, opts: LayoutOptions): string {
  return `${m.id}|${m.session_id}|${opts.width}|${opts.expanded ? 1 : 0}|${opts.reasoning ? 1 : 0}|${opts.terms.join('\u0000')}`;
}

/** Lays out one message, memoised: a key press never re-wraps what is already laid out. */
export function layoutMessage(m: Message, opts: LayoutOptions): MessageLayout {
  const key = cacheKey(m, opts);
  const hit = cache.get(key);
  if (hit) {
    // Refresh its place in the LRU order.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const out = layoutMessageUncached(m, opts);
  cache.set(key, out);
  if (cache.size > LAYOUT_CACHE_MAX) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return out;
}

export function clearLayoutCache(): void {
  cache.clear();
}

/** A message's readable text (text parts of structured content, placeholders for the rest); not yet sanitized. */
export function messageText(m: Message): string {
  return contentText(m.content);
}

/** The text of a line, for tests and width checks. */
export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}

export function lineWidth(line: Line): number {
  return displayWidth(lineText(line));
}

/**
 * A line cut to `width` columns (span by span, never splitting a grapheme),
 * then padded with spaces to exactly `width`.
 */
export function fitLine(line: Line, width: number): Span[] {
  const out: Span[] = [];
  let used = 0;
  for (const span of line) {
    if (used >= width) break;
    const w = displayWidth(span.text);
    if (used + w <= width) {
      out.push(span);
      used += w;
    } else {
      const cut = truncate(span.text, width - used);
      out.push({ ...span, text: cut });
      used += displayWidth(cut);
      break;
    }
  }
  if (used < width) out.push({ text: ' '.repeat(width - used) });
  return out;
}

/** `#123` for a Hermes message; another agent's message by its position (`#4`). */
function idLabel(id: number): string {
  return isAgentMessageId(id) ? messageLabel(id) : `#${id}`;
}
