/**
 * Line layout of messages: each message is pre-wrapped into display lines for
 * one width (string-width aware, via src/text/width.ts) and cached per
 * (message id, width, expanded, reasoning shown, highlight terms). The message
 * window scrolls over these lines, so all its arithmetic is on integers.
 * Everything that came from the store is sanitized here, before layout, and
 * made frame safe (width.ts frameSafe): a skin-tone emoji, a flag or a ZWJ
 * sequence is drawn at the width it is measured at in every terminal, so no
 * line can wrap on screen and push the frame taller than the terminal.
 * Message text is rendered as Markdown (src/text/markdown.ts), tool calls and
 * outputs that are JSON pretty-printed with their real line breaks.
 */
import { messageTag } from '../../ids/app.js';
import { contentText, toolCallNames, type ToolCall } from '../../store/content.js';
import type { Message } from '../../store/types.js';
import { splitHighlights } from '../../text/highlight.js';
import { renderMarkdown, renderToolJson } from '../../text/markdown.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import { overlayHighlights, type StyledLine } from '../../text/styled.js';
import { displayWidth, frameSafe, truncate, wrap } from '../../text/width.js';
import { clockTime, formatCount } from '../../text/format.js';
import { glyph, roleTone, styleLook, type Tone } from '../theme.js';

/** A run of text with one style. */
export interface Span {
  text: string;
  tone?: Tone;
  hit?: boolean;
  bold?: boolean;
  italic?: boolean;
  /** Reverse video: the search line's cursor cell and selected query. */
  inverse?: boolean;
}

export type Line = readonly Span[];

/** Columns left of every message line: the focus bar and the anchor/mark glyph. */
export const GUTTER = 2;
/** Body lines are indented under the header by this much. */
export const BODY_INDENT = 2;
import { MESSAGE_MAX_CHARS } from '../../budgets.js';
export { MESSAGE_MAX_CHARS };
import { EXPANDED_MAX_LINES } from '../../budgets.js';
export { EXPANDED_MAX_LINES };
import { REASONING_MAX_CHARS } from '../../budgets.js';
export { REASONING_MAX_CHARS };
import { LAYOUT_CACHE_MAX } from '../../budgets.js';
export { LAYOUT_CACHE_MAX };

export interface LayoutOptions {
  /** Columns available right of the gutter. */
  width: number;
  expanded: boolean;
  reasoning: boolean;
  /** Terms to highlight (already parsed from the query). */
  terms: readonly string[];
  /**
   * Tool steps hidden: a tool output and a message that is only tool calls
   * lay out as no lines at all (the window skips them), and a message's own
   * tool-call lines are left out.
   */
  hideTools?: boolean;
  /** Code blocks cut at this column instead of wrapped (less -S); null or undefined: wrapped. */
  codeShift?: number | null;
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
  return wrap(frameSafe(text), Math.max(1, width - BODY_INDENT)).map((l) =>
    highlighted(l, terms, tone, italic),
  );
}

/** Styled lines (Markdown, JSON) with the search terms laid over them, indented under the header. */
function styledLines(styled: readonly StyledLine[], terms: readonly string[]): Line[] {
  return overlayHighlights(styled, terms).map((l) => {
    const spans: Span[] = [{ text: ' '.repeat(BODY_INDENT) }];
    for (const seg of l) {
      const look = styleLook(seg.style);
      spans.push({
        text: seg.text,
        ...(seg.hit ? { hit: true } : look.tone ? { tone: look.tone } : {}),
        ...(look.bold ? { bold: true } : {}),
        ...(look.italic ? { italic: true } : {}),
      });
    }
    return spans;
  });
}

/** Message text as a terminal reader shows Markdown. */
function markdownLines(
  text: string,
  width: number,
  terms: readonly string[],
  codeShift: number | null,
): Line[] {
  const styled = renderMarkdown(text, Math.max(1, width - BODY_INDENT), { codeShift });
  return styledLines(styled.length > 0 ? styled : [[]], terms);
}

/** A tool call's arguments or a tool's output: pretty JSON when it is JSON, else its lines. */
function toolBodyLines(text: string, width: number, terms: readonly string[]): Line[] {
  const json = renderToolJson(text, Math.max(1, width - BODY_INDENT));
  return json ? styledLines(json, terms) : bodyLines(text, width, terms, 'dim');
}

function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function summaryLine(parts: string[], width: number, terms: readonly string[]): Line {
  const text = truncate(
    frameSafe(parts.filter((p) => p !== '').join(' · ')),
    Math.max(1, width - BODY_INDENT),
  );
  const spans: Span[] = [{ text: ' '.repeat(BODY_INDENT) }];
  for (const seg of splitHighlights(text, terms))
    spans.push({ text: seg.text, ...(seg.hit ? { hit: true } : { tone: 'tool' as Tone }) });
  return spans;
}

function expandedLines(text: string, width: number, terms: readonly string[]): Line[] {
  const lines = toolBodyLines(text, width, terms);
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

/** Characters of context kept before a hit on a collapsed line (the line is short: the label takes half). */
const PREVIEW_LEAD = 10;

/**
 * The collapsed line's preview: the start of the text, or, when a search
 * term matches inside it, the fragment around the first match, so opening a
 * hit in a tool call or output shows the match without expanding it.
 */
function oneLinePreview(text: string, terms: readonly string[] = []): string {
  let from = 0;
  if (terms.length > 0) {
    let at = 0;
    for (const seg of splitHighlights(text, terms)) {
      if (seg.hit) {
        from = at;
        break;
      }
      at += seg.text.length;
    }
  }
  if (from <= PREVIEW_LEAD) from = 0;
  else {
    // Start at a word boundary a little before the match.
    const back = text.lastIndexOf(' ', from - 1);
    from = back >= from - PREVIEW_LEAD ? back + 1 : from - PREVIEW_LEAD;
  }
  const part = text.slice(from, from + 400);
  return (from > 0 ? '…' : '') + sanitizeLine(part).trim();
}

function headerLine(m: Message, extra: string): Line {
  const role = frameSafe(sanitizeLine(m.role)) || 'message';
  const spans: Span[] = [
    { text: role, tone: roleTone(m.role), bold: true },
    { text: ` · ${clockTime(m.timestamp)} · ${idLabel(m.id)}`, tone: 'dim' },
  ];
  if (extra) spans.push({ text: ` · ${frameSafe(extra)}`, tone: 'dim' });
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
  const hideTools = opts.hideTools === true;
  if (hideTools && m.role === 'tool') return { lines: [], expandable: false };
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
          opts.expanded ? '' : oneLinePreview(text, terms),
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
    lines.push(...markdownLines(c.text, width, terms, opts.codeShift ?? null));
    if (c.cut)
      lines.push([
        { text: ' '.repeat(BODY_INDENT) },
        {
          text: `… ${formatCount(c.cut)} more characters (copy the message to read them all)`,
          tone: 'dim',
        },
      ]);
  }

  const calls = hideTools ? null : m.tool_calls;
  if (hideTools && m.tool_calls !== null && lines.length === 1)
    return { lines: [], expandable: false };
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
              opts.expanded ? '' : oneLinePreview(args, terms),
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
  return `${m.id}|${m.session_id}|${opts.width}|${opts.expanded ? 1 : 0}|${opts.reasoning ? 1 : 0}|${opts.hideTools === true ? 1 : 0}|${opts.codeShift ?? 'w'}|${opts.terms.join('\u0000')}`;
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
 * then padded with spaces to exactly `width`. Every line the app draws (panes,
 * header, search and status lines, menus) passes here, so here each span is
 * made frame safe: whatever store text reached it (a title, a snippet, a
 * path), no terminal draws it wider than it is measured, and the frame can
 * never grow taller than the terminal.
 */
export function fitLine(line: Line, width: number): Span[] {
  const out: Span[] = [];
  let used = 0;
  for (const raw of line) {
    if (used >= width) break;
    const safe = frameSafe(raw.text);
    const span = safe === raw.text ? raw : { ...raw, text: safe };
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

/** `#123` for a Hermes message (any profile's, by its store's id); another agent's message by its position (`#4`). */
function idLabel(id: number): string {
  return messageTag(id);
}
