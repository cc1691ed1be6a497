/** The search line's completion: the values the sources hold, asked again when a source changed, and Tab taking the offer. */
import { FILTER_VALUES_MAX } from '../../budgets.js';
import { completionText } from '../../query/complete.js';
import { tildePath } from '../../text/format.js';
import { completionOf } from '../state/selectors.js';
import type { Ctx } from './ctx.js';

/** The data version the values were read at, per controller. */
const readAt = new WeakMap<Ctx, number>();

/** Reads the filters' values once, and again only after a source changed (a few bounded queries). */
export function refreshFilterValues(ctx: Ctx): void {
  const version = ctx.data.dataVersion();
  if (ctx.state.filterValues !== null && readAt.get(ctx) === version) return;
  readAt.set(ctx, version);
  const v = ctx.data.filterValues(FILTER_VALUES_MAX);
  const home = ctx.o.home ?? '';
  ctx.dispatch({
    type: 'filterValues',
    values: { ...v, cwd: [...new Set((v.cwd ?? []).map((f) => tildePath(f, home)))] },
  });
}

/** Tab on an offer: its first item takes the word's place. */
export function takeCompletion(ctx: Ctx, edit: (text: string, from: number) => void): void {
  const c = completionOf(ctx.state);
  const first = c?.items[0];
  if (!c || first === undefined) return;
  edit(completionText(first, ctx.state.search.text.slice(c.end)), c.start);
}
