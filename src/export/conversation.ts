/**
 * A conversation, or a set of marked messages, as a document: Markdown for
 * people and prompts, JSON in the shapes `lookback read --json` prints. The
 * same Markdown form serves the export and the copy menu's "visible window"
 * (one form in the product); options choose the heading level, the anchor
 * and a per-message cap. Everything from the store is sanitized here.
 */
import { isoTime as anchorTime, link } from '../anchors/format.js';
import { contentText, type ToolCall } from '../store/content.js';
import { shapeMessage, type Json } from '../store/recall.js';
import { isoTime } from '../store/time.js';
import type { Message } from '../store/types.js';
import { formatCount } from '../text/format.js';
import { prettyJsonText, prettyJsonPlain } from '../text/prettyJson.js';
import { sanitize, sanitizeLine } from '../text/sanitize.js';

export interface ConversationInfo {
  profile: string;
  sessionId: string;
  title?: string | null;
  source?: string | null;
  model?: string | null;
  /** Epoch seconds, as the store holds them. */
  startedAt?: number | null;
  cwd?: string | null;
}

export interface MarkdownOptions {
  /** 1 for a document (export), 2 for a block pasted among other text (copy menu). */
  headingLevel?: 1 | 2;
  /** The message the view is anchored on, marked "(anchor)". */
  anchorId?: number | null;
  /** Characters of one message's text kept; the rest is replaced by a note. */
  maxMessageChars?: number;
  /** One line under the metadata, e.g. "visible window: 12 of 120 messages". */
  note?: string;
  /** Include the model's reasoning (hidden by default, as in the app). */
  reasoning?: boolean;
}

export interface MarkdownDocument {
  text: string;
  /** Length of text, for the copy menu's "(N chars)". */
  chars: number;
}

/** A fence longer than any backtick run inside, so content cannot close it early. */
function fence(body: string, info: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${body}\n${ticks}`;
}

function cap(text: string, max: number | undefined): string {
  if (max === undefined || !Number.isFinite(max) || text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}\n\n… (truncated: ${formatCount(end)} of ${formatCount(text.length)} characters)`;
}

/** Tool call arguments: pretty JSON when they are JSON (fenced `json` only if still exact). */
function callBlock(call: ToolCall): string {
  const name = sanitizeLine(
    call.function?.name ?? (typeof call.type === 'string' ? call.type : 'tool'),
  );
  const raw = call.function?.arguments;
  const args = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  const pretty = prettyJsonText(sanitize(args));
  const body = pretty ? prettyJsonPlain(pretty) : sanitize(args);
  const title = `Tool call \`${name.replaceAll('`', "'")}\``;
  if (body.trim() === '') return `${title} (no arguments)`;
  return `${title}:\n\n${fence(body, pretty?.exact === true ? 'json' : 'text')}`;
}

function roleLabel(m: Message): string {
  const role = sanitizeLine(m.role ?? '').trim() || 'message';
  const tool = m.tool_name ? sanitizeLine(m.tool_name).trim() : '';
  return tool !== '' ? `${role} (${tool})` : role;
}

function messageBlock(m: Message, level: number, options: MarkdownOptions): string {
  const header = [
    `${'#'.repeat(level)} ${roleLabel(m)}`,
    anchorTime(m.timestamp),
    `#${Number.isFinite(m.id) ? Math.trunc(m.id) : 0}`,
    options.anchorId !== undefined && options.anchorId !== null && m.id === options.anchorId
      ? '(anchor)'
      : null,
  ].filter((part): part is string => part !== null);
  const parts: string[] = [header.join(' · ')];
  const text = cap(sanitize(contentText(m.content)).trimEnd(), options.maxMessageChars);
  if (text !== '') {
    if (m.role === 'tool' || m.role === 'system') {
      // Tool output and system prompts are not Markdown: keep them verbatim.
      const pretty = m.role === 'tool' ? prettyJsonText(text) : null;
      parts.push(
        pretty
          ? fence(prettyJsonPlain(pretty), pretty.exact ? 'json' : 'text')
          : fence(text, 'text'),
      );
    } else parts.push(text);
  }
  if (options.reasoning === true && m.reasoning) {
    const thought = cap(sanitize(m.reasoning).trimEnd(), options.maxMessageChars);
    if (thought !== '')
      parts.push(
        `<details><summary>reasoning</summary>\n\n${fence(thought, 'text')}\n\n</details>`,
      );
  }
  if (Array.isArray(m.tool_calls)) for (const call of m.tool_calls) parts.push(callBlock(call));
  else if (typeof m.tool_calls === 'string' && m.tool_calls !== '')
    parts.push(`Tool call (unreadable):\n\n${fence(sanitize(m.tool_calls), 'text')}`);
  if (parts.length === 1) parts.push('_(no text content)_');
  return parts.join('\n\n');
}

function metaLines(info: ConversationInfo): string[] {
  const lines = [`- link: \`${link(info)}\``];
  const origin = [
    info.source ? `source: ${sanitizeLine(info.source)}` : null,
    info.model ? `model: ${sanitizeLine(info.model)}` : null,
  ].filter((p): p is string => p !== null);
  if (origin.length > 0) lines.push(`- ${origin.join(' · ')}`);
  const when = anchorTime(info.startedAt ?? null);
  if (when !== null) lines.push(`- started: ${when}`);
  if (info.cwd) lines.push(`- cwd: \`${sanitizeLine(info.cwd).replaceAll('`', "'")}\``);
  return lines;
}

/** Title heading, metadata, then every message with role, time and id. */
export function conversationMarkdown(
  info: ConversationInfo,
  messages: readonly Message[],
  options: MarkdownOptions = {},
): MarkdownDocument {
  const level = options.headingLevel ?? 1;
  const title = sanitizeLine(info.title ?? '').trim();
  const id = sanitizeLine(info.sessionId);
  const blocks = [
    `${'#'.repeat(level)} ${title === '' ? `Session ${id}` : title}`,
    metaLines(info).join('\n'),
  ];
  const note = sanitizeLine(options.note ?? '').trim();
  if (note !== '') blocks.push(`_${note}_`);
  for (const m of messages) blocks.push(messageBlock(m, level + 2, options));
  const text = blocks.join('\n\n') + '\n';
  return { text, chars: text.length };
}

/** Marked messages from several conversations: one section per conversation, in the order given. */
export function markedMarkdown(
  groups: readonly { info: ConversationInfo; messages: readonly Message[] }[],
  options: Omit<MarkdownOptions, 'headingLevel'> = {},
): MarkdownDocument {
  const count = groups.reduce((n, g) => n + g.messages.length, 0);
  const parts = [
    `# Marked messages (${count} from ${groups.length} ${groups.length === 1 ? 'conversation' : 'conversations'})`,
    ...groups.map((g) =>
      conversationMarkdown(g.info, g.messages, { ...options, headingLevel: 2 }).text.trimEnd(),
    ),
  ];
  const text = parts.join('\n\n') + '\n';
  return { text, chars: text.length };
}

/**
 * The conversation as `lookback read --json` prints it (session_meta, the
 * messages in the agent's shape), with every message given: nothing is
 * truncated in an export.
 */
export function conversationJson(
  info: ConversationInfo,
  messages: readonly Message[],
  anchorId?: number,
): Record<string, Json> {
  return {
    success: true,
    mode: 'read',
    session_id: info.sessionId,
    // As read --json prints it: the agent's link to the conversation.
    link: info.profile
      ? `@session:${info.profile}/${info.sessionId}`
      : `@session:${info.sessionId}`,
    session_meta: {
      when: isoTime(info.startedAt ?? null),
      source: info.source ?? null,
      model: info.model ?? null,
      title: info.title ?? null,
    },
    message_count: messages.length,
    truncated: false,
    messages: messages.map((m) => shapeMessage(m, anchorId)),
  };
}

/** Marked messages from several conversations: one read-shaped object per conversation. */
export function markedJson(
  groups: readonly { info: ConversationInfo; messages: readonly Message[] }[],
): Record<string, Json> {
  return {
    success: true,
    mode: 'export',
    count: groups.reduce((n, g) => n + g.messages.length, 0),
    sessions: groups.map((g) => conversationJson(g.info, g.messages)),
  };
}
