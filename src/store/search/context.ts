/**
 * The filters of one search resolved once: SQL for the hit's own session
 * (sources, cwd, model) and a check on its conversation (dates, exclusions),
 * shared by discover, the title match and the count.
 */
import type { Store } from '../store.js';
import { filterSessionsSql, lineageExcluder, type SessionFilter } from '../filters.js';
import type { Filters } from '../types.js';
import type { Hit } from './plan.js';

export interface SearchContext {
  sessions: SessionFilter | null;
  accept: (hit: Hit, root: string) => boolean;
  filters: Filters;
}

/** The filters resolved once per search: SQL for the hit's session, a check on its conversation. */
export function searchContext(store: Store, filters: Filters | undefined): SearchContext {
  const f = filters ?? {};
  const sessions = filterSessionsSql(store, { sources: f.sources, cwd: f.cwd, model: f.model });
  const excluded = lineageExcluder(store, f.excludeSessionIds ?? []);
  const started = new Map<string, number>();
  const startOf = (root: string): number => {
    let v = started.get(root);
    if (v === undefined) {
      v =
        (store.stmt(`SELECT started_at FROM sessions WHERE id = ?`).pluck().get(root) as
          number | null) ?? 0;
      started.set(root, v);
    }
    return v;
  };
  const dated = f.after !== undefined || f.before !== undefined;
  return {
    sessions,
    filters: f,
    accept: (_hit, root) => {
      if (excluded(root)) return false;
      if (!dated) return true;
      const at = startOf(root);
      return (f.after === undefined || at >= f.after) && (f.before === undefined || at < f.before);
    },
  };
}
