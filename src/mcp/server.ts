/**
 * `lookback mcp`: lookback's recall as a Model Context Protocol server on
 * stdio, so any MCP-capable agent can resolve the anchors lookback copies.
 * Long-lived: the agent starts it once, and each call then costs what the
 * store query costs. Loaded lazily by the CLI; nothing else imports the SDK.
 *
 * The SDK's low-level `Server` is used rather than `McpServer.registerTool`
 * because the latter answers a bad call with the validator's multi-line
 * message; here every bad call gets one line that names what to change.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import pkg from '../../package.json' with { type: 'json' };
import type { Flags } from '../cli/flags.js';
import { inertJson } from '../cli/json.js';
import { UsageError } from '../cli/usage.js';
import { StoreError } from '../store/errors.js';
import { PROFILE_NAME } from '../store/profiles.js';
import { chooseStoreOnDisk } from '../cli/storeChoice.js';
import type { Json } from '../store/recall.js';
import { sanitizeLine } from '../text/sanitize.js';
import { AgentIndex } from './agents.js';
import { sessionSearch, ToolError, type Sources } from './call.js';
import { checkHostName, hostEnv } from '../hosts/paths.js';
import { readState } from '../hosts/sync.js';
import { StoreRegistry, type Locate } from './stores.js';
import { DESCRIPTION, inputJsonSchema, parseToolArgs, TOOL_NAME } from './tool.js';

const INSTRUCTIONS =
  'lookback recalls past AI-agent sessions from the local Hermes session store. Use session_search to find, scroll and read them; when the user pastes an anchor copied from lookback (a session_search(...) call or an @session:<profile>/<id> link), call session_search with it.';

/** The answer as the CLI prints it (text) and as an object (structured content). */
function ok(payload: Record<string, Json>): CallToolResult {
  return { content: [{ type: 'text', text: inertJson(payload) }], structuredContent: payload };
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

/** Runs one tool call; never throws (a store or argument problem is an error result). */
export function callTool(name: string, raw: unknown, from: Sources): CallToolResult {
  if (name !== TOOL_NAME) return fail(`unknown tool "${name}" (this server has ${TOOL_NAME})`);
  const parsed = parseToolArgs(raw);
  if (!parsed.ok) return fail(parsed.error);
  try {
    return ok(sessionSearch(parsed.args, from));
  } catch (err) {
    if (err instanceof StoreError || err instanceof ToolError || err instanceof UsageError)
      return fail(err.message);
    return fail(`unexpected error: ${(err as Error)?.message ?? String(err)}`);
  }
}

export function createServer(from: Sources): Server {
  const server = new Server(
    { name: 'lookback', version: pkg.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const tool = {
    name: TOOL_NAME,
    title: 'Recall past agent sessions',
    description: DESCRIPTION,
    inputSchema: inputJsonSchema(),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(request.params.name, request.params.arguments, from),
  );
  return server;
}

/** Serves until the client closes stdin (or a signal); resolves with the exit code. */
export async function serveStdio(from: Sources): Promise<number> {
  const server = createServer(from);
  const transport = new StdioServerTransport();
  return new Promise<number>((resolve) => {
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      from.stores.closeAll();
      from.agents.close();
      from.closeHosts?.();
      void server.close().catch(() => {});
      // Let the process exit even when a signal, not the end of stdin, ended the session.
      process.stdin.destroy();
      resolve(code);
    };
    server.onclose = () => finish(0);
    // Calls are answered synchronously, but the SDK sends each answer from a promise
    // callback: let those run before closing, so the last requests still get replies.
    process.stdin.once('end', () => setImmediate(() => finish(0)));
    // A client that went away leaves stdout a broken pipe: stop quietly, no stack trace.
    process.stdout.on('error', () => finish(0));
    process.once('SIGTERM', () => finish(0));
    process.once('SIGINT', () => finish(0));
    server.connect(transport).catch((err: unknown) => {
      process.stderr.write(
        `lookback: mcp: ${sanitizeLine((err as Error)?.message ?? String(err))}\n`,
      );
      finish(1);
    });
  });
}

/** `lookback mcp [--db PATH | --profile NAME | --demo]`: the store named is the one calls read by default. */
export async function runMcp(flags: Flags): Promise<number> {
  if (flags.db && flags.profile) throw new UsageError('use either --db or --profile, not both');
  let demo: { path: string; profile: string } | null = null;
  if (flags.demo) {
    // Generated once into the cache directory; the generator loads only for --demo.
    const { ensureDemoStore } = await import('../cli/demoStore.js');
    demo = { path: ensureDemoStore().path, profile: 'demo' };
  }
  // The CLI's own store choice, made on every call: a store missing at start is an
  // error on each call (in the CLI's words) until it appears, not a server that
  // fails to start.
  const own = () => demo ?? chooseStoreOnDisk(flags);
  let ownProfile = flags.profile ?? (demo ? 'demo' : undefined);
  const locate: Locate = (profile) => {
    if (profile === undefined || profile === ownProfile) {
      const where = own();
      ownProfile = where.profile;
      return where;
    }
    if (!PROFILE_NAME.test(profile))
      throw new ToolError(
        `profile "${profile}" is not a profile name (lower-case letters, digits, - and _)`,
      );
    return chooseStoreOnDisk({ profile });
  };
  const warn = (w: string) => process.stderr.write(`lookback: warning: ${sanitizeLine(w)}\n`);
  // Other machines (src/hosts): each host's mirror read as that machine, opened on first use.
  const hosts = new Map<string, Sources>();
  const host = (name: string): Sources => {
    let h = hosts.get(name);
    if (h) return h;
    let checked: string;
    try {
      checked = checkHostName(name);
    } catch (err) {
      throw new ToolError((err as Error).message.replace('--host', 'host'));
    }
    if (!readState(checked))
      throw new ToolError(
        `host ${checked} has not been synced: run lookback sync --host ${checked} first`,
      );
    const env = hostEnv(checked);
    const hLocate: Locate = (profile) => {
      if (profile !== undefined && !PROFILE_NAME.test(profile))
        throw new ToolError(
          `profile "${profile}" is not a profile name (lower-case letters, digits, - and _)`,
        );
      return chooseStoreOnDisk(profile ? { profile } : {}, { env, home: env.HOME! });
    };
    h = { stores: new StoreRegistry(hLocate, undefined, warn), agents: new AgentIndex(warn, env) };
    hosts.set(name, h);
    return h;
  };
  return serveStdio({
    stores: new StoreRegistry(locate, undefined, warn),
    agents: new AgentIndex(warn),
    host,
    closeHosts: () => {
      for (const h of hosts.values()) {
        h.stores.closeAll();
        h.agents.close();
      }
      hosts.clear();
    },
    narrowed: Boolean(flags.db || flags.profile || flags.demo),
  });
}
