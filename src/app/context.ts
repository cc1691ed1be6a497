/**
 * The context of a conversation as words: folder, git branch, model, source,
 * messages, tokens, cost and status. The message pane's context line shows
 * what fits; `i` says all of it on the status line. Pure.
 */
import type { ConversationContext } from '../store/facts.js';
import { plural, tildePath } from '../text/format.js';
import { statusOf, type ConversationStatus } from './conversationStatus.js';

/** `1.2k`, `3.4M`: token counts in a few columns. */
export function shortTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function contextStatus(c: ConversationContext, now: number): ConversationStatus {
  return statusOf({
    messages: c.messages,
    endedAt: c.endedAt,
    endReason: c.endReason,
    lastActive: c.lastActive,
    now,
  });
}

/** The parts in reading order; absent facts (older stores) are left out, never shown as 0. */
export function contextParts(c: ConversationContext, now: number, home = ''): string[] {
  const parts: string[] = [];
  if (c.cwd) parts.push(home ? tildePath(c.cwd, home) : c.cwd);
  if (c.gitBranch) parts.push(`⎇ ${c.gitBranch}`);
  if (c.model) parts.push(c.model);
  parts.push(c.source);
  parts.push(plural(c.messages, 'message'));
  if (c.inputTokens !== null || c.outputTokens !== null)
    parts.push(
      `${shortTokens(c.inputTokens ?? 0)} in / ${shortTokens(c.outputTokens ?? 0)} out tokens`,
    );
  if (c.costUsd !== null) parts.push(`${c.costEstimated ? '~' : ''}$${c.costUsd.toFixed(2)}`);
  const status = contextStatus(c, now);
  parts.push(c.endReason && status !== 'live' ? `${status} (${c.endReason})` : status);
  if (c.pinned) parts.push('pinned');
  if (c.lastReadAt !== null && c.lastActive > c.lastReadAt) parts.push('unread');
  return parts;
}
