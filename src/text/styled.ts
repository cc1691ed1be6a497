/**
 * Styled display lines: what the Markdown renderer, the code colouring and
 * the JSON pretty-printer produce. A style is a semantic token name, never a
 * colour or an escape sequence; the theme decides how each looks. Text in a
 * segment is sanitized and holds no newline; a line fits the width it was
 * laid out for.
 */
import { splitHighlights } from './highlight.js';
import { displayWidth, graphemes } from './width.js';

export type Style =
  | 'plain'
  | 'heading'
  | 'strong'
  | 'emphasis'
  | 'code'
  | 'link'
  | 'quote'
  | 'bullet'
  | 'rule'
  | 'tableBorder'
  | 'tableHeader'
  | 'fence'
  | 'keyword'
  | 'string'
  | 'comment'
  | 'number'
  | 'key'
  | 'punct'
  | 'muted';

export interface StyledSegment {
  text: string;
  style: Style;
  /**
   * Where this text starts in the plain text of the whole output (the
   * segments' text, lines joined with "\n"), so search hits found in that
   * plain text can be laid over the styled lines.
   */
  start: number;
  /** Set by overlayHighlights on the parts that match a search term. */
  hit?: boolean;
}

export type StyledLine = StyledSegment[];

/** A line under construction: segments without offsets. */
export type Draft = { text: string; style: Style }[];

/** Merges neighbours of one style, drops empty segments and numbers the offsets. */
export function finishLines(drafts: readonly Draft[]): StyledLine[] {
  const out: StyledLine[] = [];
  let offset = 0;
  for (const draft of drafts) {
    const line: StyledLine = [];
    for (const seg of draft) {
      if (seg.text === '') continue;
      const last = line[line.length - 1];
      if (last && last.style === seg.style) last.text += seg.text;
      else line.push({ text: seg.text, style: seg.style, start: offset });
      offset += seg.text.length;
    }
    out.push(line);
    offset += 1; // the "\n" between lines
  }
  return out;
}

/** The plain text the offsets refer to. */
export function plainText(lines: readonly StyledLine[]): string {
  return lines.map((l) => l.map((s) => s.text).join('')).join('\n');
}

/**
 * Search hits laid over styled lines: occurrences of `terms` (as
 * splitHighlights finds them in the plain text, so a hit may cross segment
 * boundaries) split the segments they touch and get `hit: true`.
 */
export function overlayHighlights(
  lines: readonly StyledLine[],
  terms: readonly string[],
): StyledLine[] {
  if (terms.length === 0) return lines.map((l) => l.map((s) => ({ ...s })));
  const ranges: [number, number][] = [];
  let at = 0;
  for (const seg of splitHighlights(plainText(lines), terms)) {
    if (seg.hit) ranges.push([at, at + seg.text.length]);
    at += seg.text.length;
  }
  return lines.map((line) => {
    const out: StyledLine = [];
    for (const seg of line) {
      const end = seg.start + seg.text.length;
      let cut = seg.start;
      for (const [a, b] of ranges) {
        if (b <= cut || a >= end) continue;
        const from = Math.max(a, cut);
        const to = Math.min(b, end);
        if (from > cut) out.push(piece(seg, cut, from, false));
        out.push(piece(seg, from, to, true));
        cut = to;
      }
      if (cut < end) out.push(piece(seg, cut, end, false));
    }
    return out;
  });
}

function piece(seg: StyledSegment, from: number, to: number, hit: boolean): StyledSegment {
  const text = seg.text.slice(from - seg.start, to - seg.start);
  return hit
    ? { text, style: seg.style, start: from, hit: true }
    : { text, style: seg.style, start: from };
}

interface Cell {
  g: string;
  w: number;
  style: Style;
}

function cellsOf(draft: Draft): Cell[] {
  const out: Cell[] = [];
  for (const seg of draft)
    for (const g of graphemes(seg.text)) out.push({ g, w: displayWidth(g), style: seg.style });
  return out;
}

function toDraft(cells: readonly Cell[]): Draft {
  const out: Draft = [];
  for (const c of cells) {
    const last = out[out.length - 1];
    if (last && last.style === c.style) last.text += c.g;
    else out.push({ text: c.g, style: c.style });
  }
  return out;
}

function breakable(cells: readonly Cell[], i: number): boolean {
  const prev = cells[i - 1];
  const cur = cells[i];
  if (!prev || !cur) return false;
  if (cur.g === ' ') return prev.g !== ' ';
  return cur.w > 1 || prev.w > 1 || (prev.g === '-' && cur.g !== '-');
}

/**
 * One styled line wrapped to `width` columns: breaks at spaces (dropped at
 * the wrap), after hyphens and around wide characters, words longer than a
 * line broken between graphemes. Continuation lines start with `indent`
 * spaces (ignored when it leaves no room). A grapheme wider than the line
 * becomes "?". Every returned line is at most `width` columns.
 */
export function wrapDraft(draft: Draft, width: number, indent = 0): Draft[] {
  const max = Number.isFinite(width) ? Math.floor(width) : 0;
  if (max < 1) return [];
  const cont = indent > 0 && indent < max ? Math.floor(indent) : 0;
  const cells = cellsOf(draft);
  const out: Draft[] = [];
  let start = 0;
  let first = true;
  if (cells.length === 0) return [[]];
  while (start < cells.length) {
    const room = first ? max : max - cont;
    let used = 0;
    let i = start;
    let lastBreak = -1;
    while (i < cells.length) {
      const w = (cells[i] as Cell).w;
      if (used + w > room) break;
      if (i > start && breakable(cells, i)) lastBreak = i;
      used += w;
      i++;
    }
    const prefix: Draft = first || cont === 0 ? [] : [{ text: ' '.repeat(cont), style: 'plain' }];
    if (i >= cells.length) {
      out.push([...prefix, ...toDraft(cells.slice(start))]);
      break;
    }
    if (i === start) {
      out.push([...prefix, { text: '?', style: (cells[i] as Cell).style }]);
      start++;
      first = false;
      continue;
    }
    let end = i;
    if ((cells[i] as Cell).g !== ' ' && !breakable(cells, i) && lastBreak > start) end = lastBreak;
    let trimmed = end;
    while (trimmed > start && (cells[trimmed - 1] as Cell).g === ' ') trimmed--;
    out.push([...prefix, ...toDraft(cells.slice(start, trimmed))]);
    start = end;
    while (start < cells.length && (cells[start] as Cell).g === ' ') start++;
    first = false;
  }
  return out;
}

/** Display columns of a draft line. */
export function draftWidth(draft: Draft): number {
  let w = 0;
  for (const seg of draft) w += displayWidth(seg.text);
  return w;
}
