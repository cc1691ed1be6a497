/**
 * The preview follows the selection: when the list's selection moves, the
 * message pane shows the selected conversation (at its hit for a result, its
 * latest messages for a Recent row) without taking the keyboard.
 *
 * Loading is a synchronous store read of a few milliseconds, so it never runs
 * on a key: a move only (re)starts a short timer, and the conversation loads
 * once the selection has rested that long. A held `j` (a key every ~25–40 ms)
 * therefore reads nothing until it is released. Until the load lands the pane
 * shows the new row's title and "loading…" (selectors.ts viewMatchesSelection),
 * never the previous conversation's text.
 */
import { previewTarget, screenOf } from '../state/selectors.js';
import { openRecent, openResult } from './conversation.js';
import type { Ctx } from './ctx.js';

import { PREVIEW_DELAY_MS } from '../../budgets.js';
export { PREVIEW_DELAY_MS };

function cancel(ctx: Ctx): void {
  if (ctx.preview.timer !== null) ctx.timers.clearTimeout(ctx.preview.timer);
  ctx.preview.timer = null;
  ctx.preview.key = null;
}

/** Called after every change of state: (re)arms the load when the selection's conversation is not shown. */
export function followSelection(ctx: Ctx): void {
  if (ctx.stopped) return cancel(ctx);
  const s = ctx.state;
  // Reading a conversation: the list does not drive the pane. Narrow: the pane is
  // not on screen, so nothing is read until Enter.
  if ((s.pane === 'messages' && !s.typing) || !screenOf(s).wide) return cancel(ctx);
  const t = previewTarget(s);
  if (!t || s.view?.key === t.key) return cancel(ctx);
  // Already waiting for this row (another change, e.g. the status line): keep the wait.
  if (ctx.preview.key === t.key && ctx.preview.timer !== null) return;
  // The selection moved on: wait for it to rest again.
  cancel(ctx);
  ctx.preview.key = t.key;
  ctx.preview.timer = ctx.timers.setTimeout(() => {
    ctx.preview.timer = null;
    ctx.preview.key = null;
    loadPreview(ctx);
  }, ctx.o.previewDelayMs ?? PREVIEW_DELAY_MS);
}

function loadPreview(ctx: Ctx): void {
  if (ctx.stopped) return;
  ctx.batch(() =>
    ctx.guard(() => {
      const s = ctx.state;
      if (s.pane === 'messages' && !s.typing) return;
      const t = previewTarget(s);
      if (!t || s.view?.key === t.key) return;
      if (t.recent) openRecent(ctx, t.recent, false);
      else if (t.result) openResult(ctx, t.result, undefined, false);
    }),
  );
}
