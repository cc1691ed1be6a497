/**
 * Every tool `lookback mcp` serves, in the order a client lists them (fixed,
 * so a model's prompt cache and a client's tool hash stay stable across
 * starts). Each entry is what a client sees (name, title, description, input
 * and output JSON Schemas, annotations) and what answers it; the server
 * (server.ts) only dispatches on the name.
 */
import type { Json } from '../store/recall.js';
import type { Sources } from './call.js';
import { sessionSearch } from './call.js';
import { searchByMeaning } from './semantic.js';
import {
  listTool,
  messagesTool,
  overviewTool,
  parseList,
  parseMessages,
  parseOverview,
} from './recallTools.js';
import {
  DESCRIPTION,
  inputJsonSchema,
  jsonSchemaOf,
  parseToolArgs,
  TOOL_NAME,
  type SessionSearchArgs,
} from './tool.js';
import {
  STATS_DESCRIPTION,
  parseStatsArgs,
  runStatsTool,
  statsInputSchema,
  statsOutputSchema,
  type StatsArgs,
} from '../stats/tool.js';

export type JsonSchema = { type: 'object'; [key: string]: unknown };

export type Parse<A> = (raw: unknown) => { ok: true; args: A } | { ok: false; error: string };

export interface ToolDef<A = unknown> {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  parse: Parse<A>;
  /** Synchronous but for a search by meaning (mode semantic|hybrid), which awaits its model. */
  run: (args: A, from: Sources) => Record<string, Json> | Promise<Record<string, Json>>;
}

/** Every answer, success or not, carries `success`; an error adds a one-line `error`. */
export const ANSWER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean', description: 'false when the call could not be answered' },
    error: {
      type: 'string',
      description: 'one line saying what to change (when success is false)',
    },
  },
  required: ['success'],
  additionalProperties: true,
};

/** Describes one answer shape on top of the common `success`/`error` pair. */
export function answerSchema(properties: Record<string, unknown>): JsonSchema {
  return {
    ...ANSWER_SCHEMA,
    properties: { ...(ANSWER_SCHEMA.properties as object), ...properties },
  };
}

const sessionSearchTool: ToolDef<SessionSearchArgs> = {
  name: TOOL_NAME,
  title: 'Recall past agent sessions',
  description: DESCRIPTION,
  inputSchema: inputJsonSchema(),
  outputSchema: answerSchema({
    results: {
      type: 'array',
      description: 'discover and browse shapes: one entry per conversation',
    },
    messages: { type: 'array', description: 'scroll and read shapes: the messages, oldest first' },
  }),
  parse: parseToolArgs,
  // A search by meaning (mode semantic|hybrid) awaits its model; every other call is synchronous.
  run: (args, from) =>
    args.mode === 'semantic' || args.mode === 'hybrid'
      ? searchByMeaning(args, from)
      : sessionSearch(args, from),
};

/** Whose conversation an answer is about (every tool but session_search says it). */
const OWNER = {
  agent: { type: 'string', description: 'whose history: hermes or another agent' },
  profile: { type: 'string', description: 'the Hermes profile (Hermes conversations only)' },
  host: { type: 'string', description: 'the machine, when not this one' },
};

const listSessionsTool: ToolDef<Parameters<typeof listTool.call>[0]> = {
  name: listTool.name,
  title: listTool.title,
  description: listTool.description,
  inputSchema: jsonSchemaOf(listTool.args),
  outputSchema: answerSchema({
    mode: { const: 'list' },
    results: {
      type: 'array',
      description: 'one entry per conversation, most recently active first',
      items: {
        type: 'object',
        properties: {
          session_id: { type: 'string' },
          title: { type: ['string', 'null'] },
          started_at: { type: ['number', 'null'], description: 'epoch seconds' },
          last_active: { type: ['number', 'null'], description: 'epoch seconds' },
          message_count: { type: 'integer' },
          preview: { type: ['string', 'null'] },
          ...OWNER,
        },
        required: ['session_id'],
      },
    },
    count: { type: 'integer' },
    offset: { type: 'integer', description: 'rows before this page' },
    next_cursor: { type: 'string', description: 'pass as cursor for the next page' },
    refused: { type: 'array', items: { type: 'string' } },
    skipped: { type: 'array' },
  }),
  parse: parseList,
  run: listTool.call,
};

const sessionOverviewTool: ToolDef<Parameters<typeof overviewTool.call>[0]> = {
  name: overviewTool.name,
  title: overviewTool.title,
  description: overviewTool.description,
  inputSchema: jsonSchemaOf(overviewTool.args),
  outputSchema: answerSchema({
    mode: { const: 'overview' },
    session_id: { type: 'string' },
    ...OWNER,
    title: { type: ['string', 'null'] },
    folder: { type: ['string', 'null'], description: 'the working folder' },
    model: { type: ['string', 'null'] },
    started_at: { type: ['number', 'null'] },
    ended_at: { type: ['number', 'null'] },
    last_active: { type: ['number', 'null'] },
    message_count: { type: 'integer' },
    messages_by_role: { type: 'object', additionalProperties: { type: 'integer' } },
    first_prompt: { type: ['object', 'null'] },
    parent: { type: ['object', 'null'] },
    children: { type: 'array' },
    resume: {
      type: 'object',
      properties: {
        command: { type: ['string', 'null'] },
        argv: { type: 'array', items: { type: 'string' } },
        cwd: { type: 'string' },
        reason: { type: 'string' },
      },
    },
    read_with: { type: 'string', description: 'the session_search call that reads it' },
    link: { type: 'string' },
  }),
  parse: parseOverview,
  run: overviewTool.call,
};

const sessionMessagesTool: ToolDef<Parameters<typeof messagesTool.call>[0]> = {
  name: messagesTool.name,
  title: messagesTool.title,
  description: messagesTool.description,
  inputSchema: jsonSchemaOf(messagesTool.args),
  outputSchema: answerSchema({
    mode: { const: 'messages' },
    session_id: { type: 'string' },
    ...OWNER,
    total: { type: 'integer', description: 'messages in the conversation' },
    range: { type: ['object', 'null'] },
    count: { type: 'integer' },
    chars: { type: 'integer', description: 'characters of text on this page' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          id: { type: ['integer', 'string'] },
          role: { type: 'string' },
          timestamp: { type: ['number', 'null'] },
          content_offset: { type: 'integer' },
          content_truncated: { type: 'boolean' },
        },
        required: ['index', 'id', 'role'],
      },
    },
    next_cursor: { type: 'string' },
  }),
  parse: parseMessages,
  run: messagesTool.call,
};

export type ToolAnswer = { ok: true; payload: Record<string, Json> } | { ok: false; error: string };

/** A tool with its argument type erased: parse and run joined. */
export interface AnyTool extends Omit<ToolDef, 'parse' | 'run'> {
  /** The answer, or the one-line reason the arguments are wrong; store errors are thrown. */
  call: (raw: unknown, from: Sources) => ToolAnswer | Promise<ToolAnswer>;
}

export function defineTool<A>(def: ToolDef<A>): AnyTool {
  const { parse, run, ...shown } = def;
  return {
    ...shown,
    call: (raw, from) => {
      const parsed = parse(raw);
      if (!parsed.ok) return parsed;
      const payload = run(parsed.args, from);
      return payload instanceof Promise
        ? payload.then((p): ToolAnswer => ({ ok: true, payload: p }))
        : { ok: true, payload };
    },
  };
}

/** `stats` (src/stats/tool.ts): the JSON of `lookback stats --json` for the same arguments. */
const statsTool: ToolDef<StatsArgs> = {
  name: 'stats',
  title: 'Activity, tokens and cost of past agent sessions',
  description: STATS_DESCRIPTION,
  inputSchema: statsInputSchema,
  outputSchema: statsOutputSchema,
  parse: parseStatsArgs,
  // A server started on one store (--db, --profile, --demo) answers for it, as the command line does.
  run: (args, from) =>
    runStatsTool(
      args,
      from.narrowed
        ? from.stores.use(undefined, (s) => ({ path: s.path, profile: s.profile }))
        : undefined,
    ),
};

/** The tools, in listing order; new tools are appended, never reordered. */
export const TOOLS: readonly AnyTool[] = [
  defineTool(sessionSearchTool),
  defineTool(listSessionsTool),
  defineTool(sessionOverviewTool),
  defineTool(sessionMessagesTool),
  defineTool(statsTool),
];

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}
