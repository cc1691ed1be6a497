/**
 * The context of a conversation as words: folder, git branch, model, source,
 * messages, tokens, cost and status. The message pane's context line shows
 * what fits; `i` shows all of it, one fact a row (infoRows). Pure.
 */
import { agentResume } from '../anchors/agentForms.js';
import { link } from '../anchors/format.js';
import type { ConversationContext } from '../store/facts.js';
import { age, clockTime, formatCount, plural, tildePath } from '../text/format.js';
import { splitAgentSession } from '../ids/app.js';
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

/** Tokens recorded: a store whose columns hold 0 and 0 (or nothing) records none, and says nothing of them. */
function recordsTokens(c: ConversationContext): boolean {
  return (c.inputTokens ?? 0) > 0 || (c.outputTokens ?? 0) > 0;
}

/** The parts in reading order; absent facts (older stores) are left out, never shown as 0. */
export function contextParts(c: ConversationContext, now: number, home = ''): string[] {
  const parts: string[] = [];
  if (c.cwd) parts.push(home ? tildePath(c.cwd, home) : c.cwd);
  if (c.gitBranch) parts.push(`⎇ ${c.gitBranch}`);
  if (c.model) parts.push(c.model);
  parts.push(c.source);
  parts.push(plural(c.messages, 'message'));
  if (recordsTokens(c))
    parts.push(
      `${shortTokens(c.inputTokens ?? 0)} in / ${shortTokens(c.outputTokens ?? 0)} out tokens`,
    );
  if (c.costUsd !== null) parts.push(`${c.costEstimated ? '~' : ''}$${c.costUsd.toFixed(2)}`);
  if (c.endKnown !== false) {
    const status = contextStatus(c, now);
    parts.push(c.endReason && status !== 'live' ? `${status} (${c.endReason})` : status);
  }
  if (c.pinned) parts.push('pinned');
  if (c.lastReadAt !== null && c.lastActive > c.lastReadAt) parts.push('unread');
  return parts;
}

/** `3h ago`, or `just now` under a minute. */
function ago(t: number, now: number): string {
  const a = age(t, now);
  return a === 'now' ? 'just now' : `${a} ago`;
}

export interface InfoRow {
  label: string;
  value: string;
}

/**
 * Everything known about an opened conversation, one fact a row, for the `i`
 * panel: who and where (agent, profile, ids, link or resume command), then the
 * context facts in full (what the context line cuts to fit). Values are as
 * stored; the panel sanitizes them.
 */
export function infoRows(
  v: { title: string; chain: readonly string[]; context: ConversationContext | null },
  profile: string,
  now: number,
  home = '',
): InfoRow[] {
  const rows: InfoRow[] = [{ label: 'title', value: v.title }];
  const root = v.chain[0] ?? '';
  const tip = v.chain[v.chain.length - 1] ?? root;
  const other = splitAgentSession(root);
  if (other) {
    rows.push({ label: 'agent', value: other.agent }, { label: 'session', value: other.nativeId });
    const resume = agentResume(other.agent, other.nativeId);
    if (resume) rows.push({ label: 'resume', value: resume });
  } else {
    rows.push({ label: 'agent', value: 'hermes' }, { label: 'profile', value: profile });
    rows.push({ label: 'session', value: root });
    if (v.chain.length > 1)
      rows.push({ label: 'newest segment', value: `${tip} (${v.chain.length} segments)` });
    rows.push({ label: 'link', value: link({ profile, sessionId: root }) });
  }
  const c = v.context;
  if (!c) return rows;
  if (c.cwd) rows.push({ label: 'folder', value: home ? tildePath(c.cwd, home) : c.cwd });
  if (c.gitBranch) rows.push({ label: 'branch', value: c.gitBranch });
  if (c.model) rows.push({ label: 'model', value: c.model });
  if (c.source) rows.push({ label: 'source', value: c.source });
  rows.push({ label: 'messages', value: formatCount(c.messages) });
  if (recordsTokens(c))
    rows.push({
      label: 'tokens',
      value: `${formatCount(c.inputTokens ?? 0)} in / ${formatCount(c.outputTokens ?? 0)} out`,
    });
  if (c.costUsd !== null)
    rows.push({
      label: 'cost',
      value: `$${c.costUsd.toFixed(4)}${c.costEstimated ? ' (estimated)' : ''}`,
    });
  rows.push({
    label: 'started',
    value: `${clockTime(c.startedAt)} (${ago(c.startedAt, now)})`,
  });
  rows.push({
    label: 'last active',
    value: `${clockTime(c.lastActive)} (${ago(c.lastActive, now)})`,
  });
  if (c.endKnown !== false) {
    const status = contextStatus(c, now);
    rows.push({
      label: 'status',
      value: c.endReason && status !== 'live' ? `${status} (${c.endReason})` : status,
    });
  }
  if (c.endedAt !== null) rows.push({ label: 'ended', value: clockTime(c.endedAt) });
  if (c.pinned) rows.push({ label: 'pinned', value: 'yes' });
  if (c.lastReadAt !== null)
    rows.push({
      label: 'last read',
      value: `${clockTime(c.lastReadAt)}${c.lastActive > c.lastReadAt ? ' (unread since)' : ''}`,
    });
  return rows;
}
