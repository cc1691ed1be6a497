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
import {
  DESCRIPTION,
  inputJsonSchema,
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
  run: (args: A, from: Sources) => Record<string, Json>;
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
  run: sessionSearch,
};

/** A tool with its argument type erased: parse and run joined. */
export interface AnyTool extends Omit<ToolDef, 'parse' | 'run'> {
  /** The answer, or the one-line reason the arguments are wrong; store errors are thrown. */
  call: (
    raw: unknown,
    from: Sources,
  ) => { ok: true; payload: Record<string, Json> } | { ok: false; error: string };
}

export function defineTool<A>(def: ToolDef<A>): AnyTool {
  const { parse, run, ...shown } = def;
  return {
    ...shown,
    call: (raw, from) => {
      const parsed = parse(raw);
      return parsed.ok ? { ok: true, payload: run(parsed.args, from) } : parsed;
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
export const TOOLS: readonly AnyTool[] = [defineTool(sessionSearchTool), defineTool(statsTool)];

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((t) => t.name === name);
}
