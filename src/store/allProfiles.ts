/**
 * Recent and search over every profile's store at once (`--all-profiles`):
 * each store answers on its own, then the answers are merged by the same
 * ordering rules, every row carrying its `profile` and a `link` that names it.
 */
import { RELAXED_ALL, RELAXED_REST } from './relaxed.js';
import { StoreError } from './errors.js';
import type { Profile } from './profiles.js';
import { recentJson, searchJson, type Json } from './recall.js';
import { Store } from './store.js';
import type { Filters, SearchOptions } from './types.js';

type Row = Record<string, Json>;

export interface ProfileAnswer {
  profile: string;
  answer: Record<string, Json>;
}

/** Runs `fn` on each profile's store; a profile that cannot be read is listed under `skipped`. */
export function eachProfile(
  profiles: readonly Profile[],
  fn: (store: Store) => Record<string, Json>,
): { answers: ProfileAnswer[]; skipped: { profile: string; error: string }[] } {
  const answers: ProfileAnswer[] = [];
  const skipped: { profile: string; error: string }[] = [];
  for (const p of profiles) {
    if (p.skip) {
      skipped.push({ profile: p.name, error: p.skip });
      continue;
    }
    let store: Store | null = null;
    try {
      store = Store.open(p.path, { profile: p.name, idleCloseMs: 0 });
      answers.push({ profile: p.name, answer: fn(store) });
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      skipped.push({ profile: p.name, error: err.message });
    } finally {
      store?.close();
    }
  }
  return { answers, skipped };
}

/** `@session:<profile>/<id>`: the link the agent resolves itself. */
export function sessionLink(profile: string, sessionId: string): string {
  return `@session:${profile}/${sessionId}`;
}

function tag(profile: string, row: Row): Row {
  const out: Row = { ...row, profile };
  out.link = sessionLink(profile, String(row.session_id));
  return out;
}

function rowsOf(a: ProfileAnswer): Row[] {
  const rows = Array.isArray(a.answer.results) ? (a.answer.results as Row[]) : [];
  return rows.map((r) => tag(a.profile, r));
}

const num = (v: Json | undefined): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : -Infinity;

function extras(profiles: readonly Profile[], skipped: { profile: string; error: string }[]): Row {
  return {
    profiles: profiles.filter((p) => !p.skip).map((p) => p.name),
    ...(skipped.length > 0 ? { skipped } : {}),
  };
}

/** Browse every profile: newest activity first across them all, cut to `limit`. */
export function recentAllJson(
  profiles: readonly Profile[],
  opts: { limit?: number; all?: boolean; filters?: Filters },
): Record<string, Json> {
  const limit = opts.limit ?? 20;
  const { answers, skipped } = eachProfile(profiles, (s) => recentJson(s, opts));
  const results = answers
    .flatMap(rowsOf)
    .sort(
      (a, b) => num(b.last_active) - num(a.last_active) || num(b.started_at) - num(a.started_at),
    )
    .slice(0, limit);
  return {
    success: true,
    mode: 'browse',
    results,
    count: results.length,
    message: `Showing ${results.length} most recent sessions across ${answers.length} profile${answers.length === 1 ? '' : 's'}.`,
    ...extras(profiles, skipped),
  };
}

/** The time of a result's matched message (its anchor), else of its session. */
function hitTime(r: Row): number {
  const msgs = Array.isArray(r.messages) ? (r.messages as Row[]) : [];
  const anchor = msgs.find((m) => m.anchor === true || m.id === r.match_message_id);
  if (anchor && typeof anchor.timestamp === 'number') return anchor.timestamp;
  const when = typeof r.when === 'string' ? Date.parse(r.when) / 1000 : NaN;
  return Number.isFinite(when) ? when : -Infinity;
}

/**
 * Search every profile. BM25 ranks are per index and cannot be compared across
 * stores, so relevance results are interleaved by rank (each store's first,
 * then each one's second, ...), in profile order; `newest`/`oldest` merge by
 * the matched message's time.
 */
export function searchAllJson(
  profiles: readonly Profile[],
  query: string,
  opts: SearchOptions,
): Record<string, Json> {
  const limit = opts.limit ?? 10;
  const { answers, skipped } = eachProfile(profiles, (s) => searchJson(s, query, opts));
  const lists = answers.map(rowsOf);
  let results: Row[];
  if (opts.sort === 'newest' || opts.sort === 'oldest') {
    const dir = opts.sort === 'newest' ? -1 : 1;
    results = lists.flat().sort((a, b) => dir * (hitTime(a) - hitTime(b)));
  } else {
    results = [];
    for (let i = 0; lists.some((l) => i < l.length); i++)
      for (const l of lists) if (i < l.length) results.push(l[i]!);
  }
  // Exact hits of every profile before any relaxed one (they are listed apart).
  results = [
    ...results.filter((r) => r.match !== 'relaxed'),
    ...results.filter((r) => r.match === 'relaxed'),
  ].slice(0, limit);
  const loose = results.filter((r) => r.match === 'relaxed').length;
  const warnings = answers
    .filter((a) => typeof a.answer.warning === 'string')
    .map((a) => `${a.profile}: ${String(a.answer.warning)}`);
  const first = answers[0]?.answer;
  return {
    success: true,
    mode: 'discover',
    query: typeof first?.query === 'string' ? first.query : query.trim(),
    results,
    count: results.length,
    ...(first?.detail !== undefined ? { detail: first.detail } : {}),
    ...(results.length === 0
      ? {
          message:
            typeof first?.message === 'string' ? first.message : 'No matching sessions found.',
        }
      : { sessions_searched: results.length }),
    ...(loose > 0
      ? {
          relaxed_count: loose,
          message: loose === results.length ? RELAXED_ALL : RELAXED_REST,
        }
      : {}),
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
    ...extras(profiles, skipped),
  };
}
