/**
 * What `state_meta` says about the full-text index right now (STORE.md "Full-text
 * indexes"): stale (detached after corruption, missing new rows) or rebuilding
 * (rows with progress < id <= high water not indexed yet). Read per search: the
 * agent changes these keys while lookback is open.
 */
import type { Store } from './store.js';

export interface IndexStatus {
  /** The index misses rows: search with a substring scan. */
  stale: boolean;
  /** Message ids a rebuild has not indexed yet: lo < id <= hi. */
  pending: { lo: number; hi: number } | null;
  /** The one line to show when the index is not the whole truth. */
  warning: string | null;
  /** `fts_storage_version` (absent = the legacy inline index). */
  storageVersion: number | null;
}

const NONE: IndexStatus = { stale: false, pending: null, warning: null, storageVersion: null };

export function indexStatus(store: Store): IndexStatus {
  if (!store.layout.has.stateMeta) return NONE;
  let rows: { key: string; value: unknown }[];
  try {
    rows = store
      .stmt(
        `SELECT key, value FROM state_meta WHERE key IN ('fts_stale', 'fts_rebuild_high_water', 'fts_rebuild_progress', 'fts_storage_version')`,
      )
      .all() as { key: string; value: unknown }[];
  } catch {
    return NONE; // a state_meta of another shape: trust the index as the layout found it
  }
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  const num = (k: string): number | null => {
    const v = Number(meta.get(k));
    return meta.has(k) && meta.get(k) !== null && meta.get(k) !== '' && Number.isFinite(v)
      ? v
      : null;
  };
  const staleRaw = meta.get('fts_stale');
  const stale =
    staleRaw !== undefined &&
    staleRaw !== null &&
    !['', '0', 'false'].includes(String(staleRaw).toLowerCase());
  const hw = num('fts_rebuild_high_water');
  const progress = num('fts_rebuild_progress') ?? 0;
  const pending =
    hw !== null && progress < hw ? { lo: Math.floor(progress), hi: Math.floor(hw) } : null;
  let warning: string | null = null;
  if (stale)
    warning =
      'the full-text index is marked stale by the agent; searched with a substring scan instead';
  else if (pending) {
    const pct = hw && hw > 0 ? Math.floor((100 * pending.lo) / hw) : 0;
    warning = `the full-text index is rebuilding (${pct}% done); messages #${pending.lo + 1}–#${pending.hi} were searched with a substring scan`;
  }
  return { stale, pending, warning, storageVersion: num('fts_storage_version') };
}
