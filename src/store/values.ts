/**
 * The values the search line's filters can take in this store (the `source:`,
 * `model:` and `cwd:` completions): distinct, most recently used first,
 * bounded, one short query per field.
 */
import { FILTER_VALUES_MAX } from '../budgets.js';
import type { Store } from './store.js';

export interface StoreValues {
  sources: string[];
  models: string[];
  folders: string[];
}

function distinct(store: Store, col: string, limit: number): string[] {
  const rows = store
    .stmt(
      `SELECT ${col} AS v FROM sessions WHERE ${col} IS NOT NULL AND ${col} <> ''
       GROUP BY ${col} ORDER BY max(started_at) DESC LIMIT ?`,
    )
    .all(limit) as { v: unknown }[];
  return rows.map((r) => String(r.v));
}

export function storeValues(store: Store, limit = FILTER_VALUES_MAX): StoreValues {
  // One snapshot, released before returning: the agent's commits are never held up.
  return store.read(() => ({
    sources: distinct(store, 'source', limit),
    models: store.layout.sessionColumns.has('model') ? distinct(store, 'model', limit) : [],
    // A store without a folder column has no folders to offer (and refuses `cwd:`).
    folders: store.layout.has.cwd ? distinct(store, 'cwd', limit) : [],
  }));
}
