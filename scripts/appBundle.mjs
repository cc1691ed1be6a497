import { readFile } from 'node:fs/promises';
import { patchInkSource } from './inkPatches.mjs';
import { replaceOnce } from './replaceOnce.mjs';

// The interactive app as one CommonJS file, dist/app.cjs, so that src/tui/start.ts
// can compile it with a V8 code cache (src/tui/codeCache.ts): Node 20 has none for
// ES modules, and parsing and compiling React, ink and the components was ~35 ms
// of the first frame (with the cache: 245 → 211 ms to the first frame, median of
// 20 runs each, a prototype of this loader on the bench's 160x48 start).
//
// CommonJS has no top-level await, which two dependencies use:
// - yoga-layout instantiates its WebAssembly at the top level. The ES side
//   (start.ts) loads it, as the CLI's bundle always did, and hands the instance
//   over on a global symbol that this shim reads.
// - ink's reconciler awaits React DevTools and its package.json at the top
//   level, only when DEV=true. Those two statements become no-ops: the bundle
//   never connected to DevTools (react-devtools-core is not installed) and
//   reads no package.json.

/** The global symbol start.ts hands Yoga over on. */
export const YOGA_KEY = 'lookback.yoga';

const YOGA_SHIM = `module.exports = globalThis[Symbol.for(${JSON.stringify(YOGA_KEY)})];`;

const RECONCILER = /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/;
const DEV_AWAITS = [
  { find: "await import('./devtools.js');", replace: 'void 0;' },
  { find: '? await loadPackageJson()', replace: '? { name: undefined, version: undefined }' },
];

/** ink's reconciler without its DEV-only top-level awaits (after the speed patches). Throws when ink changed. */
export function reconcilerForCommonJs(path, source) {
  let out = patchInkSource(path, source) ?? source;
  for (const { find, replace } of DEV_AWAITS) {
    const next = replaceOnce(out, find, replace);
    if (next === null)
      throw new Error(
        "ink's build/reconciler.js is not the one scripts/appBundle.mjs was written for: re-check its DEV awaits",
      );
    out = next;
  }
  return out;
}

const LAZY = /[\\/]src[\\/]cli[\\/]lazy\.ts$/;
const LAZY_APP = /[\\/]src[\\/]cli[\\/]lazyApp\.ts$/;

/**
 * esbuild plugin for dist/cli.cjs, the command line as CommonJS (loaded by
 * src/bin.ts through the code cache): src/cli/lazy.ts and lazyApp.ts become the functions
 * src/bin.ts hands over, so what it loads stays ES modules.
 */
export function cliBundlePlugin() {
  return {
    name: 'lookback-cli-commonjs',
    setup(build) {
      build.onLoad({ filter: LAZY }, () => ({
        contents:
          `export const LAZY_KEY = ${JSON.stringify(LAZY_KEY)};\n` +
          `export const lazy = globalThis[Symbol.for(LAZY_KEY)];`,
        loader: 'js',
      }));
      build.onLoad({ filter: LAZY_APP }, () => ({
        contents: `export const loadApp = globalThis[Symbol.for(${JSON.stringify(LAZY_KEY)})].app;`,
        loader: 'js',
      }));
    },
  };
}

/** The global symbol src/bin.ts hands src/cli/lazy.ts's functions over on. */
export const LAZY_KEY = 'lookback.lazy';

/** esbuild plugin: yoga-layout from the ES side, and ink's reconciler fit for CommonJS. */
export function appBundlePlugin() {
  return {
    name: 'lookback-app-commonjs',
    setup(build) {
      build.onResolve({ filter: /^yoga-layout$/ }, () => ({
        path: 'yoga-layout',
        namespace: 'lookback-yoga-shim',
      }));
      build.onLoad({ filter: /.*/, namespace: 'lookback-yoga-shim' }, () => ({
        contents: YOGA_SHIM,
        loader: 'js',
      }));
      build.onLoad({ filter: RECONCILER }, async ({ path }) => ({
        contents: reconcilerForCommonJs(path, await readFile(path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
