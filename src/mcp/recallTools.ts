/**
 * The tools beside `session_search`, for what an agent cannot do with it: a
 * list of conversations with filters and paging, one conversation's overview,
 * and its messages by range a page at a time. Each is a zod schema (checked on
 * every call, listed as JSON Schema), a description written for a model, and a
 * Call for the recall core (src/recall), asked over the sources the call's
 * agent/profile/host name (call.ts onScope): the same answer as `lookback
 * list|overview|messages --json` with the same arguments.
 */
import { z } from 'zod';
import type { Call, MessageRange } from '../recall/call.js';
import { parseTarget, TargetError, type Target } from '../recall/target.js';
import type { Filters } from '../store/types.js';
import { folderAndBelow } from '../recall/folder.js';
import { onScope, ToolError, when, type Sources } from './call.js';
import { parseWith } from './tool.js';
import { AGENTS } from '../agents/model.js';

import {
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  MESSAGES_LIMIT_DEFAULT,
  MESSAGES_LIMIT_MAX,
  MAX_CHARS_DEFAULT,
  MAX_CHARS_MIN,
  MAX_CHARS_MAX,
  listLimit,
  maxChars,
  messagesLimit,
} from '../budgets.js';

const str = (description: string) => z.string().max(2_048).describe(description);
const int = (description: string) => z.number().int().describe(description);

const scope = {
  agent: str(
    `Whose history: ${['hermes', ...AGENTS].join(', ')} or all. Omitted: every history on this machine (the Hermes store and every other agent found here).`,
  ).optional(),
  profile: str(
    'Hermes only: the profile whose store to read. Omitted: the store lookback was started on.',
  ).optional(),
  host: str(
    "Another machine synced with `lookback sync --host NAME`: read its mirrored histories instead of this machine's.",
  ).optional(),
};

const sessionId = str(
  "The conversation: a session_id from session_search or list_sessions, the start of one, or a pasted anchor (an @session:<profile>/<id> link, a session_search(...) call, another agent's resume command).",
);

export const listArgs = z
  .object({
    ...scope,
    folder: str(
      'Only conversations whose working folder is this folder or inside it (e.g. /home/me/src/billing: that folder and the folders below it, not /home/me/src/billing-v2).',
    ).optional(),
    model: str(
      'Only conversations whose model name contains this, e.g. "sonnet" or "gpt-5".',
    ).optional(),
    source: str(
      'Only conversations from these platforms, comma-separated (Hermes: cli, telegram, discord, …; other agents: their own name).',
    ).optional(),
    after: str(
      'Only conversations started at or after this time: a date (2026-03-01, 2026-03-01T14:30), a span back (7d, 24h, 2w), today or yesterday.',
    ).optional(),
    before: str('Only conversations started before this time (same forms as after).').optional(),
    include_hidden: z
      .boolean()
      .describe('Also list what default lists hide: subagent and tool runs, archived sessions.')
      .optional(),
    limit: int(
      `Conversations per page, 1..${LIST_LIMIT_MAX}. Default ${LIST_LIMIT_DEFAULT}.`,
    ).optional(),
    cursor: str(
      'The next_cursor of the previous page, unchanged, to get the next page.',
    ).optional(),
  })
  .strict();

export const overviewArgs = z.object({ session_id: sessionId, ...scope }).strict();

const bound = z.union([z.number().int(), z.string().min(1).max(512)]);
const ROLES = ['user', 'assistant', 'tool', 'system'] as const;

export const messagesArgs = z
  .object({
    session_id: sessionId,
    ...scope,
    from_index: int(
      'First message by position (0 is the first message of the conversation; session_overview gives the count).',
    )
      .min(0)
      .optional(),
    to_index: int('Last message by position, inclusive.').min(0).optional(),
    from_message_id: bound
      .describe(
        "First message by id (a match_message_id or any message id from an answer). A whole number in Hermes sessions; other agents' ids may be strings.",
      )
      .optional(),
    to_message_id: bound.describe('Last message by id, inclusive.').optional(),
    roles: z
      .array(z.enum(ROLES))
      .min(1)
      .describe('Only messages of these roles, e.g. ["user"] for the prompts. Default: every role.')
      .optional(),
    limit: int(
      `Messages per page, 1..${MESSAGES_LIMIT_MAX}. Default ${MESSAGES_LIMIT_DEFAULT}.`,
    ).optional(),
    max_chars: int(
      `Characters of message text per page, ${MAX_CHARS_MIN}..${MAX_CHARS_MAX}. Default ${MAX_CHARS_DEFAULT}. A message longer than what is left is cut and continued on the next page (content_offset says where).`,
    ).optional(),
    cursor: str(
      'The next_cursor of the previous page, unchanged, to get the next page.',
    ).optional(),
  })
  .strict();

export type ListArgs = z.infer<typeof listArgs>;
export type OverviewArgs = z.infer<typeof overviewArgs>;
export type MessagesArgs = z.infer<typeof messagesArgs>;

function target(raw: string, agent: string | undefined, profile: string | undefined): Target {
  try {
    const a = agent?.trim().toLowerCase();
    const t = parseTarget(raw, {
      ...(profile !== undefined ? { profile } : {}),
      ...(a && a !== 'all' ? { agent: a } : {}),
    });
    if (t.sessionId === '') throw new ToolError('session_id is empty');
    // A pasted scroll call names a message too: these tools are about the conversation.
    delete t.around;
    delete t.window;
    return t;
  } catch (err) {
    if (err instanceof TargetError) throw new ToolError(err.message);
    throw err;
  }
}

/** The list filters, as `lookback list`'s flags make them. */
export function listFilters(a: {
  folder?: string | undefined;
  model?: string | undefined;
  source?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}): Filters | undefined {
  const now = new Date();
  const f: Filters = {};
  const sources = (a.source ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (sources.length > 0) f.sources = sources;
  if (a.after !== undefined) f.after = when('after', a.after, now);
  if (a.before !== undefined) f.before = when('before', a.before, now);
  if (f.after !== undefined && f.before !== undefined && f.after >= f.before)
    throw new ToolError('after must be earlier than before');
  // This folder or inside it, never a sibling that shares its start (/src/app is not /src/app2).
  if (a.folder?.trim()) f.cwd = folderAndBelow(a.folder.trim());
  if (a.model?.trim()) f.model = a.model.trim();
  return Object.keys(f).length > 0 ? f : undefined;
}

export function listCall(a: ListArgs): Call {
  const f = listFilters(a);
  return {
    shape: 'list',
    limit: listLimit(a.limit),
    ...(a.include_hidden ? { all: true } : {}),
    ...(a.cursor !== undefined ? { cursor: a.cursor.trim() } : {}),
    ...(f ? { filters: f } : {}),
  };
}

export function messagesRange(a: MessagesArgs): MessageRange {
  if (a.from_index !== undefined && a.to_index !== undefined && a.from_index > a.to_index)
    throw new ToolError('from_index must not be after to_index');
  return {
    ...(a.from_index !== undefined ? { fromIndex: a.from_index } : {}),
    ...(a.to_index !== undefined ? { toIndex: a.to_index } : {}),
    ...(a.from_message_id !== undefined ? { fromId: String(a.from_message_id) } : {}),
    ...(a.to_message_id !== undefined ? { toId: String(a.to_message_id) } : {}),
    ...(a.roles ? { roles: [...new Set(a.roles)] } : {}),
    limit: messagesLimit(a.limit),
    maxChars: maxChars(a.max_chars),
    ...(a.cursor !== undefined ? { cursor: a.cursor.trim() } : {}),
  };
}

export const listTool = {
  name: 'list_sessions',
  title: 'List past conversations',
  description: `List past AI-agent conversations, most recently active first, a page at a time, with filters session_search does not have: folder, model, platform (source), dates, and whose history (agent, profile, host). Read-only, no LLM calls.

Use it to answer "what did I work on in ~/src/billing last week?", "which conversations used gpt-5?", or to walk every conversation of a period. Each result has session_id, title, when it started and was last active, message_count and a preview of its first prompt; other agents' results name their agent. Pass a result's session_id to session_overview for its facts, or to session_messages / session_search to read it.

Paging: when more conversations match, the answer has next_cursor; call again with the same filters and cursor=next_cursor. A cursor used with other filters is refused.

A filter a history cannot apply (e.g. folder on a Hermes store that records no working folder) leaves that history out and says so in one line in "refused"; a history that could not be read is named in "skipped".`,
  args: listArgs,
  call: (a: ListArgs, from: Sources) => onScope(a, from, () => listCall(a)),
};

export const overviewTool = {
  name: 'session_overview',
  title: 'One conversation at a glance',
  description: `The facts of one past conversation, without its messages: title, working folder, model, platform, when it started, ended and was last active, how many messages of each role it has, its first prompt, its lineage (the parent it continues or branched from, and its children: continuations, branches, delegated subagents), the command that resumes it in its own agent (resume.command; run it in resume.cwd when given) and the session_search call that reads it (read_with).

Use it before reading a long conversation (message_count says how long; session_messages reads it by range), to follow a compressed conversation to its continuation, or to tell the user how to pick it up again. Pass session_id from session_search or list_sessions, or a pasted anchor.`,
  args: overviewArgs,
  call: (a: OverviewArgs, from: Sources) =>
    onScope(a, from, (s) => ({
      shape: 'overview',
      target: target(a.session_id, a.agent, s.profile),
    })),
};

export const messagesTool = {
  name: 'session_messages',
  title: "Read a conversation's messages by range",
  description: `The messages of one past conversation, in order, by range and a page at a time: the whole text of each message (session_search's scroll and read cut long messages and long conversations; this does not).

Range: from_index/to_index by position (0 is the first message; session_overview gives message_count), or from_message_id/to_message_id by id (a match_message_id from session_search, any id from an answer); both inclusive, both optional (the whole conversation). roles keeps only some roles, e.g. ["user"] for every prompt the user wrote.

Paging: a page holds at most limit messages and max_chars characters of text. When the range goes on, the answer has next_cursor: call again with the same arguments and cursor=next_cursor. A message longer than what is left of a page is cut (content_truncated) and continued on the next page from content_offset. Each message has its position (index) and id.`,
  args: messagesArgs,
  call: (a: MessagesArgs, from: Sources) =>
    onScope(a, from, (s) => ({
      shape: 'messages',
      target: target(a.session_id, a.agent, s.profile),
      range: messagesRange(a),
    })),
};

export function parseList(raw: unknown) {
  return parseWith(listArgs, raw);
}
export function parseOverview(raw: unknown) {
  return parseWith(overviewArgs, raw);
}
export function parseMessages(raw: unknown) {
  return parseWith(messagesArgs, raw);
}
