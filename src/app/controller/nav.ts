/**
 * j/k, pages, g/G: in a conversation they move through its messages
 * (conversation.ts), in a list they move the selection and page the list
 * (search.ts, recent.ts). Its own file so that those modules need not import
 * each other.
 */
import { ensureEdges, jumpEdge } from './conversation.js';
import type { Ctx } from './ctx.js';
import { loadToEnd, maybeLoadMore, maybeMoreRecent } from './search.js';

export function nav(
  ctx: Ctx,
  cmd: 'nav.down' | 'nav.up' | 'nav.pageDown' | 'nav.pageUp' | 'nav.top' | 'nav.bottom',
): void {
  const s = ctx.state;
  const dir: 1 | -1 = cmd === 'nav.down' || cmd === 'nav.pageDown' || cmd === 'nav.bottom' ? 1 : -1;
  const move =
    cmd === 'nav.down' || cmd === 'nav.up'
      ? 'line'
      : cmd === 'nav.top' || cmd === 'nav.bottom'
        ? 'edge'
        : 'page';
  if (s.pane === 'messages' && s.view) {
    if (move === 'edge') return jumpEdge(ctx, dir);
    ctx.dispatch({ type: 'viewNav', move, dir });
    return ensureEdges(ctx);
  }
  const pane = s.pane === 'messages' ? s.origin : s.pane;
  if (pane === 'results' && cmd === 'nav.bottom' && loadToEnd(ctx)) return;
  ctx.dispatch({ type: 'listNav', pane, move, dir });
  if (pane === 'results') maybeLoadMore(ctx);
  else maybeMoreRecent(ctx);
}
