/**
 * The parts of the command line loaded only when asked for: the MCP server and
 * the other agents' commands (the app: lazyApp.ts, apart so that the library's
 * types never reach the views; the demo store's generator is small enough to
 * stay a plain import() in src/recall/storeChoice.ts). In the CommonJS
 * build of the command line (dist/cli.cjs, for V8's code cache) both files are
 * replaced by the functions src/bin.ts hands over on LAZY_KEY, so that these
 * stay ES modules loaded with import(): a script compiled with a code cache
 * cannot import() on Node 20 without an experimental option.
 */
export { LAZY_KEY } from './lazyKey.js';

export const lazy = {
  mcp: () => import('../mcp/server.js'),
  agents: () => import('./agents.js'),
  hosts: () => import('./hosts.js'),
  stats: () => import('../stats/cli.js'),
  semantic: () => import('../semantic/doors.js'),
};
