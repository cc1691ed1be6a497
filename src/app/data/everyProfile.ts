/**
 * The every-profile view (P): Recent and full-text results of the shown store
 * and every other profile's, merged by the CLI's `--all-profiles` rules
 * (store/allProfiles.ts): newest activity first for Recent; relevance taken in
 * turns (BM25 ranks of two indexes do not compare), newest/oldest by the hit's
 * time. Every row carries its profile; another profile's rows are in app ids
 * (profileIds.ts), so opening one reads that profile's store.
 */
import { StoreError } from '../../store/errors.js';
import type { Store } from '../../store/store.js';
import type { Filters, HiddenCounts, SearchPath, Sort } from '../../store/types.js';
import type { ResultItem, SessionRow } from '../model.js';
import { tagResultItem, tagSessionRow } from './profileIds.js';
import { loadRecent, searchResultItems, type RecentAnswer } from './rows.js';

/** Another profile's store as a request names it: the worker opens it by path. */
export interface ProfileRef {
  name: string;
  path: string;
  /** Its message-id range (profileIds.ts), given by the main thread so both agree. */
  slot: number;
}

/** The store of a ProfileRef, opened on first use by whoever answers (main thread or worker). */
export type RefOpener = (ref: ProfileRef) => Store;

/** Runs `fn` on each profile's store; one that cannot be read now is left out, not fatal. */
function each<T>(refs: readonly ProfileRef[], open: RefOpener, fn: (s: Store, r: ProfileRef) => T) {
  const out: T[] = [];
  for (const ref of refs) {
    try {
      out.push(fn(open(ref), ref));
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
    }
  }
  return out;
}

function addHidden(a: HiddenCounts, b: HiddenCounts): HiddenCounts {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof HiddenCounts)[]) out[k] = a[k] + b[k];
  return out;
}

export function everyRecent(
  own: RecentAnswer,
  ownProfile: string,
  refs: readonly ProfileRef[],
  open: RefOpener,
  limit: number,
  all: boolean,
  filters?: Filters,
): RecentAnswer {
  const others = each(refs, open, (s, r) => {
    const a = loadRecent(s, limit, all, filters);
    return { ...a, rows: a.rows.map((row) => tagSessionRow(row, r.name)) };
  });
  const rows: SessionRow[] = [
    // Another agent's row is no profile's: a blank tag keeps the titles in one column.
    ...own.rows.map((r) => ({ ...r, profile: r.agent && r.agent !== 'hermes' ? '' : ownProfile })),
    ...others.flatMap((a) => a.rows),
  ]
    .sort((a, b) => b.lastActive - a.lastActive)
    .slice(0, limit);
  return {
    rows,
    hidden: others.reduce((h, a) => addHidden(h, a.hidden), own.hidden),
    complete: own.complete && others.every((a) => a.complete),
  };
}

export interface SearchAnswer {
  items: ResultItem[];
  path: SearchPath;
  message: string | null;
}

export function everySearch(
  own: SearchAnswer,
  ownProfile: string,
  refs: readonly ProfileRef[],
  open: RefOpener,
  req: { query: string; sort: Sort; roles: string[]; limit: number; filters?: Filters },
): SearchAnswer {
  const mine = own.items.map((r) => ({
    ...r,
    profile: r.agent && r.agent !== 'hermes' ? '' : ownProfile,
  }));
  const lists = [
    mine,
    ...each(refs, open, (s, r) =>
      searchResultItems(s, req.query, req.sort, req.roles, req.limit, req.filters).items.map(
        (item) => tagResultItem(item, r.name, r.slot),
      ),
    ),
  ];
  let items: ResultItem[] = [];
  if (req.sort === 'newest' || req.sort === 'oldest') {
    const dir = req.sort === 'newest' ? -1 : 1;
    items = lists.flat().sort((a, b) => dir * (a.when - b.when));
  } else
    for (let i = 0; lists.some((l) => i < l.length); i++)
      for (const l of lists) if (i < l.length) items.push(l[i]!);
  // Exact hits of every profile before any relaxed one (they are listed apart).
  items = [...items.filter((r) => !r.relaxed), ...items.filter((r) => r.relaxed)];
  items = items.slice(0, req.limit);
  return { items, path: own.path, message: items.length > 0 ? null : own.message };
}
