// Bundles the CLI, the app (loaded lazily), the query worker, the library and the benchmark.
// A bundle starts several hundred milliseconds faster than resolving ink's module
// graph at run time, which is most of the first-frame budget.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { INK_PATCHES, inkPatchPlugin } from './inkPatches.mjs';
import { meowPatchPlugin } from './meowPatch.mjs';
import { widthPatchPlugin } from './widthPatch.mjs';
import { yogaPatchPlugin } from './yogaPatch.mjs';

const entries = {
  lookback: 'src/cli.ts',
  'query-worker': 'src/app/worker/entry.ts',
  'agents-worker': 'src/agents/worker.ts',
  lib: 'src/lib.ts',
  bench: 'tests/bench/run.ts',
};

rmSync('dist', { recursive: true, force: true });
const result = await build({
  entryPoints: Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file))),
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // Smaller bundles parse faster: the app's first frame is mostly module loading.
  minify: process.env.LOOKBACK_BUILD_MINIFY !== '0',
  chunkNames: 'chunks/[name]-[hash]',
  external: ['better-sqlite3', 'react-devtools-core'],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: {
    // Bundled CommonJS dependencies call require(); give them one in ESM.
    js: "import { createRequire as __lookbackCreateRequire } from 'node:module'; const require = __lookbackCreateRequire(import.meta.url);",
  },
  plugins: [inkPatchPlugin(), meowPatchPlugin(), widthPatchPlugin(), yogaPatchPlugin()],
  metafile: true,
  logLevel: 'warning',
});
// A patch whose file the bundle no longer includes would be skipped without a word.
const inputs = Object.keys(result.metafile.inputs);
for (const { file } of INK_PATCHES)
  if (!inputs.some((i) => i.endsWith(`node_modules/ink/build/${file}`)))
    throw new Error(`scripts/inkPatches.mjs: ink's build/${file} is not in the bundle any more`);
if (!inputs.some((i) => /node_modules\/string-width\/index\.js$/.test(i)))
  throw new Error("scripts/widthPatch.mjs: string-width's index.js is not in the bundle any more");
if (
  !inputs.some((i) =>
    /node_modules\/yoga-layout\/dist\/binaries\/yoga-wasm-base64-esm\.js$/.test(i),
  )
)
  throw new Error("scripts/yogaPatch.mjs: yoga-layout's wasm loader is not in the bundle any more");
if (existsSync('dist/lookback.js')) chmodSync('dist/lookback.js', 0o755);

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
