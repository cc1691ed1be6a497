/**
 * Relaxed lexical recall: the query a search falls back to when no conversation
 * (or too few) has every word. Pure functions: no SQL runs here.
 *
 * People rarely remember a conversation's exact words, and FTS5's implicit AND
 * then finds nothing. The relaxed query asks the same index for any of the
 * words, so BM25 ranks the conversations holding the most (and rarest) of them
 * first. What the user typed exactly keeps its exact meaning: a quoted phrase,
 * a dotted, hyphenated, underscored or slashed identifier (the sanitizer makes
 * these phrases), and a mixed-case or digit-bearing word (`OOMKilled`, `S3`)
 * stay required and unstemmed. Other words lose their common English endings
 * and match as prefixes (`restarting` → `restart*`), and filler words (stop
 * words and "where did we…") are dropped.
 */
import type { Route } from './query.js';
import { RELAXED_MAX_TERMS } from '../budgets.js';

/** Said beside relaxed hits: when there is no exact hit at all, and after the exact ones. */
export const RELAXED_ALL = 'No conversation has every word; closest first.';
export const RELAXED_REST = 'No other conversation has every word; closest first.';

// Function words and the phrasing of a recall question ("where did we talk about…").
const STOP = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before ' +
    'being below between both but by can could did do does doing done down during each else ever ' +
    'few for from further get got had has have having he her here hers him his how i if in into is ' +
    'it its itself just me more most my myself no nor not now of off on once only or other our ours ' +
    'out over own same she should so some such than that the their theirs them then there these they ' +
    'this those through to too under until up very was we were what when where which while who whom ' +
    'why will with would you your yours yourself ' +
    "let's lets one ones thing things something anything way ways really maybe " +
    'remember recall talked talk discussed discuss mentioned conversation chat earlier last time ' +
    'decide decided deciding'
  ).split(' '),
);

// Longest first, so `ations` is tried before `s`.
const SUFFIXES = [
  'ations',
  'ation',
  'ments',
  'ment',
  'ingly',
  'ings',
  'ing',
  'edly',
  'ies',
  'ied',
  'ers',
  'ed',
  'er',
  'es',
  'ly',
  's',
];
const MIN_STEM = 4;
const CJK_RUN =
  /[\u4E00-\u9FFF\u3400-\u4DBF\u{20000}-\u{2A6DF}\u3040-\u309F\u30A0-\u30FF\uAC00-\uD7AF]+/gu;

/** The stem a word matches as a prefix: common endings off, never shorter than four letters. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= MIN_STEM) return w;
  for (const s of SUFFIXES) {
    if (w.endsWith(s) && w.length - s.length >= MIN_STEM && !(s === 's' && w.endsWith('ss')))
      return w.slice(0, -s.length);
  }
  return w;
}

/** A word the user typed as an identifier: kept required and exact. */
function exactWord(w: string): boolean {
  return /[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z]\d|\d[A-Za-z]/.test(w);
}

export interface Parts {
  required: string[];
  optional: string[];
  /** Something was dropped or loosened, so the relaxed query can find more than the exact one. */
  changed: boolean;
}

/** A sanitized FTS5 query cut into phrases and words (the sanitizer's output, so quotes balance). */
function tokens(match: string): { text: string; phrase: boolean }[] {
  const out: { text: string; phrase: boolean }[] = [];
  const re = /"((?:[^"]|"")*)"(\*?)|(\S+)/g;
  for (let m = re.exec(match); m; m = re.exec(match)) {
    if (m[3] !== undefined) out.push({ text: m[3], phrase: false });
    else out.push({ text: `"${m[1]}"${m[2]}`, phrase: true });
  }
  return out;
}

export function ftsParts(match: string): Parts | null {
  const parts: Parts = { required: [], optional: [], changed: false };
  for (const t of tokens(match)) {
    // The user wrote boolean logic: it is theirs, not ours to loosen.
    if (!t.phrase && /^(AND|OR|NOT|NEAR)$/.test(t.text)) return null;
    if (t.phrase || exactWord(t.text)) {
      parts.required.push(t.phrase ? t.text : `"${t.text}"`);
      continue;
    }
    const prefix = t.text.endsWith('*');
    const word = (prefix ? t.text.slice(0, -1) : t.text).replace(/[^\p{L}\p{N}_]/gu, '');
    if (!word) continue;
    if (STOP.has(word.toLowerCase()) || word.length < 2) {
      parts.changed = true;
      continue;
    }
    const s = stem(word);
    // A short word is not a prefix (`app*` would match `apply`), but keeps its plural (`pdf`, `pdfs`).
    const term =
      s.length >= MIN_STEM || prefix
        ? `"${s}"*`
        : /^[a-z]{3}$/i.test(s)
          ? `("${s}" OR "${s}s")`
          : `"${s}"`;
    if (!parts.optional.includes(term)) parts.optional.push(term);
  }
  // Stems alone do not make a relaxed query: one word stays the exact search it is.
  if (parts.optional.length > 1) parts.changed = true;
  parts.optional = parts.optional.slice(0, RELAXED_MAX_TERMS);
  return parts;
}

/** Every three-character run of a CJK string: what the trigram index matches on. */
function trigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length <= 3) return [run];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(''));
  return out;
}

/**
 * The relaxed form of an index route, or null when it would find nothing the
 * exact one does not (one word, boolean operators, only identifiers) or the
 * route is not an index route.
 */
export function relaxedRoute(route: Route): Route | null {
  if (route.kind === 'fts') {
    const p = ftsParts(route.match);
    if (!p || !p.changed || p.optional.length === 0) return null;
    const any = p.optional.length === 1 ? p.optional[0]! : `(${p.optional.join(' OR ')})`;
    return { kind: 'fts', match: [...p.required, any].join(' AND ') };
  }
  if (route.kind === 'trigram') {
    // A CJK phrase of more than three characters becomes its trigrams, any of which may match.
    const grams: string[] = [];
    for (const t of tokens(route.match)) {
      if (!t.phrase && /^(AND|OR|NOT)$/.test(t.text)) return null;
      const text = t.text.replace(/^"|"\*?$/g, '').replace(/""/g, '"');
      const runs = text.match(CJK_RUN) ?? [];
      const rest = text
        .replace(CJK_RUN, ' ')
        .split(/\s+/)
        .filter((w) => w.length >= 3);
      for (const g of [...runs.flatMap(trigrams), ...rest])
        if (Array.from(g).length >= 3 && !grams.includes(g)) grams.push(g);
    }
    if (grams.length < 2) return null;
    return {
      kind: 'trigram',
      match: grams
        .slice(0, RELAXED_MAX_TERMS)
        .map((g) => `"${g.replace(/"/g, '""')}"`)
        .join(' OR '),
    };
  }
  return null;
}
