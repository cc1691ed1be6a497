import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { replaceOnce } from './replaceOnce.mjs';

// The dependencies ink draws with each make an Intl.Segmenter when they load
// (string-width 8 and wrap-ansi's string-width 7, slice-ansi, ansi-tokenize):
// the first one loads ICU's break-iterator data, and every line of every frame
// then goes through ansi-tokenize's, all on the app's path to its first frame.
// The patch puts src/text/segmenter.ts's lookbackSegmenter in their place: made
// on first use, and not used at all for a string of one-code-point graphemes
// (answers equal to Intl.Segmenter's: tests/unit/segmenter.test.ts).
// Each hunk must match exactly once or the build fails: a newer version needs a look.

const FILES = [
  {
    file: /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    find: 'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });\n',
  },
  {
    file: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/,
    find: "const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});\n",
  },
  // string-width 8 (the one scripts/widthPatch.mjs patches, which applies this too) and 7 (wrap-ansi's).
  {
    file: /[\\/]node_modules[\\/](wrap-ansi[\\/]node_modules[\\/])?string-width[\\/]index\.js$/,
    find: 'const segmenter = new Intl.Segmenter();\n',
  },
];

/** The files the patch applies to, for the build's check that each is still in the bundle. */
export const SEGMENTER_FILES = FILES.map(({ file }) => file);

const MODULE = resolve(import.meta.dirname, '..', 'src', 'text', 'segmenter.ts');

/** `source` (of the file at `path`) with its Intl.Segmenter made by lookbackSegmenter. Throws when it does not match. */
export function patchSegmenterSource(source, path) {
  const spec = FILES.find(({ file }) => file.test(path));
  if (!spec) throw new Error(`scripts/segmenterPatch.mjs: no hunk for ${path}`);
  const patched = replaceOnce(
    source,
    spec.find,
    spec.find.replace('new Intl.Segmenter(', '__lookbackSegmenter('),
  );
  if (patched === null || patched.includes('new Intl.Segmenter('))
    throw new Error(
      `${path} is not the file scripts/segmenterPatch.mjs was written for: re-check the patch`,
    );
  return `import { lookbackSegmenter as __lookbackSegmenter } from ${JSON.stringify(MODULE)};\n${patched}`;
}

/** The esbuild plugin. string-width 8's own index.js is left to widthPatchPlugin, which applies this patch after its own. */
export function segmenterPatchPlugin() {
  return {
    name: 'lookback-lazy-segmenters',
    setup(build) {
      for (const { file } of FILES)
        build.onLoad({ filter: file }, async ({ path }) => {
          const source = await readFile(path, 'utf8');
          if (source.includes('Fast path: printable ASCII')) return undefined;
          return { contents: patchSegmenterSource(source, path), loader: 'js' };
        });
    },
  };
}
