/**
 * The search line holds a free query and filter chips: `billing source:cli
 * after:2026-03-01 cwd:"~/my dir"`. This splits them apart without touching
 * the query's own syntax (phrases in quotes, OR, NOT, prefix*), so the free
 * text goes to the search unchanged and the filters to the store's options.
 * Values stay strings here; dates are checked where they are turned into
 * times (parseWhen in src/store/time.ts), when the filters are applied.
 */
import { sanitizeLine } from '../text/sanitize.js';

/** Where each key's values go, by the name the user types. Aliases share a field. */
export const KEY_FIELD = {
  source: 'sources',
  in: 'sources',
  after: 'after',
  before: 'before',
  cwd: 'cwd',
  repo: 'cwd',
  model: 'model',
  profile: 'profiles',
  role: 'roles',
  agent: 'agents',
  host: 'hosts',
} as const;

export type FilterKey = keyof typeof KEY_FIELD;
export type FilterField = (typeof KEY_FIELD)[FilterKey];

/** The keys in the order help and messages list them. */
export const FILTER_KEYS = Object.keys(KEY_FIELD) as FilterKey[];

/** Fields that take several values, joined by OR (`source:cli source:telegram`, `role:user,tool`). */
const MULTI: ReadonlySet<FilterField> = new Set([
  'sources',
  'profiles',
  'roles',
  'agents',
  'hosts',
]);

/** Roles a message has in the store; another value would silently match nothing. */
export const KNOWN_ROLES = ['user', 'assistant', 'tool', 'system'] as const;

/** Values a field takes whatever the store holds (completion offers them; dates are examples). */
export const FIXED_VALUES: Partial<Record<FilterField, readonly string[]>> = {
  roles: KNOWN_ROLES,
  after: ['today', 'yesterday', '24h', '7d', '2w', '30d'],
  before: ['today', 'yesterday', '7d', '30d'],
};

export interface Filters {
  sources?: string[];
  after?: string;
  before?: string;
  cwd?: string;
  model?: string;
  profiles?: string[];
  roles?: string[];
  agents?: string[];
  /** `host:` chips: machines synced with `lookback sync --host` (`local` is this one). */
  hosts?: string[];
}

/** One `key:value` in the line; start/end are offsets into the line, for drawing the chip. */
export interface Chip {
  /** As typed, lower-cased (`repo`, not `cwd`). */
  key: string;
  value: string;
  start: number;
  end: number;
  /** False for a key that is not a filter (the line's error names it). */
  known: boolean;
}

export interface ParsedLine {
  /** The free query: the line without its filters, words kept in order. */
  text: string;
  filters: Filters;
  chips: Chip[];
  /** One line saying what is wrong; when set, the caller should not search. */
  error?: string;
}

export interface Token {
  raw: string;
  start: number;
  end: number;
}

/** Split on whitespace outside double quotes; an unclosed quote runs to the end. */
export function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && /\s/.test(line[i] as string)) i++;
    if (i >= n) break;
    const start = i;
    let quoted = false;
    while (i < n && (quoted || !/\s/.test(line[i] as string))) {
      if (line[i] === '"') quoted = !quoted;
      i++;
    }
    out.push({ raw: line.slice(start, i), start, end: i });
  }
  return out;
}

/** `key:value` at the start of a token; not a URL (`https://…`) or an `@session:` link. */
const FILTER_TOKEN = /^([A-Za-z]+):(.*)$/s;

function unquote(value: string): string {
  if (value.startsWith('"')) {
    const inner = value.slice(1);
    return inner.endsWith('"') ? inner.slice(0, -1) : inner;
  }
  return value;
}

function isKnownKey(key: string): key is FilterKey {
  return Object.hasOwn(KEY_FIELD, key);
}

const KNOWN_LIST = FILTER_KEYS.map((k) => `${k}:`).join(' ');

export function parseFilters(line: string): ParsedLine {
  const input = typeof line === 'string' ? line : '';
  const free: string[] = [];
  const chips: Chip[] = [];
  const filters: Filters = {};
  const errors: string[] = [];
  for (const token of tokenize(input)) {
    const m = FILTER_TOKEN.exec(token.raw);
    if (!m || (m[2] ?? '').startsWith('//')) {
      free.push(token.raw);
      continue;
    }
    const key = (m[1] as string).toLowerCase();
    const value = unquote(m[2] ?? '');
    if (!isKnownKey(key)) {
      chips.push({ key, value, start: token.start, end: token.end, known: false });
      errors.push(`unknown filter ${sanitizeLine(key)}: (filters: ${KNOWN_LIST})`);
      continue;
    }
    chips.push({ key, value, start: token.start, end: token.end, known: true });
    const field = KEY_FIELD[key];
    if (value.trim() === '') {
      errors.push(`${key}: needs a value, e.g. ${example(key)}`);
      continue;
    }
    if (MULTI.has(field)) {
      const values = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      if (field === 'roles') {
        const bad = values.find((v) => !(KNOWN_ROLES as readonly string[]).includes(v));
        if (bad !== undefined) {
          errors.push(`role:${sanitizeLine(bad)} is not a role (roles: ${KNOWN_ROLES.join(', ')})`);
          continue;
        }
      }
      const list = (filters[field as 'sources'] ??= []);
      for (const v of values) if (!list.includes(v)) list.push(v);
    } else {
      const single = field as 'after' | 'before' | 'cwd' | 'model';
      const previous = filters[single];
      if (previous !== undefined && previous !== value) {
        errors.push(
          `${key}: given twice (${sanitizeLine(previous)}, ${sanitizeLine(value)}); keep one`,
        );
        continue;
      }
      filters[single] = value;
    }
  }
  const text = free.join(' ');
  if (errors.length === 0 && onlyNegations(text)) errors.push(ONLY_NOT);
  const out: ParsedLine = { text, filters, chips };
  if (errors.length > 0) out.error = errors[0];
  return out;
}

function example(key: FilterKey): string {
  switch (key) {
    case 'after':
    case 'before':
      return `${key}:2026-03-01`;
    case 'cwd':
    case 'repo':
      return `${key}:~/code/app`;
    case 'role':
      return 'role:user';
    case 'source':
    case 'in':
      return `${key}:cli`;
    default:
      return `${key}:name`;
  }
}

const ONLY_NOT =
  'only NOT terms: NOT excludes from what a word finds, so give one (billing NOT stripe)';

/**
 * True when a full-text query has NOT terms and nothing to find: `NOT x`,
 * `NOT a NOT b`. FTS5 rejects a leading NOT, and the query means "everything
 * except", which a search index cannot answer.
 */
/** The chips of a search line, for drawing them (the views import this, not the app's data layer). */
export function lineChips(line: string): Chip[] {
  return line.includes(':') ? parseFilters(line).chips : [];
}

export function onlyNegations(text: string): boolean {
  const tokens = tokenize(text).map((t) => t.raw);
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (t === 'NOT') {
      if (i + 1 < tokens.length) {
        negative++;
        i++;
      }
      continue;
    }
    if (t === 'AND' || t === 'OR') continue;
    positive++;
  }
  return negative > 0 && positive === 0;
}

/** `source:cli,telegram after:2026-03-01`, the filters as one might type them (for messages). */
export function describeFilters(filters: Filters): string {
  const parts: string[] = [];
  const quote = (v: string): string => (/[\s"]/.test(v) ? `"${v.replaceAll('"', '')}"` : v);
  const add = (key: string, v: string | string[] | undefined): void => {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) return;
    const s = Array.isArray(v) ? v.map(quote).join(',') : quote(v);
    parts.push(`${key}:${sanitizeLine(s)}`);
  };
  add('source', filters.sources);
  add('after', filters.after);
  add('before', filters.before);
  add('cwd', filters.cwd);
  add('model', filters.model);
  add('profile', filters.profiles);
  add('role', filters.roles);
  add('agent', filters.agents);
  add('host', filters.hosts);
  return parts.join(' ');
}

export type SearchMode = 'full-text' | 'fuzzy';

export interface NoResultsContext {
  /** The free query (ParsedLine.text). */
  text: string;
  filters: Filters;
  mode: SearchMode;
  /** Results the same query finds without the filters; undefined when not checked. */
  unfilteredCount?: number;
  /** The one filter that alone excludes everything (`source:cli`), when the caller found it. */
  excludingFilter?: string;
  /** Full-text: would the last word as a prefix (`word*`) match? */
  prefixWouldMatch?: boolean;
  /** Full-text: would a fuzzy search find something? */
  fuzzyWouldMatch?: boolean;
  /** Full-text: would tool output (left out of the search) match? */
  toolWouldMatch?: boolean;
  /** The key that includes tool output in the search. */
  toolKey?: string;
  /** The key that switches between full-text and fuzzy. */
  modeKey?: string;
}

function lastWord(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}_]+/gu);
  const last = words?.[words.length - 1];
  if (last === undefined) return null;
  return text.trimEnd().endsWith('*') ? null : last;
}

/**
 * The one line shown instead of an empty list: why there is nothing and the
 * way out, most specific first (only NOT terms; a filter that excluded
 * everything; a prefix or fuzzy search that would match; a plain miss).
 */
export function noResultsHint(ctx: NoResultsContext): string {
  const key = ctx.modeKey ?? 'f';
  const text = sanitizeLine(ctx.text).trim();
  const shown = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  const filtered = describeFilters(ctx.filters);
  if (ctx.mode === 'full-text' && onlyNegations(text)) return `nothing found: ${ONLY_NOT}`;
  if (filtered !== '' && ctx.unfilteredCount !== undefined && ctx.unfilteredCount > 0) {
    const without = `${ctx.unfilteredCount} without the filters`;
    const culprit =
      ctx.excludingFilter !== undefined
        ? `${sanitizeLine(ctx.excludingFilter)} excludes them all; `
        : '';
    return `no results with ${filtered} (${without}): ${culprit}remove a filter from the search line`;
  }
  if (text === '')
    return filtered !== ''
      ? `no conversations match ${filtered}: remove a filter from the search line`
      : 'type to search';
  if (ctx.mode === 'full-text') {
    if (ctx.toolWouldMatch === true)
      return `no messages say “${shown}”, but tool output does: ${ctx.toolKey ?? 't'} includes tool output`;
    const word = lastWord(text);
    if (ctx.prefixWouldMatch === true && word !== null)
      return `no whole-word match for “${shown}”: ${word}* finds words that start with ${word}`;
    if (ctx.fuzzyWouldMatch === true)
      return `no full-text match for “${shown}”: ${key} switches to fuzzy, which finds some`;
    const tail = filtered !== '' ? ` with ${filtered}` : '';
    return `no messages say “${shown}”${tail}: try fewer words, a prefix (word*), or ${key} for fuzzy titles`;
  }
  return `no titles or previews like “${shown}”: ${key} switches to full-text over message bodies`;
}
