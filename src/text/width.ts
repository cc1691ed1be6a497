import stringWidth from 'string-width';
import { GRAPHEME_MEMO_LIMIT, REGION_HARD_MAX, REGION_SOFT_MAX } from '../budgets.js';

/**
 * Width-aware layout over display columns, never splitting a grapheme.
 *
 * Intl.Segmenter is quadratic in the length of its input on Node 20 (20,000
 * CJK characters take about 0.2 s, 100,000 about 30 s), and string-width runs
 * it over whatever it is given. So graphemes are found here in short regions:
 * text is cut at positions that are grapheme boundaries by construction (see
 * isCertainBoundary), a region of one code unit is one grapheme without
 * asking anyone, and only the rest goes through the segmenter.
 */

/** Tab stops every 4 columns: panes are narrow and 8-column tabs waste half of them. */
export const TAB_WIDTH = 4;

/** Stands in for a grapheme wider than the whole line (a CJK character in one column). */
const TOO_WIDE = '?';

const graphemeMemo = new Map<string, number>();

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const LIKELY_EXTENDER =
  /^[\p{Grapheme_Extend}\p{Mc}\u200d\p{Emoji_Modifier}\p{Regional_Indicator}\u{e0020}-\u{e007f}]/u;

const segmenter = new Intl.Segmenter();

function isPrepend(c: number): boolean {
  return (
    (c >= 0x600 && c <= 0x605) ||
    c === 0x6dd ||
    c === 0x70f ||
    c === 0x890 ||
    c === 0x891 ||
    c === 0x8e2 ||
    c === 0xd4e
  );
}

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/** Wide characters whose grapheme break property is Other: each stands alone. */
function isWideOther(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x3000 && c <= 0x3029) ||
    (c >= 0x3041 && c <= 0x3096) ||
    (c >= 0x30a1 && c <= 0x30fa) ||
    (c >= 0xff01 && c <= 0xff60) ||
    (c >= 0xac00 && c <= 0xd7a3)
  );
}

/** Narrow letters and symbols whose grapheme break property is Other (no marks, no jamo). */
function isNarrowOther(c: number): boolean {
  return (
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa0 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x482) ||
    (c >= 0x48a && c <= 0x52f) ||
    (c >= 0x2010 && c <= 0x2027) ||
    (c >= 0x2500 && c <= 0x257f)
  );
}

/**
 * True only where UAX #29 always breaks: before a character of break class
 * Other from the ranges above, unless the previous code unit is Prepend, ZWJ
 * (GB11), half of a surrogate pair, or (before a Hangul syllable) a leading
 * jamo. Checked against Intl.Segmenter for every such pair in the tests.
 */
function isCertainBoundary(s: string, j: number): boolean {
  const p = s.charCodeAt(j - 1);
  if (isSurrogate(p) || isPrepend(p) || p === 0x200d) return false;
  const c = s.charCodeAt(j);
  if (isNarrowOther(c)) return true;
  if (!isWideOther(c)) return false;
  if (c >= 0xac00 && c <= 0xd7a3)
    return !((p >= 0x1100 && p <= 0x115f) || (p >= 0xa960 && p <= 0xa97c));
  return true;
}

/** A boundary unless the next code point extends the previous one; only used in long runs. */
function isLikelyBoundary(s: string, j: number): boolean {
  const p = s.charCodeAt(j - 1);
  if (p === 0x200d || (p >= 0xd800 && p <= 0xdbff)) return false;
  return !LIKELY_EXTENDER.test(s.slice(j, j + 2));
}

function isCutPoint(s: string, j: number, regionLength: number): boolean {
  if (isCertainBoundary(s, j)) return true;
  if (regionLength >= REGION_HARD_MAX) {
    const p = s.charCodeAt(j - 1);
    return !(p >= 0xd800 && p <= 0xdbff);
  }
  return regionLength >= REGION_SOFT_MAX && isLikelyBoundary(s, j);
}

/** Calls `visit(grapheme, index)` in order; stops early when it returns false. */
function eachGrapheme(s: string, visit: (g: string, index: number) => boolean): void {
  const n = s.length;
  let start = 0;
  for (let j = 1; j <= n; j++) {
    if (j < n && !isCutPoint(s, j, j - start)) continue;
    if (j - start === 1) {
      if (!visit(s[start] as string, start)) return;
    } else {
      for (const { segment, index } of segmenter.segment(s.slice(start, j))) {
        if (!visit(segment, start + index)) return;
      }
    }
    start = j;
  }
}

/** The graphemes of `s`, in order, in linear time. */
export function graphemes(s: string): string[] {
  const out: string[] = [];
  if (typeof s !== 'string') return out;
  eachGrapheme(s, (g) => {
    out.push(g);
    return true;
  });
  return out;
}

/**
 * Grapheme_Cluster_Break=Prepend (Unicode 15): such a character joins the next one
 * into one grapheme (GB9b), so `ൎ` and a space after it measure 1 as a cluster, but
 * terminals give each code point its own columns. Measured apart, a pad after one
 * fills what it should.
 */
const PREPEND =
  /^[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u0D4E\u{110BD}\u{110CD}\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}]/u;

function graphemeWidth(g: string): number {
  if (g.length > 1 && PREPEND.test(g)) {
    const first = String.fromCodePoint(g.codePointAt(0)!);
    if (first.length < g.length) return graphemeWidth(first) + graphemeWidth(g.slice(first.length));
  }
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c <= 0x7e) return 1;
    if (isWideOther(c)) return 2;
  }
  let w = graphemeMemo.get(g);
  if (w === undefined) {
    try {
      w = stringWidth(g);
    } catch {
      w = g.length;
    }
    if (graphemeMemo.size >= GRAPHEME_MEMO_LIMIT) graphemeMemo.clear();
    graphemeMemo.set(g, w);
  }
  return w;
}

/** Terminal columns `s` occupies (the sum over its graphemes). Never throws. */
export function displayWidth(s: string): number {
  if (typeof s !== 'string' || s.length === 0) return 0;
  if (PRINTABLE_ASCII.test(s)) return s.length;
  let width = 0;
  eachGrapheme(s, (g) => {
    width += graphemeWidth(g);
    return true;
  });
  return width;
}

function columns(width: number): number {
  return Number.isFinite(width) && width > 0 ? Math.floor(width) : 0;
}

/**
 * `s` cut to at most `width` columns, ending in `ellipsis` when something was
 * cut. Walks only as far as the cut, so it is cheap on huge strings.
 */
export function truncate(s: string, width: number, ellipsis: string = '…'): string {
  const max = columns(width);
  if (max === 0 || typeof s !== 'string') return '';
  if (s.length <= max && PRINTABLE_ASCII.test(s)) return s;
  const ellipsisWidth = displayWidth(ellipsis);
  const tail = ellipsisWidth <= max ? ellipsis : '';
  const room = max - (tail === '' ? 0 : ellipsisWidth);
  let used = 0;
  let cutAt = 0; // end (code units) of the longest prefix that fits beside the ellipsis
  let overflow = false;
  eachGrapheme(s, (g, index) => {
    const w = graphemeWidth(g);
    if (used + w > max) {
      overflow = true;
      return false;
    }
    used += w;
    if (used <= room) cutAt = index + g.length;
    return true;
  });
  return overflow ? s.slice(0, cutAt) + tail : s;
}

/** `s` truncated, then padded with spaces to exactly `width` columns. */
export function padEnd(s: string, width: number): string {
  const max = columns(width);
  const cut = truncate(s, max);
  return cut + ' '.repeat(Math.max(0, max - displayWidth(cut)));
}

/**
 * Tabs replaced by spaces up to the next tab stop, counting display columns
 * (a CJK character advances two) from the start of each line.
 */
export function expandTabs(s: string, tabWidth: number = TAB_WIDTH): string {
  if (typeof s !== 'string') return '';
  if (!s.includes('\t')) return s;
  const stop = Number.isFinite(tabWidth) && tabWidth >= 1 ? Math.floor(tabWidth) : TAB_WIDTH;
  let out = '';
  let column = 0;
  for (const piece of s.split(/(\t|\n)/)) {
    if (piece === '\t') {
      const pad = stop - (column % stop);
      out += ' '.repeat(pad);
      column += pad;
    } else if (piece === '\n') {
      out += '\n';
      column = 0;
    } else {
      out += piece;
      column += displayWidth(piece);
    }
  }
  return out;
}

/** May a soft wrap fall just before grapheme `i`? After a word, at CJK, or after a hyphen. */
function canBreakBefore(g: readonly string[], w: readonly number[], i: number): boolean {
  const prev = g[i - 1];
  const cur = g[i];
  if (cur === ' ') return prev !== ' ';
  return (w[i] ?? 0) > 1 || (w[i - 1] ?? 0) > 1 || (prev === '-' && cur !== '-');
}

function wrapLine(line: string, width: number, out: string[]): void {
  const g: string[] = [];
  const w: number[] = [];
  eachGrapheme(line, (grapheme) => {
    g.push(grapheme);
    w.push(graphemeWidth(grapheme));
    return true;
  });
  const n = g.length;
  let start = 0;
  while (start < n) {
    let used = 0;
    let i = start;
    let lastBreak = -1;
    while (i < n) {
      const gw = w[i] ?? 0;
      if (used + gw > width) break;
      if (i > start && canBreakBefore(g, w, i)) lastBreak = i;
      used += gw;
      i++;
    }
    if (i >= n) {
      out.push(g.slice(start).join(''));
      return;
    }
    if (i === start) {
      out.push(TOO_WIDE);
      start++;
      continue;
    }
    // Break at the overflow itself when allowed, else at the last opportunity, else mid-word.
    let end = i;
    if (g[i] !== ' ' && !canBreakBefore(g, w, i) && lastBreak > start) end = lastBreak;
    let trimmed = end;
    while (trimmed > start && g[trimmed - 1] === ' ') trimmed--;
    out.push(g.slice(start, trimmed).join(''));
    start = end;
    while (start < n && g[start] === ' ') start++;
  }
}

/**
 * Lay `text` out in display lines of at most `width` columns: explicit
 * newlines kept, tabs expanded, soft wraps at spaces (the spaces at a wrap
 * are dropped), after hyphens and around CJK, words longer than a line
 * broken between graphemes. Returns [] when width < 1. Never throws.
 */
export function wrap(text: string, width: number): string[] {
  const max = columns(width);
  if (max === 0) return [];
  const out: string[] = [];
  for (const line of expandTabs(typeof text === 'string' ? text : '').split('\n')) {
    if (line.length <= max && PRINTABLE_ASCII.test(line)) out.push(line);
    else if (line.length === 0) out.push('');
    else wrapLine(line, max, out);
  }
  return out;
}

/*
 * Frame safety. displayWidth is what a terminal with full grapheme support
 * draws. Terminals disagree on a few kinds of grapheme: an emoji ZWJ sequence
 * (👨‍👩‍👧) is one glyph of 2 cells in some and each part side by side (6+
 * cells) in others; a flag is 2 cells or two boxed letters (4); a skin-tone
 * modifier may be drawn as its own swatch; VS16 and keycaps are 1 cell or 2.
 * A line that a terminal draws wider than we measured wraps and makes the
 * frame taller than the screen. safeWidth measures the widest rendering;
 * frameSafe rewrites those graphemes into forms every terminal draws alike.
 */

const ZWJ = '\u200d';
const VS16 = '\ufe0f';
const KEYCAP = '\u20e3';
const REGIONAL = /^\p{Regional_Indicator}+$/u;
const MODIFIER = /\p{Emoji_Modifier}/gu;
const TAG = /[\u{e0020}-\u{e007f}]/gu;

/** A-Z for a regional indicator symbol (U+1F1E6..U+1F1FF). */
function regionLetter(ri: string): string {
  return String.fromCharCode(0x41 + ((ri.codePointAt(0) ?? 0x1f1e6) - 0x1f1e6));
}

/** The kinds of grapheme whose drawn width depends on the terminal; null for the rest. */
type Disputed = 'zwj' | 'flag' | 'region' | 'modifier' | 'tag' | 'keycap' | 'vs16';

function disputed(g: string): Disputed | null {
  if (g.length < 2) return null;
  const c = g.codePointAt(0) ?? 0;
  if (c < 0x300) {
    // ASCII base: only a keycap (1️⃣) or a VS16 (#️) can be disputed.
    if (g.includes(KEYCAP)) return 'keycap';
    return g.includes(VS16) ? 'vs16' : null;
  }
  if (g.includes(ZWJ) && [...g].length > 1) return 'zwj';
  if (REGIONAL.test(g)) return [...g].length === 1 ? 'region' : 'flag';
  if (g.includes(KEYCAP)) return 'keycap';
  MODIFIER.lastIndex = 0;
  if (MODIFIER.test(g)) return 'modifier';
  TAG.lastIndex = 0;
  if (TAG.test(g)) return 'tag';
  if (g.includes(VS16)) return 'vs16';
  return null;
}

/** The widest any common terminal draws grapheme `g`. */
function graphemeSafeWidth(g: string): number {
  const kind = disputed(g);
  switch (kind) {
    case null:
      return graphemeWidth(g);
    case 'zwj':
      // Drawn part by part where the sequence is unknown; ZWJ itself takes no cell.
      return g
        .split(ZWJ)
        .filter((part) => part !== '')
        .reduce((sum, part) => sum + Math.max(1, graphemeSafeWidth(part)), 0);
    case 'flag':
      return 2 * [...g].length;
    case 'region':
      return 2;
    case 'modifier':
      return graphemeWidth(g.replace(MODIFIER, '')) + 2 * (g.match(MODIFIER)?.length ?? 0);
    case 'tag':
      return graphemeWidth(g.replace(TAG, '')) + 2;
    case 'keycap':
    case 'vs16':
      return Math.max(2, graphemeWidth(g));
  }
}

/**
 * Columns `s` may take in the widest-drawing common terminal: never less than
 * displayWidth(s). Lay out with this where a line drawn wider than measured
 * would push the frame (or use frameSafe and measure as usual).
 */
export function safeWidth(s: string): number {
  if (typeof s !== 'string' || s.length === 0) return 0;
  if (PRINTABLE_ASCII.test(s)) return s.length;
  let width = 0;
  eachGrapheme(s, (g) => {
    width += graphemeSafeWidth(g);
    return true;
  });
  return width;
}

/** One disputed grapheme in a form every terminal draws at the width displayWidth reports. */
function frameSafeGrapheme(g: string): string {
  switch (disputed(g)) {
    case null:
      return g;
    case 'zwj':
      // The first emoji stands for the sequence (👨‍👩‍👧 → 👨), itself made safe.
      return frameSafeGrapheme(g.split(ZWJ).find((part) => part !== '') ?? '');
    case 'flag':
      // 🇯🇵 → [JP]: four cells everywhere, and still says which flag.
      return `[${[...g].map(regionLetter).join('')}]`;
    case 'region':
      return regionLetter(g);
    case 'modifier':
      return frameSafeGrapheme(g.replace(MODIFIER, ''));
    case 'tag':
      return frameSafeGrapheme(g.replace(TAG, ''));
    case 'keycap':
      return g.replace(VS16, '').replace(KEYCAP, '');
    case 'vs16':
      // Emoji wide by default stay wide without the selector; the rest become text (1 cell).
      return g.replaceAll(VS16, '');
  }
}

/**
 * `s` with every grapheme whose width terminals disagree on rewritten so that
 * all of them draw it alike: ZWJ sequences become their first emoji, skin
 * tones and tag sequences lose the modifier, flags become `[JP]`, keycaps
 * their digit, VS16 is dropped. After this, safeWidth equals displayWidth.
 * Newlines and everything else are kept.
 */
export function frameSafe(s: string): string {
  if (typeof s !== 'string' || s.length === 0) return '';
  if (PRINTABLE_ASCII.test(s)) return s;
  let out = '';
  let changed = false;
  eachGrapheme(s, (g) => {
    const safe = frameSafeGrapheme(g);
    if (safe !== g) changed = true;
    out += safe;
    return true;
  });
  return changed ? out : s;
}
