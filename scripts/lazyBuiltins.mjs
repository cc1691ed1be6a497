// esbuild plugin for the CommonJS bundles that start every run (dist/lookback.cjs,
// dist/cli.cjs): Node's built-in modules that only some commands use are required
// on first use instead of at start. A `node:` module outside Node's start-up
// snapshot is compiled when first required: child_process, crypto,
// worker_threads and v8 (with the modules they pull in: net, stream,
// heap_utils…) were ~8–13 ms of CPU of every `lookback search --json`, which uses
// none of them (meow, the PostgreSQL profile, the demo store and the code-cache
// flags do).
//
// Each becomes a CommonJS module of getters over the real one, its export names
// read from this Node at build time: esbuild's interop (__toESM/__copyProps)
// copies getters as getters, and a named import is read where it is used, so
// the real module loads at the first call.
import { createRequire } from 'node:module';

/** The built-in modules loaded on first use in the start-up bundles. */
export const LAZY_BUILTINS = ['child_process', 'crypto', 'worker_threads', 'v8', 'https', 'tls'];

const FILTER = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
const NAMESPACE = 'lookback-lazy-builtin';

/** The module's source: one getter per export name of the real module. */
export function lazyBuiltinSource(name, names) {
  const id = JSON.stringify(`node:${name}`);
  return [
    'let real;',
    `const load = () => (real ??= require(${id}));`,
    `for (const key of ${JSON.stringify(names)})`,
    '  Object.defineProperty(exports, key, { enumerable: true, get: () => load()[key] });',
    '',
  ].join('\n');
}

export function lazyBuiltinsPlugin() {
  const nodeRequire = createRequire(import.meta.url);
  return {
    name: 'lookback-lazy-builtins',
    setup(build) {
      build.onResolve({ filter: FILTER }, ({ path, namespace }) =>
        // The getters' own require() is of the real module.
        namespace === NAMESPACE
          ? { path, external: true }
          : { path: path.replace(/^node:/, ''), namespace: NAMESPACE },
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path }) => {
        const names = Object.keys(nodeRequire(`node:${path}`)).filter((k) => k !== 'default');
        return { contents: lazyBuiltinSource(path, names), loader: 'js' };
      });
    },
  };
}
