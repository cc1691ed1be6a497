/**
 * Live, status and unread: derived from the store's own columns, pure, shared by
 * the data layer (rows) and the views (which re-derive "live" as the clock moves).
 */

import { LIVE_WINDOW_S } from '../budgets.js';
export { LIVE_WINDOW_S };

export type ConversationStatus = 'live' | 'complete' | 'interrupted' | 'error' | 'empty';

export function isLive(open: boolean, lastActive: number, now: number): boolean {
  return open && now - lastActive < LIVE_WINDOW_S;
}

/**
 * How a conversation stands, from the tip's `ended_at` / `end_reason` and the
 * visible message count:
 * - `empty`: no message to show;
 * - `live`: not ended and active within LIVE_WINDOW_S;
 * - `interrupted`: not ended but silent for longer (the agent crashed or was
 *   killed before it could write `ended_at`);
 * - `error`: ended with a reason naming a failure (`error`, `fail`, `crash`);
 * - `complete`: ended any other way (`tui_shutdown`, `new_session`, `idle`, `compression`…).
 */
export function statusOf(f: {
  messages: number;
  endedAt: number | null;
  endReason: string | null;
  lastActive: number;
  now: number;
}): ConversationStatus {
  if (f.messages === 0) return 'empty';
  if (f.endedAt === null) return isLive(true, f.lastActive, f.now) ? 'live' : 'interrupted';
  if (f.endReason !== null && /error|fail|crash/i.test(f.endReason)) return 'error';
  return 'complete';
}

/** Unread (STORE.md `last_read_at`): activity newer than the watermark; NULL means read. */
export function isUnread(lastReadAt: number | null, lastActive: number): boolean {
  return lastReadAt !== null && lastActive > lastReadAt;
}
