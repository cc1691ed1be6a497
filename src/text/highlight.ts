import { sanitize } from './sanitize.js';
import {
  HIGHLIGHT_MAX_QUERY_LENGTH,
  HIGHLIGHT_MAX_TERMS,
  HIGHLIGHT_MAX_TERM_LENGTH,
} from '../budgets.js';

/** A run of text, highlighted or not. Adjacent segments never share the same `hit`. */
export interface Segment {
  text: string;
  hit: boolean;
}

const OPERATORS = new Set(['AND', 'OR', 'NOT', 'NEAR']);
// Characters FTS5 gives meaning to outside quotes (plus separators a user may type).
const FTS_SPECIALS = /[+{}():^,;]/g;
// Punctuation that cannot start or end a term worth highlighting. The lookbehind makes the
// trailing alternative start only where a punctuation run starts, keeping it linear.
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|(?<![^\p{L}\p{N}*])[^\p{L}\p{N}*]+$/gu;
// Only syntax characters may be escaped in a `u` pattern (`\-` would be a SyntaxError).
const REGEX_SPECIALS = /[.*+?^${}()|[\]\\/]/g;
// What continues a word after a `prefix*` term.
const WORD_TAIL = '[\\p{L}\\p{N}\\p{M}_]*';

/**
 * Words and phrases of an FTS5-style query, for highlighting: quoted phrases
 * kept whole, AND/OR/NOT/NEAR dropped, FTS specials stripped. A `prefix*` term
 * keeps its trailing `*`, which `splitHighlights` reads as "and the rest of
 * the word". CJK runs are kept as written. Never throws.
 */
export function termsFromQuery(query: string): string[] {
  if (typeof query !== 'string') return [];
  const q = sanitize(query.slice(0, HIGHLIGHT_MAX_QUERY_LENGTH));
  const raw: string[] = [];
  // Balanced quotes are phrases; an unmatched quote is just dropped with the other specials.
  const rest = q.replace(/"([^"]*)"/g, (_m, phrase: string) => {
    raw.push(phrase.replace(/\s+/g, ' ').trim());
    return ' ';
  });
  for (const word of rest.replace(/"/g, ' ').replace(FTS_SPECIALS, ' ').split(/\s+/)) {
    if (OPERATORS.has(word)) continue;
    raw.push(normalizeStar(word.replace(EDGE_PUNCTUATION, '')));
  }
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const term of raw) {
    const key = term.toLowerCase();
    if (term === '' || term === '*' || term.length > HIGHLIGHT_MAX_TERM_LENGTH || seen.has(key))
      continue;
    seen.add(key);
    terms.push(term);
    if (terms.length === HIGHLIGHT_MAX_TERMS) break;
  }
  return terms;
}

/** `**` collapses and a leading or inner `*` means nothing; only a trailing one marks a prefix. */
function normalizeStar(word: string): string {
  const prefix = word.endsWith('*');
  const bare = word.replace(/\*/g, '');
  return bare === '' ? '' : prefix ? `${bare}*` : bare;
}

function termPattern(term: string): string {
  const prefix = term.endsWith('*') && term.length > 1;
  const body = (prefix ? term.slice(0, -1) : term).replace(REGEX_SPECIALS, '\\$&');
  return prefix ? body + WORD_TAIL : body;
}

function buildPattern(terms: readonly string[]): RegExp | null {
  const usable = [
    ...new Set(
      terms
        .filter((t): t is string => typeof t === 'string')
        .map((t) => t.trim())
        .filter((t) => t !== '' && t !== '*' && t.length <= HIGHLIGHT_MAX_TERM_LENGTH),
    ),
  ].slice(0, HIGHLIGHT_MAX_TERMS);
  if (usable.length === 0) return null;
  // Longest first, so "billing migration" wins over "billing" where both match.
  usable.sort((a, b) => b.length - a.length);
  return new RegExp(usable.map(termPattern).join('|'), 'giu');
}

function push(out: Segment[], text: string, hit: boolean): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last !== undefined && last.hit === hit) last.text += text;
  else out.push({ text, hit });
}

/**
 * `text` split into runs, with case-insensitive occurrences of `terms`
 * marked as hits. Terms are plain text (regex characters are literal); a
 * trailing `*` matches the rest of the word. Never throws.
 */
export function splitHighlights(text: string, terms: readonly string[]): Segment[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: Segment[] = [];
  try {
    const pattern = Array.isArray(terms) ? buildPattern(terms) : null;
    if (pattern === null) return [{ text, hit: false }];
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      const found = match[0];
      if (found === '') continue;
      push(out, text.slice(last, match.index), false);
      push(out, found, true);
      last = match.index + found.length;
    }
    push(out, text.slice(last), false);
    return out;
  } catch {
    return [{ text, hit: false }];
  }
}

/**
 * Segments of an FTS5 `snippet()` result whose matches are wrapped in the
 * marker strings `open` … `close` (control characters such as U+0002/U+0003
 * are a good choice: they cannot occur in sanitized text). Markers are parsed
 * first, then each piece is cleaned with `clean` (default `sanitize`, which
 * would otherwise delete control-character markers). An unclosed marker
 * highlights to the end; a stray close marker is dropped. Never throws.
 */
export function parseSnippetMarkers(
  snippet: string,
  open: string,
  close: string,
  clean: (s: string) => string = sanitize,
): Segment[] {
  if (typeof snippet !== 'string' || snippet === '') return [];
  const out: Segment[] = [];
  try {
    if (typeof open !== 'string' || typeof close !== 'string' || open === '' || close === '') {
      push(out, clean(snippet), false);
      return out;
    }
    let pos = 0;
    let inHit = false;
    while (pos < snippet.length) {
      const nextOpen = inHit ? -1 : snippet.indexOf(open, pos);
      const nextClose = snippet.indexOf(close, pos);
      let marker: number;
      let isOpen: boolean;
      if (inHit) {
        marker = nextClose;
        isOpen = false;
      } else if (nextOpen !== -1 && (nextClose === -1 || nextOpen <= nextClose)) {
        marker = nextOpen;
        isOpen = true;
      } else {
        // A close marker outside a hit: keep the text before it, drop the marker.
        marker = nextClose;
        isOpen = false;
      }
      if (marker === -1) break;
      push(out, clean(snippet.slice(pos, marker)), inHit);
      pos = marker + (isOpen ? open.length : close.length);
      inHit = isOpen;
    }
    push(out, clean(snippet.slice(pos)), inHit);
    return out;
  } catch {
    return [{ text: sanitize(snippet), hit: false }];
  }
}
