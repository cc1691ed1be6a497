/**
 * The app as CommonJS (scripts/appBundle.mjs): ink's reconciler loses only its
 * DEV-only top-level awaits, and the ES side hands Yoga over on the key the
 * bundle's shim reads.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { LAZY_KEY, reconcilerForCommonJs, YOGA_KEY } from '../../scripts/appBundle.mjs';
import { LAZY_KEY as CLI_LAZY_KEY } from '../../src/cli/lazy.js';
import { patchInkSource } from '../../scripts/inkPatches.mjs';
import { YOGA_KEY as START_YOGA_KEY } from '../../src/tui/start.js';

const PATH = resolve('node_modules/ink/build/reconciler.js');
const source = readFileSync(PATH, 'utf8');

describe('the app bundle (scripts/appBundle.mjs)', () => {
  it('hands Yoga and the lazy loaders over on the keys src/tui/start.ts and src/bin.ts set', () => {
    expect(START_YOGA_KEY).toBe(YOGA_KEY);
    expect(CLI_LAZY_KEY).toBe(LAZY_KEY);
  });

  it("leaves ink's reconciler with no top-level await and every other line as the speed patches made it", () => {
    expect(source).toMatch(/^\s+await import\('\.\/devtools\.js'\);$/m);
    const out = reconcilerForCommonJs(PATH, source);
    // esbuild refuses top-level await in CommonJS: the original fails, the result passes.
    expect(() => transformSync(source, { format: 'cjs', loader: 'js' })).toThrow(/Top-level await/);
    expect(() => transformSync(out, { format: 'cjs', loader: 'js' })).not.toThrow();
    const patched = patchInkSource(PATH, source) ?? source;
    const differ = out.split('\n').filter((l, i) => l !== patched.split('\n')[i]);
    expect(differ.map((l) => l.trim())).toEqual([
      'void 0;',
      '? { name: undefined, version: undefined }',
    ]);
  });

  it('refuses a reconciler it was not written for', () => {
    expect(() =>
      reconcilerForCommonJs(PATH, source.replace('? await loadPackageJson()', '? x')),
    ).toThrow(/re-check its DEV awaits/);
  });
});
