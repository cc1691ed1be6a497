#!/usr/bin/env node
/**
 * The `lookback` executable, built as CommonJS (dist/lookback.cjs): Node then
 * starts it without its ES module loader (a module job per chunk, and a facade
 * of every export of each `node:` module imported), which is what a short
 * `lookback search --json` spent most of its first ~10 ms on. It loads the
 * command line, dist/cli.cjs, through V8's code cache (src/tui/codeCache.ts;
 * Node 20 has none for ES modules), one cache per kind of run, since a cache
 * holds only the functions its run compiled. The parts loaded on demand
 * (src/cli/lazy.ts, lazyApp.ts) stay ES modules (dist/lazy.js, dist/lazy-app.js),
 * imported from here; this file's import() is Node's own, not a code-cached
 * script's, so it works on Node 20.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LAZY_KEY } from './cli/lazyKey.js';
import { runKind } from './cli/subcommands.js';
import { codeCacheFile, requireWithCodeCache, type CachedModule } from './tui/codeCache.js';
import { restoreStartFlags } from './tui/memory.js';
import { startMark, writeStartMarks } from './cli/startMarks.js';

/** dist/cli.cjs's content hash, defined by scripts/build.mjs (absent from source). */
declare const __LOOKBACK_CLI_HASH__: string | undefined;

type Cli = { main(): Promise<boolean> };
type Lazy = typeof import('./cli/lazy.js');

async function run(): Promise<void> {
  startMark('bin: started');
  // scripts/build.mjs keeps these two import()s as they are: ./lazy.js and ./lazy-app.js beside this file.
  const parts = (): Promise<Lazy> => import('./cli/lazy.js');
  (globalThis as Record<symbol, unknown>)[Symbol.for(LAZY_KEY)] = {
    mcp: async () => (await parts()).lazy.mcp(),
    agents: async () => (await parts()).lazy.agents(),
    hosts: async () => (await parts()).lazy.hosts(),
    stats: async () => (await parts()).lazy.stats(),
    semantic: async () => (await parts()).lazy.semantic(),
    app: async () => (await import('./cli/lazyApp.js')).loadApp(),
  } satisfies Lazy['lazy'] & { app: unknown };
  const hash = typeof __LOOKBACK_CLI_HASH__ === 'string' ? __LOOKBACK_CLI_HASH__ : undefined;
  const file = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  if (hash === undefined || !existsSync(file))
    throw new Error(`lookback: ${file} is missing: run npm run build`);
  const gcAtStart = typeof (globalThis as { gc?: unknown }).gc === 'function';
  const cache = codeCacheFile(`cli-${runKind(process.argv.slice(2))}`, hash);
  const cli: CachedModule<Cli> = requireWithCodeCache<Cli>(file, cache);
  startMark(`cli.cjs loaded (code cache: ${cli.cache})`);
  const ok = await cli.exports.main();
  startMark('cli: answered');
  // A command's steps at exit (the app wrote its own at the first frame).
  process.once('exit', writeStartMarks);
  if (!ok || cli.cache !== 'none') return;
  // At exit: every function the run compiled is in, under the flags the next start has.
  process.once('exit', () => {
    restoreStartFlags(gcAtStart);
    cli.save();
  });
}

void run();
