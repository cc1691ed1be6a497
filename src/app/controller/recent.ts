/** The Recent list: its first page at once, the rest from the worker, merges after a store change, and branches. */
import type { ProfileRef } from '../data/everyProfile.js';
import { RECENT_FULL_LIMIT } from '../data/queries.js';
import { recentFirstPage } from '../data/rows.js';
import type { SessionRow } from '../model.js';
import { selectedRecent } from '../state/selectors.js';
import type { AppState } from '../state/types.js';
import type { Ctx } from './ctx.js';
import { searchChanged } from './search.js';
import { say } from './status.js';

/** The first page at once, the rest from the worker; a complete first page retires any request in flight. */
export function reloadRecent(ctx: Ctx): void {
  const first = ctx.data.recent(
    recentFirstPage(ctx.state.size.rows),
    ctx.state.showHidden,
    ctx.recent.filters,
    everyProfile(ctx),
  );
  // A new listing: what the store gained before it is not "new" to this one.
  ctx.recent.countsBeforeChange = null;
  ctx.dispatch({
    type: 'recentLoaded',
    rows: first.rows,
    complete: first.complete,
    hidden: first.hidden,
    cause: 'relist',
  });
  if (!first.complete) requestRecent(ctx);
  else ctx.recent.gen++;
}

/** The other profiles' stores when the every-profile view is on (P), else none. */
export function everyProfile(ctx: Ctx): ProfileRef[] | undefined {
  return ctx.state.everyProfile ? ctx.data.profileRefs() : undefined;
}

export function requestRecent(ctx: Ctx, topOnly = false): void {
  if (!topOnly) ctx.recent.lastFull = ctx.now();
  ctx.client.request({
    kind: 'recent',
    generation: ++ctx.recent.gen,
    all: ctx.state.showHidden,
    limit: topOnly ? recentFirstPage(ctx.state.size.rows) : RECENT_FULL_LIMIT,
    ...(ctx.recent.filters ? { filters: ctx.recent.filters } : {}),
    ...(ctx.state.everyProfile ? { profiles: ctx.data.profileRefs() } : {}),
  });
  if (topOnly) ctx.recent.topPageGen = ctx.recent.gen;
}

export function applyRecent(
  ctx: Ctx,
  rows: SessionRow[],
  complete: boolean,
  hidden: AppState['hidden'],
): void {
  const before = ctx.recent.countsBeforeChange;
  ctx.recent.countsBeforeChange = null;
  ctx.dispatch({
    type: 'recentLoaded',
    rows,
    complete,
    hidden,
    ...(before ? { cause: 'grew' } : {}),
  });
  if (before) {
    let fresh = 0;
    let sessions = 0;
    for (const row of rows) {
      const old = before.get(row.rootId);
      if (old === undefined) {
        sessions++;
        fresh += row.messageCount;
      } else fresh += Math.max(0, row.messageCount - old);
    }
    if (fresh > 0 || sessions > 0) ctx.setStatus(say.storeChanged(fresh, sessions));
  }
  const s = ctx.state;
  if (s.search.mode === 'fuzzy' && s.search.text.trim() !== '') searchChanged(ctx);
}

export function tree(ctx: Ctx, expand: boolean): void {
  const s = ctx.state;
  if (s.pane !== 'recent' || s.typing) return;
  const row = selectedRecent(s);
  if (!row) return;
  if (!expand) {
    if (s.recent.branches[row.rootId] || row.depth > 0) {
      const parent = row.depth > 0 ? parentOf(ctx, row) : row;
      if (parent) ctx.dispatch({ type: 'collapseBranches', rootId: parent.rootId });
    }
    return;
  }
  if (row.branches === 0) return ctx.setStatus(say.noBranches);
  if (s.recent.branches[row.rootId]) return;
  const rows = ctx.data.branches(row);
  ctx.dispatch({ type: 'branchesLoaded', rootId: row.rootId, rows });
  ctx.setStatus(say.branches(rows.length, row.title));
}

function parentOf(ctx: Ctx, row: SessionRow): SessionRow | null {
  const entries = ctx.state.recent.entries;
  const i = entries.indexOf(row);
  for (let j = i - 1; j >= 0; j--)
    if ((entries[j]?.depth ?? 0) < row.depth) return entries[j] ?? null;
  return null;
}
