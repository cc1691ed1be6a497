/**
 * Errors a search meets and what they mean: a query FTS5 rejects (retried with
 * every term quoted, then "could not be parsed") versus an index SQLite cannot
 * read (the damaged-index fallback takes over). Kept apart so every caller
 * tells the two the same way.
 */
import { quoteAllTerms } from '../query.js';
import type { Plan } from './plan.js';

export function isQueryError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === 'SQLITE_ERROR' && !/no such table/i.test(e.message ?? '') && !isIndexDamage(err)
  );
}

/**
 * Runs `fn` with the route's MATCH string; if FTS5 rejects it, once more with every
 * term quoted; if that fails too, the query cannot be searched (never an exception).
 */
export function withMatch<T>(
  route: Plan['route'],
  fn: (match: string) => T,
): { value: T; match: string } | null {
  if (route.kind === 'like') return { value: fn(''), match: '' };
  try {
    return { value: fn(route.match), match: route.match };
  } catch (err) {
    if (!isQueryError(err)) throw err;
  }
  const quoted = quoteAllTerms(route.match);
  if (!quoted) return null;
  try {
    return { value: fn(quoted), match: quoted };
  } catch (err) {
    if (!isQueryError(err)) throw err;
    return null;
  }
}

/** SQLite's word for a full-text index it cannot read (as opposed to a query FTS5 rejects). */
export function isIndexDamage(err: unknown): boolean {
  const e = (err ?? {}) as { code?: string; message?: string };
  if ((e.code ?? '').startsWith('SQLITE_CORRUPT')) return true;
  return /fts5: corrupt|corruption found|malformed|invalid fts5 file format|no such table: (main\.)?messages_fts/i.test(
    e.message ?? '',
  );
}
