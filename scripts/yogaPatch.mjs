import { readFile } from 'node:fs/promises';
import { replaceOnce } from './replaceOnce.mjs';

// yoga-layout 3 ships its WebAssembly as a base64 data: URL, and Emscripten's
// loader reads it with fetch() whenever fetch exists. On Node that first use of
// the global fetch loads undici and has it decode ~90 KB of data: URL, ~30 ms
// (loading yoga alone: 43-54 ms with fetch, 13-20 ms without), all of it before
// ink can evaluate (yoga is a top-level await) and so before the first frame.
// The patch hands the loader the bytes decoded with Buffer, the path Emscripten
// already takes when it is given `wasmBinary`. The hunk must match exactly once
// or the build fails: a newer yoga-layout needs a look.

const FILE =
  /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;

const FIND = 'function ya(){return w||"function"!=typeof fetch?';
const REPLACE =
  '/* lookback (scripts/yogaPatch.mjs): the data: URL decoded here, not fetched */' +
  'function ya(){if(!w&&ua(H))w=Buffer.from(H.slice(37),"base64");return w||"function"!=typeof fetch?';

/** yoga's Emscripten loader with the WebAssembly decoded by Buffer. Throws when yoga-layout changed. */
export function patchYogaSource(source) {
  const out = replaceOnce(source, FIND, REPLACE);
  // ua(H): H is the data: URL, and its payload starts after this 37-character prefix.
  if (
    out === null ||
    !source.includes('function ua(a){return a.startsWith("data:application/octet-stream;base64,")}')
  )
    throw new Error(
      "yoga-layout's wasm loader is not the one scripts/yogaPatch.mjs was written for: re-check the patch",
    );
  return out;
}

/** The esbuild plugin that applies the patch. */
export function yogaPatchPlugin() {
  return {
    name: 'lookback-yoga-wasm-without-fetch',
    setup(build) {
      build.onLoad({ filter: FILE }, async ({ path }) => ({
        contents: patchYogaSource(await readFile(path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
