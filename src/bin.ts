#!/usr/bin/env node
/**
 * The `lookback` executable. Loads the command line, dist/cli.cjs, through V8's
 * code cache (src/tui/codeCache.ts; Node 20 has none for ES modules), one cache
 * per kind of run, since a cache holds only the functions its run compiled; or
 * src/cli.ts as a module when there is no bundle. The parts loaded on demand
 * (src/cli/lazy.ts, lazyApp.ts) stay ES modules, imported from here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LAZY_KEY, lazy } from './cli/lazy.js';
import { runKind } from './cli/subcommands.js';
import { loadApp } from './cli/lazyApp.js';
import { codeCacheFile, requireWithCodeCache, type CachedModule } from './tui/codeCache.js';
import { restoreStartFlags } from './tui/memory.js';

/** dist/cli.cjs's content hash, defined by scripts/build.mjs (absent from source). */
declare const __LOOKBACK_CLI_HASH__: string | undefined;

type Cli = { main(): Promise<boolean> };

async function run(): Promise<void> {
  (globalThis as Record<symbol, unknown>)[Symbol.for(LAZY_KEY)] = { ...lazy, app: loadApp };
  const hash = typeof __LOOKBACK_CLI_HASH__ === 'string' ? __LOOKBACK_CLI_HASH__ : undefined;
  const file = fileURLToPath(new URL('./cli.cjs', import.meta.url));
  if (hash === undefined || !existsSync(file)) {
    await ((await import('./cli.js')) as Cli).main();
    return;
  }
  const gcAtStart = typeof (globalThis as { gc?: unknown }).gc === 'function';
  const cache = codeCacheFile(`cli-${runKind(process.argv.slice(2))}`, hash);
  const cli: CachedModule<Cli> = requireWithCodeCache<Cli>(file, cache);
  const ok = await cli.exports.main();
  if (!ok || cli.cache !== 'none') return;
  // At exit: every function the run compiled is in, under the flags the next start has.
  process.once('exit', () => {
    restoreStartFlags(gcAtStart);
    cli.save();
  });
}

void run();
