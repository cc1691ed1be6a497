/**
 * Message text as a terminal reader sees it: Markdown laid out in styled
 * display lines for one width. Headings, emphasis, strong, inline code,
 * links (their text), bullet and numbered lists (continuation lines indented
 * under the item), block quotes, tables (aligned columns, cut to the width),
 * fenced code coloured by its language, rules. Single line breaks are kept
 * as breaks (agents write lines, not reflowable paragraphs).
 *
 * The input is untrusted: it is sanitized here, and by default made frame
 * safe (src/text/width.ts), so no output can carry a control character or
 * draw wider than measured. Output styles are semantic names (styled.ts).
 *
 * Why one file of ~560 lines: one block parser and one inline parser that share
 * the width, indent and style state of a single pass; highlighting and JSON
 * already live apart (highlightCode.ts, prettyJson.ts).
 */
import { highlightCode } from './highlightCode.js';
import { prettyJsonText } from './prettyJson.js';
import { sanitize, sanitizeLine } from './sanitize.js';
import {
  draftWidth,
  finishLines,
  wrapDraft,
  type Draft,
  type Style,
  type StyledLine,
} from './styled.js';
import { displayWidth, expandTabs, frameSafe, graphemes } from './width.js';
import { INLINE_MAX_CHARS, MARKDOWN_MAX_NESTING } from '../budgets.js';

export interface MarkdownOptions {
  /** Rewrite graphemes terminals disagree on (default true); see frameSafe. */
  frameSafe?: boolean;
  /**
   * Code blocks cut instead of wrapped, as `less -S`: each line shows the
   * columns from this one on, with ‹ / › where more lies to the left / right.
   * Undefined or null: code wraps.
   */
  codeShift?: number | null;
}

/** Narrowest column a table cell is cut to before the table gives up on columns. */
const MIN_CELL = 3;

/** Lines of `text` laid out at `width` columns. [] when width < 1. Never throws. */
export function renderMarkdown(
  text: string,
  width: number,
  options: MarkdownOptions = {},
): StyledLine[] {
  const max = Number.isFinite(width) ? Math.floor(width) : 0;
  if (max < 1) return [];
  let clean = sanitize(typeof text === 'string' ? text : '');
  if (options.frameSafe !== false) clean = frameSafe(clean);
  clean = expandTabs(clean);
  return finishLines(blocks(clean.split('\n'), max, 0, options.codeShift ?? null));
}

/**
 * Tool arguments or output that is JSON, pretty-printed with real line
 * breaks (a string holding `\n` escapes shown as its lines), wrapped at the
 * width with continuation lines indented under their key; null when `text`
 * is not JSON.
 */
export function renderToolJson(text: string, width: number): StyledLine[] | null {
  const max = Number.isFinite(width) ? Math.floor(width) : 0;
  if (max < 1) return null;
  const pretty = prettyJsonText(frameSafe(sanitize(typeof text === 'string' ? text : '')));
  if (pretty === null) return null;
  const out: Draft[] = [];
  for (const line of pretty.lines) {
    const lead = /^ */.exec(line[0]?.text ?? '')?.[0].length ?? 0;
    out.push(...wrapDraft(line, max, Math.min(lead + 2, Math.floor(max / 2))));
  }
  return finishLines(out);
}

// ------------------------------------------------------------------ blocks

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`]*?)\s*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,12})([-*+•]|\d{1,9}[.)])(\s+)(.*)$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}

/** Does this line start a block other than a paragraph? */
function startsBlock(line: string, next: string | undefined): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    (line.includes('|') && next !== undefined && TABLE_DELIMITER.test(next) && next.includes('-'))
  );
}

function prefixed(lines: Draft[], first: Draft, rest: Draft): Draft[] {
  return lines.map((l, i) => [...(i === 0 ? first : rest), ...l]);
}

function blocks(lines: string[], width: number, depth: number, shift: number | null): Draft[] {
  const out: Draft[] = [];
  let i = 0;
  let pendingBlank = false;
  const emit = (drafts: Draft[]): void => {
    if (pendingBlank && out.length > 0) out.push([]);
    pendingBlank = false;
    out.push(...drafts);
  };
  while (i < lines.length) {
    const line = lines[i] as string;
    if (isBlank(line)) {
      pendingBlank = true;
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[2] as string;
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const l = lines[i] as string;
        const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(l);
        if (
          close &&
          (close[1] as string)[0] === marker[0] &&
          (close[1] as string).length >= marker.length
        ) {
          i++;
          break;
        }
        body.push(l.slice(Math.min(l.length - l.trimStart().length, (fence[1] as string).length)));
        i++;
      }
      emit(codeBlock(body, fence[3] ?? '', width, shift));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const drafts = wrapDraft(restyle(inline(heading[2] ?? ''), 'heading'), width);
      emit(drafts);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      emit([[{ text: '─'.repeat(width), style: 'rule' }]]);
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] as string)) {
        inner.push(QUOTE.exec(lines[i] as string)?.[1] ?? '');
        i++;
      }
      const bar: Draft = [{ text: '│ ', style: 'quote' }];
      if (width <= 2 || depth >= MARKDOWN_MAX_NESTING) emit(paragraph(inner, width, 'quote'));
      else emit(prefixed(restyleQuote(blocks(inner, width - 2, depth + 1, shift)), bar, bar));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const baseIndent = (item[1] as string).length;
      const markerText = item[2] as string;
      const content: string[] = [item[4] as string];
      const contentColumn =
        baseIndent + markerText.length + Math.min((item[3] as string).length, 4);
      i++;
      while (i < lines.length) {
        const l = lines[i] as string;
        if (isBlank(l)) {
          // A blank line continues the item only when indented text follows.
          let j = i;
          while (j < lines.length && isBlank(lines[j])) j++;
          const next = lines[j];
          if (next !== undefined && indentOf(next) >= contentColumn) {
            for (; i < j; i++) content.push('');
            continue;
          }
          break;
        }
        const ind = indentOf(l);
        if (ind >= contentColumn) {
          content.push(l.slice(contentColumn));
        } else if (ind > baseIndent && ITEM.test(l)) {
          // A nested item indented less than the content column still belongs to this one.
          content.push(l.slice(baseIndent + 1));
        } else if (!startsBlock(l, lines[i + 1]) && ind > baseIndent) {
          content.push(l.trimStart());
        } else if (!startsBlock(l, lines[i + 1]) && !isBlank(content[content.length - 1])) {
          // Lazy continuation: an unindented line right after the item's text.
          content.push(l.trimStart());
        } else break;
        i++;
      }
      emit(listItem(markerText, content, width, depth, shift));
      continue;
    }
    if (
      line.includes('|') &&
      i + 1 < lines.length &&
      TABLE_DELIMITER.test(lines[i + 1] as string)
    ) {
      const rows: string[] = [line];
      const delimiter = lines[i + 1] as string;
      i += 2;
      while (i < lines.length && !isBlank(lines[i]) && (lines[i] as string).includes('|')) {
        rows.push(lines[i] as string);
        i++;
      }
      emit(table(rows, delimiter, width));
      continue;
    }
    const para: string[] = [line];
    i++;
    while (
      i < lines.length &&
      !isBlank(lines[i]) &&
      !startsBlock(lines[i] as string, lines[i + 1])
    ) {
      para.push(lines[i] as string);
      i++;
    }
    emit(paragraph(para, width, null));
  }
  return out;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function paragraph(lines: readonly string[], width: number, style: Style | null): Draft[] {
  const out: Draft[] = [];
  for (const line of lines) {
    // Leading spaces are kept (agents indent trees and outputs); wrapped parts align under them.
    const lead = /^ */.exec(line)?.[0].length ?? 0;
    const draft = inline(line.trim() === '' ? '' : line.replace(/ {2,}$/, ''));
    const styled = style === null ? draft : restyle(draft, style);
    out.push(...wrapDraft(styled, width, Math.min(lead, Math.floor(width / 2))));
  }
  return out;
}

/** Quote text keeps its own styles (code, strong) but plain text becomes quote-coloured. */
function restyleQuote(lines: Draft[]): Draft[] {
  return lines.map((l) =>
    l.map((s) => (s.style === 'plain' ? { ...s, style: 'quote' as Style } : s)),
  );
}

/** Every segment in `style`, except code, which stays code. */
function restyle(draft: Draft, style: Style): Draft {
  return draft.map((s) => (s.style === 'code' ? s : { ...s, style }));
}

function listItem(
  marker: string,
  content: string[],
  width: number,
  depth: number,
  shift: number | null,
): Draft[] {
  const bullet = /^\d/.test(marker) ? `${marker} ` : '• ';
  const w = displayWidth(bullet);
  if (width <= w + 1 || depth >= MARKDOWN_MAX_NESTING)
    return paragraph([`${bullet}${content.join(' ')}`], width, null);
  const inner = blocks(content, width - w, depth + 1, shift);
  if (inner.length === 0) inner.push([]);
  return prefixed(
    inner,
    [{ text: bullet, style: 'bullet' }],
    [{ text: ' '.repeat(w), style: 'plain' }],
  );
}

function codeBlock(body: string[], info: string, width: number, shift: number | null): Draft[] {
  const indent = width > 4 ? 2 : 0;
  const room = width - indent;
  const out: Draft[] = [];
  const pad: Draft = indent > 0 ? [{ text: ' '.repeat(indent), style: 'plain' }] : [];
  const label = sanitizeLine(info).trim();
  if (label !== '' && width > 4) out.push([{ text: label.slice(0, width), style: 'fence' }]);
  for (const line of highlightCode(body.join('\n'), info)) {
    const styled = line.map((s) => (s.style === 'plain' ? { ...s, style: 'code' as Style } : s));
    if (shift === null) for (const piece of hardWrap(styled, room)) out.push([...pad, ...piece]);
    else out.push([...pad, ...cutAt(styled, shift, room)]);
  }
  return out;
}

/**
 * One code line seen through a window of `width` columns from column `shift`
 * (less -S): ‹ in the first column when text lies to the left, › in the last
 * when text lies to the right.
 */
function cutAt(draft: Draft, shift: number, width: number): Draft {
  if (width < 3) return hardWrap(draft, width)[0] ?? [];
  const cells: { g: string; style: Style }[] = [];
  for (const seg of draft)
    for (const g of graphemes(seg.text)) {
      const w = displayWidth(g);
      if (w > 1) {
        // A wide grapheme takes two cells: the second is an empty marker.
        cells.push({ g, style: seg.style }, { g: '', style: seg.style });
      } else cells.push({ g: w === 1 ? g : '?', style: seg.style });
    }
  const from = Math.max(0, Math.min(shift, Math.max(0, cells.length - 1)));
  const left = from > 0;
  const right = cells.length - from > width;
  const start = from + (left ? 1 : 0);
  const end = from + width - (right ? 1 : 0);
  const out: Draft = [];
  const push = (text: string, style: Style): void => {
    const last = out[out.length - 1];
    if (last && last.style === style) last.text += text;
    else out.push({ text, style });
  };
  if (left) push('‹', 'fence');
  for (let i = start; i < Math.min(end, cells.length); i++) {
    const c = cells[i]!;
    // Half of a wide grapheme at either edge of the window shows as a space.
    if (c.g === '') push(i === start ? ' ' : '', c.style);
    else if (displayWidth(c.g) > 1 && i === end - 1) push(' ', c.style);
    else push(c.g, c.style);
  }
  if (right) push('›', 'fence');
  return out;
}

/** Code keeps its spaces: cut between graphemes only, never at words. */
function hardWrap(draft: Draft, width: number): Draft[] {
  if (width < 1) return [];
  const out: Draft[] = [[]];
  let used = 0;
  for (const seg of draft) {
    for (const g of graphemes(seg.text)) {
      const w = displayWidth(g);
      const text = w > width ? '?' : g;
      const tw = w > width ? 1 : w;
      if (used + tw > width) {
        out.push([]);
        used = 0;
      }
      const line = out[out.length - 1] as Draft;
      const last = line[line.length - 1];
      if (last && last.style === seg.style) last.text += text;
      else line.push({ text, style: seg.style });
      used += tw;
    }
  }
  return out;
}

// ------------------------------------------------------------------ tables

type Align = 'left' | 'right' | 'center';

function splitRow(row: string): string[] {
  let s = row.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '\\' && s[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '`') {
      inCode = !inCode;
      cell += ch;
    } else if (ch === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

/** A draft cut to `width` columns, ending in … when cut. */
function cutDraft(draft: Draft, width: number): Draft {
  if (draftWidth(draft) <= width) return draft;
  const out: Draft = [];
  let used = 0;
  const room = width - 1;
  for (const seg of draft) {
    let text = '';
    for (const g of graphemes(seg.text)) {
      const w = displayWidth(g);
      if (used + w > room) break;
      text += g;
      used += w;
    }
    if (text !== '') out.push({ text, style: seg.style });
    if (used >= room || text.length < seg.text.length) break;
  }
  if (width >= 1) out.push({ text: '…', style: 'muted' });
  return out;
}

function aligned(draft: Draft, width: number, align: Align): Draft {
  const cut = cutDraft(draft, width);
  const gap = Math.max(0, width - draftWidth(cut));
  const left = align === 'right' ? gap : align === 'center' ? Math.floor(gap / 2) : 0;
  const out: Draft = [];
  if (left > 0) out.push({ text: ' '.repeat(left), style: 'plain' });
  out.push(...cut);
  if (gap - left > 0) out.push({ text: ' '.repeat(gap - left), style: 'plain' });
  return out;
}

function table(rows: string[], delimiter: string, width: number): Draft[] {
  const aligns: Align[] = splitRow(delimiter).map((d) =>
    d.startsWith(':') && d.endsWith(':') ? 'center' : d.endsWith(':') ? 'right' : 'left',
  );
  const cells = rows.map((r, ri) =>
    splitRow(r).map((c) => (ri === 0 ? restyle(inline(c), 'tableHeader') : inline(c))),
  );
  const columns = Math.max(...cells.map((r) => r.length));
  const natural: number[] = [];
  for (let c = 0; c < columns; c++)
    natural.push(Math.max(1, ...cells.map((r) => draftWidth(r[c] ?? []))));
  const border = 3; // " │ " between columns
  const budget = width - border * (columns - 1);
  if (budget < columns * MIN_CELL) {
    // Too narrow for columns: one "header: value" line per cell.
    const out: Draft[] = [];
    const header = cells[0] ?? [];
    for (const row of cells.slice(1)) {
      row.forEach((cell, c) => {
        const head = header[c] ?? [];
        out.push(...wrapDraft([...head, { text: ': ', style: 'tableBorder' }, ...cell], width, 2));
      });
      out.push([{ text: '─'.repeat(Math.min(width, 3)), style: 'tableBorder' }]);
    }
    return out;
  }
  const widths = [...natural];
  // Shrink the widest column a column at a time until the table fits.
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    let widest = 0;
    for (let c = 1; c < columns; c++)
      if ((widths[c] as number) > (widths[widest] as number)) widest = c;
    if ((widths[widest] as number) <= MIN_CELL) break;
    widths[widest] = (widths[widest] as number) - 1;
  }
  const line = (row: Draft[]): Draft => {
    const out: Draft = [];
    for (let c = 0; c < columns; c++) {
      if (c > 0) out.push({ text: ' │ ', style: 'tableBorder' });
      out.push(...aligned(row[c] ?? [], widths[c] as number, aligns[c] ?? 'left'));
    }
    return out;
  };
  const out: Draft[] = [line(cells[0] ?? [])];
  out.push([{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: 'tableBorder' }]);
  for (const row of cells.slice(1)) out.push(line(row));
  return out;
}

// ------------------------------------------------------------------ inline

/**
 * Inline Markdown of one line: `code`, **strong**, __strong__, *emphasis*,
 * _emphasis_ (at word edges only, so snake_case stays), [text](url) as its
 * text, ![alt](url) as [image: alt], <https://…> autolinks, backslash escapes.
 * Unmatched markers are plain text.
 */
export function inline(text: string): Draft {
  const out: Draft = [];
  if (text.length > INLINE_MAX_CHARS) return text === '' ? out : [{ text, style: 'plain' }];
  parseInline(text, 'plain', out, 0);
  return out;
}

function pushText(out: Draft, text: string, style: Style): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last && last.style === style) last.text += text;
  else out.push({ text, style });
}

const WORDISH = /[\p{L}\p{N}]/u;

function parseInline(s: string, style: Style, out: Draft, depth: number): void {
  let i = 0;
  let plain = '';
  const flush = (): void => {
    pushText(out, plain, style);
    plain = '';
  };
  while (i < s.length) {
    const ch = s[i] as string;
    if (ch === '\\' && i + 1 < s.length && /[\\`*_{}[\]()#+\-.!|>~<]/.test(s[i + 1] as string)) {
      plain += s[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(s.slice(i))?.[0] ?? '`';
      const end = s.indexOf(run, i + run.length);
      if (end > 0) {
        flush();
        let code = s.slice(i + run.length, end);
        if (code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '')
          code = code.slice(1, -1);
        pushText(out, code, 'code');
        i = end + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (ch === '!' && s[i + 1] === '[') {
      const link = linkAt(s, i + 1);
      if (link) {
        flush();
        pushText(out, `[image: ${link.text}]`, 'link');
        i = link.end;
        continue;
      }
    }
    if (ch === '[') {
      const link = linkAt(s, i);
      if (link && depth < MARKDOWN_MAX_NESTING) {
        flush();
        parseInline(link.text, 'link', out, depth + 1);
        i = link.end;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<((?:https?|mailto):[^\s<>]+)>/.exec(s.slice(i));
      if (auto) {
        flush();
        pushText(out, auto[1] as string, 'link');
        i += auto[0].length;
        continue;
      }
    }
    if ((ch === '*' || ch === '_') && depth < MARKDOWN_MAX_NESTING) {
      const double = s[i + 1] === ch;
      const marker = double ? ch + ch : ch;
      const before = s[i - 1];
      const after = s[i + marker.length];
      const opens =
        after !== undefined &&
        !/\s/.test(after) &&
        (ch === '*' || before === undefined || !WORDISH.test(before));
      if (opens) {
        const close = findClose(s, i + marker.length, marker);
        if (close > i + marker.length) {
          flush();
          const inner = s.slice(i + marker.length, close);
          const innerStyle: Style = double ? 'strong' : style === 'strong' ? 'strong' : 'emphasis';
          parseInline(inner, style === 'link' ? 'link' : innerStyle, out, depth + 1);
          i = close + marker.length;
          continue;
        }
      }
      // A marker run that opens nothing is text.
      plain += marker;
      i += marker.length;
      continue;
    }
    plain += ch;
    i++;
  }
  flush();
}

/** The closing marker: not after a space, and for _ not inside a word. */
function findClose(s: string, from: number, marker: string): number {
  let j = s.indexOf(marker, from);
  while (j > from - 1 && j >= 0) {
    const before = s[j - 1];
    const after = s[j + marker.length];
    const okBefore = before !== undefined && !/\s/.test(before);
    const okAfter = marker[0] === '*' || after === undefined || !WORDISH.test(after);
    // A single * must not be half of a ** run.
    const single = marker.length === 1 && (s[j + 1] === marker || s[j - 1] === marker);
    if (okBefore && okAfter && !single) return j;
    j = s.indexOf(marker, j + 1);
  }
  return -1;
}

/** `[text](url)` starting at `i` (at the `[`): the text and where it ends. */
function linkAt(s: string, i: number): { text: string; end: number } | null {
  let depth = 0;
  let j = i;
  for (; j < s.length; j++) {
    if (s[j] === '\\') {
      j++;
      continue;
    }
    if (s[j] === '[') depth++;
    else if (s[j] === ']' && --depth === 0) break;
  }
  if (j >= s.length || s[j + 1] !== '(') return null;
  const close = s.indexOf(')', j + 2);
  if (close < 0) return null;
  const url = s.slice(j + 2, close).trim();
  const text = s.slice(i + 1, j);
  return { text: text.trim() === '' ? url : text, end: close + 1 };
}
