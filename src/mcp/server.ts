/**
 * `lookback mcp`: lookback's recall as a Model Context Protocol server, on
 * stdio (the agent starts it) or Streamable HTTP (`--http`, see http.ts), so
 * any MCP-capable agent can resolve the anchors lookback copies.
 * Long-lived: each call then costs what the store query costs. Loaded lazily
 * by the CLI; nothing else imports the SDK.
 *
 * Both protocol eras are served by the SDK's v2 entry points from one
 * factory: 2025 clients (`initialize` handshake, 2024-10-07 … 2025-11-25) and
 * 2026-07-28 clients (no handshake, `_meta` envelope per request,
 * `server/discover`, `resultType`, cache hints on list results). The SDK owns
 * the era differences; the tools and their answers are the same in both.
 *
 * The SDK's low-level `Server` is used rather than `McpServer.registerTool`
 * because the latter answers a bad call with the validator's multi-line
 * message; here every bad call gets one line that names what to change.
 */
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import type { Flags } from '../cli/flags.js';
import { UsageError } from '../recall/usage.js';
import { PROFILE_NAME } from '../store/profiles.js';
import { chooseStoreOnDisk } from '../recall/storeChoice.js';
import { sanitizeLine } from '../text/sanitize.js';
import { AgentIndex } from './agents.js';
import { ToolError, type Sources } from './call.js';
import { StoreRegistry, type Locate } from './stores.js';
import { createServer } from './protocol.js';
import { GuardedStdioTransport, oneLine } from './wire.js';
import { flushStages } from './stages.js';
import { STORE_CHOICE_TTL_MS } from '../budgets.js';
import { existsSync } from 'node:fs';

// The server object (tools/list, tools/call) lives in protocol.ts; callTool is its one call.
export { callTool, createServer } from './protocol.js';

/** Serves one client on stdin/stdout until it closes stdin (or a signal); resolves with the exit code. */
export function serveStdio(from: Sources): Promise<number> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      from.stores.closeAll();
      from.agents.close();
      flushStages();
      void handle.close().catch(() => {});
      // Let the process exit even when a signal, not the end of stdin, ended the session.
      process.stdin.destroy();
      resolve(code);
    };
    const handle = sdkServeStdio(() => createServer(from), {
      transport: new GuardedStdioTransport(process.stdin, process.stdout),
      // A line that is not JSON-RPC is answered (or dropped) by the SDK; the reason goes to stderr.
      onerror: (err) =>
        process.stderr.write(`lookback: mcp: ${oneLine(err?.message ?? String(err))}\n`),
    });
    // Calls are answered synchronously, but the SDK sends each answer from a promise
    // callback: let those run before closing, so the last requests still get replies.
    process.stdin.once('end', () => setImmediate(() => finish(0)));
    // A client that went away leaves stdout a broken pipe: stop quietly, no stack trace.
    process.stdout.on('error', () => finish(0));
    process.once('SIGTERM', () => finish(0));
    process.once('SIGINT', () => finish(0));
  });
}

/** `lookback mcp [--db PATH | --profile NAME | --demo] [--http [ADDR]]`: the store named is the one calls read by default. */
export async function runMcp(flags: Flags, httpAddress?: string): Promise<number> {
  if (flags.db && flags.profile) throw new UsageError('use either --db or --profile, not both');
  let demo: { path: string; profile: string } | null = null;
  if (flags.demo) {
    // Generated once into the cache directory; the generator loads only for --demo.
    const { ensureDemoStore } = await import('../recall/demoStore.js');
    demo = { path: ensureDemoStore().path, profile: 'demo' };
  }
  // The CLI's own store choice, made again by the calls: a store missing at start is
  // an error on each call (in the CLI's words) until it appears, not a server that
  // fails to start. A choice is kept for STORE_CHOICE_TTL_MS (it reads config files,
  // and a call asks twice); a failed choice is never kept.
  let chosen: { at: number; where: ReturnType<typeof chooseStoreOnDisk> } | null = null;
  const own = () => {
    if (demo) return demo;
    const now = Date.now();
    // A store that went away is chosen again at once (its error in the CLI's words).
    const fresh = chosen && now - chosen.at >= 0 && now - chosen.at < STORE_CHOICE_TTL_MS;
    if (chosen && fresh && existsSync(chosen.where.path)) return chosen.where;
    chosen = { at: now, where: chooseStoreOnDisk(flags) };
    return chosen.where;
  };
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
  // The model for mode="semantic"|"hybrid", checked when a call uses it (a bad spec is that call's error).
  const embedder = (flags.embedder ?? process.env.LOOKBACK_EMBEDDER)?.trim();
  const from: Sources = {
    stores: new StoreRegistry(locate, undefined, warn),
    agents: new AgentIndex(warn),
    warn,
    narrowed: Boolean(flags.db || flags.profile || flags.demo),
    ...(embedder ? { embedder } : {}),
  };
  if (flags.http) {
    const { serveHttp } = await import('./http.js');
    return serveHttp(from, httpAddress, warn);
  }
  return serveStdio(from);
}
