/**
 * The one merge of lists from several sources, for every door and the app:
 * recency by time, relevance by taking turns (scores of two indexes do not
 * compare), newest/oldest by the matched message's time, pinned first where the
 * list is for people. Stable: equal keys keep their sources' order.
 */
export type MergeOrder = 'activity' | 'pinned-first' | 'turns' | 'newest' | 'oldest';

export interface MergeKeys<T> {
  /** Epoch time the list orders by (last activity, the hit's time). */
  at: (row: T) => number;
  pinned?: (row: T) => boolean;
}

/** The lists as one, ordered by `order`, cut to `limit` after `offset` rows. */
export function merge<T>(
  lists: readonly (readonly T[])[],
  order: MergeOrder,
  keys: MergeKeys<T>,
  limit = Infinity,
  offset = 0,
): T[] {
  let out: T[];
  if (order === 'turns') {
    out = [];
    for (let i = 0; lists.some((l) => i < l.length); i++)
      for (const l of lists) if (i < l.length) out.push(l[i]!);
  } else {
    const dir = order === 'oldest' ? 1 : -1;
    const pin = order === 'pinned-first' && keys.pinned ? keys.pinned : null;
    out = lists
      .flat()
      .map((row, i) => ({ row, i, at: keys.at(row), p: pin ? (pin(row) ? 1 : 0) : 0 }))
      .sort((a, b) => b.p - a.p || dir * (a.at - b.at) || a.i - b.i)
      .map((x) => x.row);
  }
  return out.slice(offset, offset + limit);
}

/** Rows each source must give for a merged page to be whole: every one could fill it alone. */
export function perSource(limit: number, offset = 0): number {
  return limit + offset;
}
