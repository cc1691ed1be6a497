/**
 * The mouse (SGR reports, input/mouse.ts): the wheel scrolls the pane under
 * the pointer, a click selects the row (or the message) under it and gives
 * its pane the keyboard, a second click on the same row soon after opens it.
 */
import { visibleSlice } from '../geometry/window.js';
import { listCapacity, RESULT_ROWS, type PaneId } from '../geometry/screen.js';
import type { MouseEvent } from '../input/mouse.js';
import { listPane, measureFor, screenOf, viewHeight } from '../state/selectors.js';
import { ensureEdges, open } from './conversation.js';
import type { Ctx } from './ctx.js';

import { WHEEL_LINES } from '../../budgets.js';
export { WHEEL_LINES };
import { DOUBLE_CLICK_MS } from '../../budgets.js';
export { DOUBLE_CLICK_MS };
/** Rows above the panes' insides: header, search line, the panes' top border. */
const FIRST_INNER_ROW = 4;

/** The pane whose inside holds column x (1-based), and the row within it (0-based); null outside. */
function paneAt(ctx: Ctx, x: number, y: number): { pane: PaneId; row: number } | null {
  const s = ctx.state;
  const screen = screenOf(s);
  if (screen.tooSmall || s.overlay) return null;
  const row = y - FIRST_INNER_ROW;
  if (row < 0 || row >= screen.innerHeight) return null;
  // One list (Recent while the search line is empty, Results otherwise) left of the messages.
  const list = listPane(s);
  if (!screen.wide) return { pane: s.pane === 'messages' ? 'messages' : list, row };
  if (x >= 1 && x <= screen.widths[list]) return { pane: list, row };
  if (x > screen.widths[list] && x <= screen.cols) return { pane: 'messages', row };
  return null;
}

export function onMouse(ctx: Ctx, e: MouseEvent): void {
  if (e.kind === 'other') return;
  const hit = paneAt(ctx, e.x, e.y);
  if (!hit) return;
  if (e.kind === 'wheel') return wheel(ctx, hit.pane, e.dir);
  if (e.button !== 'left') return;
  click(ctx, hit.pane, hit.row);
}

function wheel(ctx: Ctx, pane: PaneId, dir: 1 | -1): void {
  const s = ctx.state;
  if (pane === 'messages') {
    if (!s.view) return;
    for (let i = 0; i < WHEEL_LINES; i++) ctx.dispatch({ type: 'viewNav', move: 'line', dir });
    return ensureEdges(ctx);
  }
  for (let i = 0; i < WHEEL_LINES; i++) ctx.dispatch({ type: 'listNav', pane, move: 'line', dir });
}

function click(ctx: Ctx, pane: PaneId, row: number): void {
  const s = ctx.state;
  let key: string | null = null;
  if (pane === 'recent' || pane === 'results') {
    const list = pane === 'recent' ? s.recent.list : s.results.list;
    const count = pane === 'recent' ? s.recent.entries.length : s.results.items.length;
    const index = list.offset + (pane === 'results' ? Math.floor(row / RESULT_ROWS) : row);
    const capacity = listCapacity(screenOf(s), pane);
    if (index >= count || index - list.offset >= capacity) return;
    if (s.typing) ctx.dispatch({ type: 'setTyping', on: false });
    ctx.dispatch({ type: 'setPane', pane });
    ctx.dispatch({ type: 'listSelect', pane, index });
    key = `${pane}:${index}`;
  } else {
    const v = s.view;
    if (!v) return;
    const line = row - (v.win.atStart ? 0 : 1);
    let at = 0;
    let target: number | null = null;
    for (const r of visibleSlice(v.win, measureFor(s, v), viewHeight(s, v))) {
      if (line >= at && line < at + r.take && r.item.kind === 'message') target = r.item.msg.id;
      at += r.take;
    }
    if (target === null) return;
    if (s.typing) ctx.dispatch({ type: 'setTyping', on: false });
    ctx.dispatch({ type: 'setPane', pane: 'messages' });
    ctx.dispatch({ type: 'focusMessage', id: target });
    key = `messages:${target}`;
  }
  const now = ctx.now();
  const last = ctx.mouse.lastClick;
  const double = last !== null && last.key === key && now - last.at <= DOUBLE_CLICK_MS;
  ctx.mouse.lastClick = double ? null : { at: now, key };
  if (double) open(ctx);
}
