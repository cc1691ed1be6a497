// Bundles the CLI, the app (loaded lazily), the query worker, the library and the benchmark.
// The command line and the app are also built alone as CommonJS (dist/cli.cjs,
// dist/app.cjs) for V8's code cache (scripts/appBundle.mjs); dist/lookback.js
// (src/bin.ts) loads them, knowing their content hashes.
// A bundle starts several hundred milliseconds faster than resolving ink's module
// graph at run time, which is most of the first-frame budget.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { appBundlePlugin, cliBundlePlugin } from './appBundle.mjs';
import { INK_PATCHES, inkPatchPlugin } from './inkPatches.mjs';
import { LAZY_BUILTINS, lazyBuiltinsPlugin } from './lazyBuiltins.mjs';
import { meowPatchPlugin } from './meowPatch.mjs';
import { sqliteBundlePlugin } from './sqliteBundle.mjs';
import { widthPatchPlugin } from './widthPatch.mjs';
import { yogaPatchPlugin } from './yogaPatch.mjs';

const entries = {
  // The parts src/bin.ts (dist/lookback.cjs) loads on demand, as ES modules.
  lazy: 'src/cli/lazy.ts',
  'lazy-app': 'src/cli/lazyApp.ts',
  'query-worker': 'src/app/worker/entry.ts',
  'embed-worker': 'src/app/worker/embedEntry.ts',
  'agents-worker': 'src/agents/worker.ts',
  'pg-worker': 'src/postgres/worker.ts',
  lib: 'src/lib.ts',
  bench: 'tests/bench/run.ts',
  'bench-recall': 'tests/bench/recall/run.ts',
};

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // Smaller bundles parse faster: the app's first frame is mostly module loading.
  minify: process.env.LOOKBACK_BUILD_MINIFY !== '0',
  // pg-native and pg-cloudflare: optional backends of pg that lookback never loads.
  external: ['better-sqlite3', 'react-devtools-core', 'pg-native', 'pg-cloudflare'],
  metafile: true,
  logLevel: 'warning',
};

/** One entry alone as CommonJS (dist/NAME.cjs), for V8's code cache; import.meta.url from __filename. */
const commonJs = (name, entry, plugins, external = common.external) =>
  build({
    ...common,
    external,
    entryPoints: { [name]: entry },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__lookbackUrl' },
    banner: { js: 'var __lookbackUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins,
  });
// appBundlePlugin first: its reconciler (speed patches + CommonJS) wins over inkPatchPlugin's.
// better-sqlite3's JavaScript bundled in the app and the command line (scripts/sqliteBundle.mjs);
// its addon stays in node_modules, loaded once per process whichever bundle asks first.
const withSqlite = common.external.filter((name) => name !== 'better-sqlite3');
const app = await commonJs(
  'app',
  'src/tui/run.tsx',
  // lazyBuiltinsPlugin: child_process, crypto, worker_threads, v8… load on first use, not before the first frame.
  [
    lazyBuiltinsPlugin(),
    appBundlePlugin(),
    inkPatchPlugin(),
    widthPatchPlugin(),
    sqliteBundlePlugin(),
  ],
  withSqlite,
);
const cli = await commonJs(
  'cli',
  'src/cli.ts',
  [
    lazyBuiltinsPlugin(),
    cliBundlePlugin(),
    meowPatchPlugin(),
    widthPatchPlugin(),
    sqliteBundlePlugin(),
  ],
  withSqlite,
);
const hashOf = (file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
const appHash = hashOf('dist/app.cjs');
const cliHash = hashOf('dist/cli.cjs');

// lookback's private name for NODE_EXTRA_CA_CERTS between the launcher and dist/lookback.cjs.
const DEFERRED_CA = 'LOOKBACK_DEFERRED_EXTRA_CA_CERTS';
// The executable (package.json "bin"): CommonJS, so that Node starts it without its ES
// module loader; its two import()s of the lazy parts stay import()s of the ES entries above.
const LAZY_ENTRIES = { './cli/lazy.js': './lazy.js', './cli/lazyApp.js': './lazy-app.js' };
const bin = await build({
  ...common,
  entryPoints: { lookback: 'src/bin.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  define: {
    'process.env.NODE_ENV': '"production"',
    'import.meta.url': '__lookbackUrl',
    __LOOKBACK_CLI_HASH__: JSON.stringify(cliHash),
  },
  banner: {
    // The first line: NODE_EXTRA_CA_CERTS back as the user set it, moved aside by the
    // launcher (dist/lookback, below) so that node started without reading it.
    js: `if (process.env.${DEFERRED_CA} !== undefined) { process.env.NODE_EXTRA_CA_CERTS = process.env.${DEFERRED_CA}; delete process.env.${DEFERRED_CA}; }
var __lookbackUrl = require("node:url").pathToFileURL(__filename).href;`,
  },
  plugins: [
    lazyBuiltinsPlugin(),
    {
      name: 'lookback-bin-lazy-entries',
      setup(b) {
        b.onResolve({ filter: /^\.\/cli\/lazy(App)?\.js$/ }, ({ path, kind }) => {
          if (kind !== 'dynamic-import')
            throw new Error(`src/bin.ts must import() ${path}, not import it`);
          return { path: LAZY_ENTRIES[path], external: true };
        });
      },
    },
  ],
});
// The import()s must have stayed import()s of the ES entries: bundled, they would load everything.
const binSource = readFileSync('dist/lookback.cjs', 'utf8');
for (const target of Object.values(LAZY_ENTRIES))
  if (!binSource.includes(`import(${JSON.stringify(target)})`))
    throw new Error(`dist/lookback.cjs does not import(${target}) any more`);

const result = await build({
  ...common,
  entryPoints: Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file))),
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
  define: {
    'process.env.NODE_ENV': '"production"',
    // src/tui/start.ts: the app bundle's identity, in its code cache's file name.
    __LOOKBACK_APP_HASH__: JSON.stringify(appHash),
  },
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in ESM.
    js: "import { createRequire as __lookbackCreateRequire } from 'node:module'; const require = __lookbackCreateRequire(import.meta.url);",
  },
  plugins: [inkPatchPlugin(), meowPatchPlugin(), widthPatchPlugin(), yogaPatchPlugin()],
});
// A patch whose file the bundle no longer includes would be skipped without a word.
const inputs = [
  ...Object.keys(result.metafile.inputs),
  ...Object.keys(app.metafile.inputs),
  ...Object.keys(cli.metafile.inputs),
  ...Object.keys(bin.metafile.inputs),
];
const appInputs = Object.keys(app.metafile.inputs);
for (const { file } of INK_PATCHES)
  if (!appInputs.some((i) => i.endsWith(`node_modules/ink/build/${file}`)))
    throw new Error(`scripts/inkPatches.mjs: ink's build/${file} is not in the bundle any more`);
if (!inputs.some((i) => /node_modules\/string-width\/index\.js$/.test(i)))
  throw new Error("scripts/widthPatch.mjs: string-width's index.js is not in the bundle any more");
if (
  !inputs.some((i) =>
    /node_modules\/yoga-layout\/dist\/binaries\/yoga-wasm-base64-esm\.js$/.test(i),
  )
)
  throw new Error("scripts/yogaPatch.mjs: yoga-layout's wasm loader is not in the bundle any more");
// Code compiled through the code cache cannot import() on Node 20 (src/tui/codeCache.ts):
// a dynamic import left in a CommonJS bundle would fail only when its path runs.
for (const file of ['dist/app.cjs', 'dist/cli.cjs'])
  if (/\bimport\(/.test(readFileSync(file, 'utf8')))
    throw new Error(`${file} holds an import(): load it through src/cli/lazy.ts instead`);
// scripts/lazyBuiltins.mjs: a top-level require() of one of these would load it at every start
// again. Checked by running the start (`lookback --version` loads both bundles) and asking Node;
// from a file, since `node -e` itself loads crypto.
const checkDir = mkdtempSync(join(tmpdir(), 'lookback-build-'));
const checkFile = join(checkDir, 'start-check.cjs');
writeFileSync(
  checkFile,
  `process.argv = [process.execPath, 'lookback', '--version'];
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((m) => /^NativeModule (${LAZY_BUILTINS.join('|')})$/.test(m));
  if (loaded.length > 0) { process.stderr.write(loaded.join(', ')); process.exitCode = 3; }
});
require(${JSON.stringify(resolve('dist/lookback.cjs'))});
`,
);
const started = spawnSync(process.execPath, [checkFile], {
  encoding: 'utf8',
  env: { ...process.env, LOOKBACK_CODE_CACHE: '0' },
});
rmSync(checkDir, { recursive: true, force: true });
if (started.status !== 0)
  throw new Error(
    `lookback --version loaded ${started.stderr.trim() || `nothing (exit ${started.status})`} at start: see scripts/lazyBuiltins.mjs`,
  );
// dist/lookback.js: the same executable for whoever runs it by its old name (tests, scripts).
writeFileSync('dist/lookback.js', "#!/usr/bin/env node\nimport './lookback.cjs';\n");
// dist/lookback, package.json's "bin": Node 20 reads and parses NODE_EXTRA_CA_CERTS at every
// start, before any JavaScript runs (~85 ms for a 144-certificate bundle; Node 23 and later
// read it at the first TLS connection). The launcher starts node without it; the executable's
// first line puts it back for every child process, and lookback's own TLS connections trust
// its certificates (src/net/trust.ts). npm links the bin by a symlink: readlink -f
// (coreutils, BusyBox) finds the real dist/ beside it, in the C locale (no locale files
// read); a path to the file itself (`npm start`, dist/lookback) needs no readlink, whose
// fork and exec were ~1 ms of every run (a symlinked folder on the way is fine: lookback.cjs
// is beside the file, whichever way the folder is reached).
writeFileSync(
  'dist/lookback',
  `#!/bin/sh
# lookback's launcher (scripts/build.mjs): node starts without reading NODE_EXTRA_CA_CERTS,
# which dist/lookback.cjs restores as its first line (Node 23's lazy loading, on Node 20).
if [ -n "\${NODE_EXTRA_CA_CERTS+set}" ]; then
  ${DEFERRED_CA}=$NODE_EXTRA_CA_CERTS
  export ${DEFERRED_CA}
  unset NODE_EXTRA_CA_CERTS
fi
self=
case $0 in
*/*) [ -L "$0" ] || self=$0 ;;
esac
if [ -z "$self" ]; then
  self=$(LC_ALL=C readlink -f "$0" 2>/dev/null) || self=$0
fi
exec node "\${self%/*}/lookback.cjs" "$@"
`,
);
for (const file of ['dist/lookback', 'dist/lookback.cjs', 'dist/lookback.js'])
  chmodSync(file, 0o755);

// The library's types (package.json "exports"): declarations only, from the TypeScript sources.
if (existsSync('tsconfig.lib.json') && process.env.LOOKBACK_BUILD_TYPES !== '0') {
  let tsc = null;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.warn(
      'build: typescript is not installed, so dist/types (the library types) is not built',
    );
  }
  if (tsc) execFileSync(process.execPath, [tsc, '-p', 'tsconfig.lib.json'], { stdio: 'inherit' });
}
