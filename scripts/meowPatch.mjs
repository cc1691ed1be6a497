import { readFile } from 'node:fs/promises';
import { replaceOnce } from './replaceOnce.mjs';

// meow 14 runs normalize-package-data (and its spdx licence tables) when it is
// imported, though it only uses it to print --version/--help of a manifest we hand
// it whole. That was 10-16 ms of every `lookback … --json` process (a --cpu-prof of
// `lookback search`). The patch makes the call lazy; what meow does is unchanged.
// It also drops the `promisify(execFile);` after it, a statement whose value
// nothing keeps (left from read-package-up), which loaded node:child_process and
// with it net and stream at every start (scripts/lazyBuiltins.mjs).
// The hunk must match exactly once or the build fails: a newer meow needs a look.

const FILE = /[\\/]node_modules[\\/]meow[\\/]build[\\/]dependencies\.js$/;
const FIND =
  'var normalizeExports = requireNormalize();\n' +
  'const normalizePackageData = getDefaultExportFromCjs(normalizeExports);\n' +
  'promisify(execFile);\n';
const REPLACE =
  '// lookback: normalize-package-data loads on first use, not at import.\n' +
  'const normalizePackageData = (data, ...rest) =>\n' +
  '\tgetDefaultExportFromCjs(requireNormalize())(data, ...rest);\n' +
  '// lookback: promisify(execFile), whose value nothing kept, loaded child_process at import.\n';

// Likewise @babel/code-frame (with js-tokens, the identifier tables and picocolors),
// which meow loads at import for the one error message it frames: a JSON syntax
// error in a package.json it reads, never lookback's. ~5% of a `search --json` run.
const CODE_FRAME = [
  [
    'var libExports = requireLib$1();\n',
    '// lookback: @babel/code-frame loads on first use, not at import.\n',
  ],
  ['return libExports.codeFrameColumns(', 'return requireLib$1().codeFrameColumns('],
];

/** meow's `build/dependencies.js` with normalize-package-data loaded lazily. Throws when meow changed. */
export function patchMeowSource(source) {
  let out = replaceOnce(source, FIND, REPLACE);
  for (const [find, replace] of CODE_FRAME)
    out = out === null ? null : replaceOnce(out, find, replace);
  if (out === null)
    throw new Error(
      "meow's build/dependencies.js is not the one scripts/meowPatch.mjs was written for: re-check the patch",
    );
  return out;
}

/** The esbuild plugin that applies the patch. */
export function meowPatchPlugin() {
  return {
    name: 'lookback-meow-lazy-normalize',
    setup(build) {
      build.onLoad({ filter: FILE }, async ({ path }) => ({
        contents: patchMeowSource(await readFile(path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
