/**
 * Completion of the search line's filters, as a shell or fzf offers it: the
 * word at the cursor, when it starts a filter key (`mo` → `model:`), or the
 * value of a key (`model:gp` → `model:gpt-5`) from the values the sources
 * hold. Every key of the one registry (KEY_FIELD) completes; its values come
 * from `values[field]` and the registry's fixed ones. Pure: the caller passes
 * the values (sanitized) and draws the offer.
 */
import { COMPLETIONS_SHOWN } from '../budgets.js';
import { FILTER_KEYS, FIXED_VALUES, KEY_FIELD, tokenize, type FilterField } from './filters.js';

/** What the sources hold for each field (`sources`, `model`, `cwd`, `agents`, `profiles`, …). */
export type FilterValues = Partial<Record<FilterField, readonly string[]>>;

export interface Completion {
  /** The word replaced: line[start, end) (the cursor is at end). */
  start: number;
  end: number;
  /** Whole replacements for the word, best first (`model:`, `model:gpt-5`). */
  items: string[];
  /** What each item shows in the offer (`model:`, `gpt-5`). */
  labels: string[];
}

/** Keys complete from this many letters on (one letter is too often a word of the query). */
const MIN_KEY_PREFIX = 2;

function quoted(v: string): string {
  return /[\s"]/.test(v) ? `"${v.replaceAll('"', '')}"` : v;
}

/** Candidates starting with `typed` first, then those containing it; the exact value itself is no offer. */
function rank(all: readonly string[], typed: string): string[] {
  const t = typed.toLowerCase();
  const starts: string[] = [];
  const inside: string[] = [];
  for (const v of all) {
    const l = v.toLowerCase();
    if (l === t) continue;
    if (l.startsWith(t)) starts.push(v);
    else if (t !== '' && l.includes(t)) inside.push(v);
  }
  return [...starts, ...inside];
}

export function completeAt(line: string, cursor: number, values: FilterValues): Completion | null {
  const token = tokenize(line).find((t) => t.end === cursor);
  if (!token) return null;
  const raw = token.raw;
  const colon = raw.indexOf(':');
  if (colon < 0) {
    if (raw.length < MIN_KEY_PREFIX || !/^[A-Za-z]+$/.test(raw)) return null;
    const keys = rank(FILTER_KEYS, raw).filter((k) => k.startsWith(raw.toLowerCase()));
    if (keys.length === 0) return null;
    return {
      start: token.start,
      end: token.end,
      items: keys.map((k) => `${k}:`),
      labels: keys.map((k) => `${k}:`),
    };
  }
  const key = raw.slice(0, colon).toLowerCase();
  if (!Object.hasOwn(KEY_FIELD, key)) return null;
  const field = KEY_FIELD[key as keyof typeof KEY_FIELD];
  let value = raw.slice(colon + 1);
  // An open quote is part of what is typed, not of the value.
  if (value.startsWith('"')) value = value.slice(1);
  // Several values (`source:cli,tel`): the last one completes.
  const comma = value.lastIndexOf(',');
  const before = comma >= 0 ? value.slice(0, comma + 1) : '';
  const typed = comma >= 0 ? value.slice(comma + 1) : value;
  const pool = [...(values[field] ?? []), ...(FIXED_VALUES[field] ?? [])];
  const already = new Set(before.split(',').filter((v) => v !== ''));
  const found = rank([...new Set(pool)], typed)
    .filter((v) => !already.has(v))
    .slice(0, COMPLETIONS_SHOWN);
  if (found.length === 0) return null;
  return {
    start: token.start,
    end: token.end,
    items: found.map((v) => `${key}:${before}${quoted(v)}`),
    labels: found,
  };
}

/** What Tab puts in the word's place: a key stays open for its value, a value ends the word. */
export function completionText(item: string, after: string): string {
  return item.endsWith(':') || after.startsWith(' ') ? item : `${item} `;
}
