// Turns drafts (relative clock, object links) into session and message rows
// (absolute epoch seconds, ids, counters, per-layout metadata).

import { createHash } from 'node:crypto';
import { PEOPLE } from './corpus.js';
import type { DraftMessage, DraftSession } from './conversation.js';
import { pyDumps } from './pyjson.js';
import type { Rng } from './rng.js';
import type { Layout } from './schema.js';
import type { MessageInput, SessionInput } from './store.js';

export interface SessionMeta {
  id: string;
  title: string | null;
  titleSource: string | null;
  archived: boolean;
  pinned: boolean;
  hidden?: boolean;
  cwd: string | null;
  /** Absolute start of the conversation the draft belongs to. */
  base: number;
}

export interface PromptRef {
  hash: string;
  prompt: string;
}

const PRICES: readonly (readonly [string, number, number])[] = [
  ['anthropic/claude-opus', 15, 75],
  ['anthropic/', 3, 15],
  ['openai/gpt-5-mini', 0.25, 2],
  ['openai/', 1.25, 10],
  ['google/gemini-2.5-flash', 0.3, 2.5],
  ['google/', 1.25, 10],
  ['nous/', 1, 3],
  ['deepseek/', 0.27, 1.1],
  ['qwen/', 0.3, 1.2],
];

const BASE_URLS: Readonly<Record<string, string>> = {
  openrouter: 'https://openrouter.ai/api/v1',
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  nous: 'https://inference-api.nousresearch.com/v1',
};

const PROMPT_BASE = `You are Hermes Agent, an intelligent AI assistant created by Nous Research. You are helpful, knowledgeable, and direct. You assist users with a wide range of tasks including answering questions, writing and editing code, analyzing information, creative work, and executing actions via your tools. You communicate clearly, admit uncertainty when appropriate, and prioritize being genuinely useful over being verbose unless otherwise directed below.

# Tool use
- Prefer reading files before editing them; never guess file contents.
- Run tests after changing code and report the result honestly.
- Ask before destructive operations (rm -rf, force pushes, dropping tables).
- Use delegate_task for independent, context-heavy subtasks.

# Memory
You have persistent memory across sessions. Save durable facts about the user and their projects; do not save transient task details.
`;

const PLATFORM_HINTS: Readonly<Record<string, string>> = {
  cli: 'You are running in an interactive terminal (CLI). Markdown renders; keep lines under 100 columns.',
  tui: 'You are running in the full-screen terminal UI. Markdown renders with syntax highlighting.',
  telegram:
    'You are chatting over Telegram. Keep replies short; long code goes in files, not messages.',
  discord:
    'You are chatting in Discord. Messages over 2000 characters are split; prefer concise answers.',
  cron: 'You are running a scheduled job with no user present. Finish the task and write a concise report.',
  subagent:
    'You are a subagent working on a delegated task. Return a concise summary of what you found or changed.',
  tool: 'You are called by a tool. Answer with exactly what was asked and nothing else.',
};

const MEMORY_BLOCKS: readonly string[] = [
  '## Memory\n- User prefers small, reviewable PRs.\n- Production deploys happen Tuesdays and Thursdays.',
  '## Memory\n- User works mostly in TypeScript and Go.\n- CI runs on GitHub Actions; staging is staging.example.com.',
  '## Memory\n- User is in the Europe/Berlin timezone.\n- Never push directly to main.',
  '## Memory\n(empty)',
];

/** The (few) distinct system prompts a store holds: base text, platform hint, memory snapshot. */
export function systemPromptFor(source: string, rng: Rng): PromptRef {
  const prompt = `${PROMPT_BASE}\n# Platform\n${PLATFORM_HINTS[source] ?? PLATFORM_HINTS.cli}\n\n${rng.pick(MEMORY_BLOCKS)}\n`;
  return { prompt, hash: createHash('sha256').update(prompt).digest('hex') };
}

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

interface Usage {
  input: number;
  output: number;
  reasoning: number;
  assistantTurns: number;
  toolRows: number;
}

function usageOf(messages: readonly DraftMessage[], promptChars: number): Usage {
  let ctx = promptChars;
  const u: Usage = { input: 0, output: 0, reasoning: 0, assistantTurns: 0, toolRows: 0 };
  for (const m of messages) {
    const len = (m.content?.length ?? 0) + (m.toolCalls?.length ?? 0);
    if (m.role === 'assistant') {
      u.assistantTurns++;
      u.input += Math.min(200_000, Math.ceil(ctx / 4));
      u.output += Math.ceil(len / 4);
      u.reasoning += Math.ceil((m.reasoning?.length ?? 0) / 4);
    }
    if (m.role === 'tool') u.toolRows++;
    ctx += len;
  }
  return u;
}

function billing(model: string, usage: Usage, rng: Rng): SessionInput {
  const vendor = model.split('/')[0] ?? 'openrouter';
  const provider = rng.chance(0.7) || !BASE_URLS[vendor] ? 'openrouter' : vendor;
  const price = PRICES.find(([prefix]) => model.startsWith(prefix)) ?? ['', 1, 4];
  const estimated = round6((usage.input * price[1] + usage.output * price[2]) / 1e6);
  if (rng.chance(0.1)) {
    return {
      billing_provider: provider,
      billing_base_url: BASE_URLS[provider] ?? null,
      cost_status: 'unknown',
    };
  }
  const actual =
    provider === 'openrouter' && rng.chance(0.5) ? round6(estimated * rng.float(0.95, 1.05)) : null;
  return {
    billing_provider: provider,
    billing_base_url: BASE_URLS[provider] ?? null,
    estimated_cost_usd: estimated,
    actual_cost_usd: actual,
    cost_status: actual === null ? 'estimated' : 'actual',
    cost_source: actual === null ? 'pricing_table' : 'provider',
    pricing_version: '2026-09-01',
  };
}

function lineageMarker(draft: DraftSession, parentId: string | null, rng: Rng): string | null {
  if (parentId !== null) {
    if (draft.kind === 'branch') return pyDumps({ _branched_from: parentId });
    if (draft.kind === 'delegate') return pyDumps({ _delegate_from: parentId });
    if (draft.kind === 'reset') return pyDumps({ _reset_from: parentId });
  }
  return rng.chance(0.08) ? pyDumps({ reasoning_effort: 'medium', max_tokens: 16384 }) : null;
}

function gatewayIdentity(source: string, rng: Rng): SessionInput {
  if (source !== 'telegram' && source !== 'discord') return {};
  const userId =
    source === 'telegram'
      ? String(rng.int(100000000, 7999999999))
      : `${rng.int(100000000, 999999999)}${rng.int(100000000, 999999999)}`;
  const chatType = rng.chance(0.8) ? 'dm' : 'group';
  const chatId =
    chatType === 'dm'
      ? userId
      : source === 'telegram'
        ? `-100${rng.int(1000000000, 1999999999)}`
        : `${rng.int(100000000, 999999999)}${rng.int(100000000, 999999999)}`;
  const name = rng.pick(PEOPLE);
  return {
    user_id: userId,
    chat_id: chatId,
    chat_type: chatType,
    display_name: name,
    session_key: `agent:main:${source}:${chatType}:${chatId}`,
    origin_json: pyDumps({
      platform: source,
      chat_id: chatId,
      chat_type: chatType,
      user_id: userId,
      user_name: name,
    }),
  };
}

export interface SessionRowContext {
  layout: Layout;
  now: number;
  rng: Rng;
  parentId: string | null;
  prompt: PromptRef;
}

export function sessionRow(
  draft: DraftSession,
  meta: SessionMeta,
  ctx: SessionRowContext,
): SessionInput {
  const { layout, now, rng, parentId, prompt } = ctx;
  const usage = usageOf(draft.messages, prompt.prompt.length);
  const startedAt = round6(meta.base + draft.start);
  const endedAt = draft.end === null ? null : round6(meta.base + draft.end);
  const last = draft.messages[draft.messages.length - 1];
  const lastTs = last ? meta.base + last.t - last.skew : startedAt;
  const cacheable = draft.model.startsWith('anthropic/') || draft.model.startsWith('openai/');
  const row: SessionInput = {
    id: meta.id,
    source: draft.source,
    model: draft.model,
    model_config: lineageMarker(draft, parentId, rng),
    parent_session_id: parentId,
    started_at: startedAt,
    ended_at: endedAt,
    end_reason: draft.endReason,
    message_count: draft.messages.length,
    tool_call_count: usage.toolRows,
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_read_tokens: cacheable ? Math.floor(usage.input * 0.7) : 0,
    cache_write_tokens: draft.model.startsWith('anthropic/') ? Math.floor(usage.input * 0.05) : 0,
    reasoning_tokens: usage.reasoning,
    cwd: meta.cwd,
    title: meta.title,
    api_call_count: usage.assistantTurns,
    rewind_count: draft.rewinds,
    archived: meta.archived ? 1 : 0,
    ...gatewayIdentity(draft.source, rng),
    ...billing(draft.model, usage, rng),
  };
  // v25 moved prompts into a deduplicated table referenced by hash.
  if (layout >= 25) row.system_prompt_hash = prompt.hash;
  else row.system_prompt = prompt.prompt;
  if (layout === 30) {
    const heartbeat = lastTs + (rng.chance(0.85) ? rng.float(0, 5) : rng.float(30, 600));
    const lastRole = last?.role;
    Object.assign(row, {
      created_source: draft.source,
      git_branch: meta.cwd?.startsWith('/home/dev/projects/')
        ? rng.chance(0.7)
          ? draft.topic.branch
          : 'main'
        : null,
      git_repo_root: meta.cwd?.startsWith('/home/dev/projects/')
        ? `/home/dev/projects/${draft.topic.project}`
        : null,
      title_source: meta.titleSource,
      last_activity_at: round6(Math.min(now, endedAt ?? now, Math.max(heartbeat, lastTs))),
      last_activity_description:
        lastRole === 'tool'
          ? `running tool: ${last?.toolName ?? 'terminal'}`
          : 'assistant response',
      last_activity_provenance: 'heartbeat',
      profile_name: 'default',
      pinned: meta.pinned ? 1 : 0,
      hidden: meta.hidden ? 1 : 0,
      last_read_at:
        endedAt !== null && rng.chance(0.5)
          ? round6(Math.min(now, endedAt + rng.float(10, 86400)))
          : null,
      tool_names: draft.toolNames.size > 0 ? pyDumps([...draft.toolNames].sort()) : null,
    } satisfies SessionInput);
  }
  return row;
}

export function messageRow(
  m: DraftMessage,
  sessionId: string,
  base: number,
  order: number | null,
): MessageInput {
  const content = m.content;
  return {
    session_id: sessionId,
    role: m.role,
    content,
    tool_call_id: m.toolCallId ?? null,
    tool_calls: m.toolCalls ?? null,
    tool_name: m.toolName ?? null,
    timestamp: round6(base + m.t - m.skew),
    token_count:
      m.role === 'assistant'
        ? Math.ceil(((content?.length ?? 0) + (m.toolCalls?.length ?? 0)) / 4)
        : null,
    finish_reason: m.finishReason ?? null,
    reasoning: m.reasoning ?? null,
    reasoning_content: m.reasoningContent ?? null,
    reasoning_details: m.reasoningDetails ?? null,
    platform_message_id: m.platformId ?? null,
    active: m.inactive ? 0 : 1,
    compacted: m.compacted ? 1 : 0,
    _compressed_summary: m.summary ? 1 : 0,
    display_kind: m.hidden ? 'hidden' : null,
    display_order: order,
  };
}
