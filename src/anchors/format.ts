import { sanitize, sanitizeLine } from '../text/sanitize.js';
import { formatCount } from '../text/format.js';
import {
  DEFAULT_SCROLL_WINDOW,
  MAX_SCROLL_WINDOW,
  MIN_SCROLL_WINDOW,
  QUOTE_MAX_CHARS,
} from '../budgets.js';
export { DEFAULT_SCROLL_WINDOW, WINDOW_MESSAGE_MAX_CHARS } from '../budgets.js';

/**
 * The anchor forms an agent accepts (spec/STORE.md, "Anchors an agent
 * accepts"). Everything produced here goes to the clipboard or the terminal,
 * so every piece of store text passes through the sanitizer first.
 */

export const DEFAULT_PROFILE = 'default';

export interface AnchorTarget {
  profile: string;
  sessionId: string;
  messageId: number;
  role?: string | null;
  /** Epoch seconds, as the store holds them. */
  timestamp?: number | null;
  content?: string | null;
  title?: string | null;
  /** Name the profile in the scroll call too (a message of a profile other than the one shown). */
  callNamesProfile?: boolean;
  /** Another machine's message (`lookback sync --host`): the link and the call name it. */
  host?: string;
}

export type MessageRef = Pick<AnchorTarget, 'sessionId' | 'messageId'>;

/** Largest |ms| a Date can hold. */
const MAX_DATE_MS = 8.64e15;

/** `2026-03-01T12:00:00Z` for epoch seconds, or null when the value is not a usable time. */
export function isoTime(epochSeconds: number | null | undefined): string | null {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds)) return null;
  const ms = epochSeconds * 1000;
  if (Math.abs(ms) > MAX_DATE_MS) return null;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function integer(n: number): string {
  return Number.isFinite(n) ? String(Math.trunc(n)) : '0';
}

function clampWindow(window: number): number {
  if (!Number.isFinite(window)) return DEFAULT_SCROLL_WINDOW;
  return Math.min(MAX_SCROLL_WINDOW, Math.max(MIN_SCROLL_WINDOW, Math.trunc(window)));
}

function profileName(profile: string): string {
  return sanitizeLine(profile).trim() || DEFAULT_PROFILE;
}

/** `@session:<profile>/<session_id>`, the link the agent resolves itself. */
export function link(target: Pick<AnchorTarget, 'profile' | 'sessionId' | 'host'>): string {
  const host = target.host ? `@${sanitizeLine(target.host)}` : '';
  return `@session:${profileName(target.profile)}${host}/${sanitizeLine(target.sessionId)}`;
}

/**
 * `session_search(session_id="…", around_message_id=N, window=5)`; the id is
 * JSON-quoted. With `profile`, the call also names the profile whose store
 * holds the session (`profile="work"`, the tool's added parameter, STORE.md).
 */
export function scrollCall(
  target: MessageRef,
  window: number = DEFAULT_SCROLL_WINDOW,
  profile?: string,
  /** Another machine's session: `host="devbox"` (lookback mcp reads its mirror). */
  host?: string,
): string {
  const id = JSON.stringify(sanitizeLine(target.sessionId));
  const named = profile === undefined ? '' : `, profile=${JSON.stringify(sanitizeLine(profile))}`;
  const on = host === undefined ? '' : `, host=${JSON.stringify(sanitizeLine(host))}`;
  return `session_search(session_id=${id}, around_message_id=${integer(target.messageId)}, window=${clampWindow(window)}${named}${on})`;
}

/** Cut to `max` code units without leaving half a surrogate pair; reports the original length. */
function cap(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end), cut: true };
}

function truncationNote(shown: number, total: number): string {
  return `… (truncated: ${formatCount(shown)} of ${formatCount(total)} characters)`;
}

function cleanRole(role: string | null | undefined): string {
  return sanitizeLine(role ?? '').trim() || 'message';
}

/**
 * The message quoted as Markdown (`> ` lines, capped at QUOTE_MAX_CHARS with
 * a note), then one citation line: role, ISO time, link and scroll call.
 */
export function quote(target: AnchorTarget): string {
  const content = sanitize(target.content ?? '').trimEnd();
  const { text, cut } = cap(content, QUOTE_MAX_CHARS);
  const body = text === '' ? ['(no text content)'] : text.split('\n');
  if (cut) body.push('', truncationNote(text.length, content.length));
  const quoted = body.map((line) => (line === '' ? '>' : `> ${line}`)).join('\n');
  const citation = [
    cleanRole(target.role),
    isoTime(target.timestamp),
    link(target),
    scrollCall(
      target,
      DEFAULT_SCROLL_WINDOW,
      target.callNamesProfile ? profileName(target.profile) : undefined,
      target.host,
    ),
  ].filter((part): part is string => part !== null);
  return `${quoted}\n\n— ${citation.join(' · ')}`;
}

/**
 * Several anchors as one block an agent can follow: a header line, one scroll
 * call per anchor, then the same anchors as a JSON list of
 * `{session_id, around_message_id}` pairs. Duplicates are dropped.
 */
export function multi(anchors: readonly MessageRef[]): string {
  const seen = new Set<string>();
  const unique: MessageRef[] = [];
  for (const anchor of anchors) {
    const key = `${sanitizeLine(anchor.sessionId)}\u0000${integer(anchor.messageId)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(anchor);
  }
  if (unique.length === 0) return '';
  const header =
    unique.length === 1
      ? 'Recall this message with session_search:'
      : `Recall these ${unique.length} messages with session_search:`;
  const calls = unique.map((anchor) => scrollCall(anchor));
  const pairs = unique.map((anchor) => ({
    session_id: sanitizeLine(anchor.sessionId),
    around_message_id: Number(integer(anchor.messageId)),
  }));
  return `${header}\n${calls.join('\n')}\n\n${JSON.stringify(pairs)}\n`;
}

/** The copy-menu forms that need only one message. */
export type AnchorForm = 'link' | 'scroll' | 'quote';

export function formatAnchor(form: AnchorForm, target: AnchorTarget): string {
  switch (form) {
    case 'link':
      return link(target);
    case 'scroll':
      return scrollCall(target);
    case 'quote':
      return quote(target);
  }
}
