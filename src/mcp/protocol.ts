/**
 * The MCP server object both transports serve (stdio in server.ts, HTTP in
 * http.ts): tools/list and tools/call over the sources, every bad call one
 * line. Its own file so http.ts need not import server.ts, which loads http.ts
 * lazily (no circle).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/server';
import pkg from '../../package.json' with { type: 'json' };
import { inertJson } from '../cli/json.js';
import { UsageError } from '../recall/usage.js';
import { StoreError } from '../store/errors.js';
import type { Json } from '../store/recall.js';
import { ToolError, type Sources } from './call.js';
import { findTool, TOOLS, type AnyTool, type ToolAnswer } from './tools.js';
import { oneLine } from './wire.js';
import { stage } from './stages.js';
import { LIST_TTL_MS } from '../budgets.js';

const INSTRUCTIONS =
  "lookback recalls past AI-agent sessions (the Hermes agent's session store and other agents' histories), read-only. Use session_search to find, scroll and read them; when the user pastes an anchor copied from lookback (a session_search(...) call or an @session:... link), call session_search with it. list_sessions lists conversations by folder, model, platform and date, a page at a time; session_overview gives one conversation's facts (counts, first prompt, lineage, how to resume it); session_messages reads its messages whole, by range, a page at a time.";

/** The answer as the CLI prints it (text) and as an object (structured content). */
function ok(payload: Record<string, Json>): CallToolResult {
  stage('ran');
  const text = inertJson(payload);
  stage('text');
  return { content: [{ type: 'text', text }], structuredContent: payload };
}

/** The CLI's error shape, one line, flagged as a tool error so the model sees it failed. */
function fail(message: string): CallToolResult {
  const payload = { success: false, error: message.replace(/\s+/g, ' ').trim() };
  return {
    content: [{ type: 'text', text: inertJson(payload) }],
    structuredContent: payload,
    isError: true,
  };
}

/**
 * Runs one tool call. An unknown tool is a protocol error (-32602, as both
 * revisions say); bad arguments and store problems are tool errors the model
 * reads and corrects (2025-11-25 and 2026-07-28 both ask for that).
 */
export function callTool(
  name: string,
  raw: unknown,
  from: Sources,
): CallToolResult | Promise<CallToolResult> {
  const tool = findTool(name);
  if (!tool)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `unknown tool "${oneLine(name, 80)}" (this server has ${TOOLS.map((t) => t.name).join(', ')})`,
    );
  return runTool(tool, raw, from);
}

/** Every call is answered synchronously but a search by meaning, which awaits its model. */
function runTool(
  tool: AnyTool,
  raw: unknown,
  from: Sources,
): CallToolResult | Promise<CallToolResult> {
  try {
    stage('call');
    const answer = tool.call(raw, from);
    return answer instanceof Promise ? answer.then(settle, caught) : settle(answer);
  } catch (err) {
    return caught(err);
  }
}

function settle(answer: ToolAnswer): CallToolResult {
  return answer.ok ? ok(answer.payload) : fail(answer.error);
}

function caught(err: unknown): CallToolResult {
  // An embedder's failure (EmbedError) is one line the model can act on, as a store's is.
  if (
    err instanceof StoreError ||
    err instanceof ToolError ||
    err instanceof UsageError ||
    (err as Error)?.name === 'EmbedError'
  )
    return fail((err as Error).message);
  return fail(`unexpected error: ${(err as Error)?.message ?? String(err)}`);
}

function listing(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
}

/** One server instance; the SDK builds one per stdio connection, or per HTTP request. */
export function createServer(from: Sources): Server {
  const server = new Server(
    { name: 'lookback', version: pkg.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      cacheHints: {
        'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
        'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
      },
    },
  );
  const tools = TOOLS.map(listing);
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) => {
    // Not server.projectCallToolResult(): for an object structuredContent beside its
    // text (every answer here) it is the identity on both eras, and it cost ~20 ms a
    // call (schema work per call; measured with npm run bench, mcp section).
    return callTool(request.params.name, request.params.arguments, from);
  });
  return server;
}
