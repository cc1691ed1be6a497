/**
 * The yoga-layout patch (scripts/yogaPatch.mjs): the patched loader must build
 * a working Yoga without ever calling fetch (which loads undici on Node: ~30 ms
 * of the first frame), and lay out a node as the unpatched one does.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { patchYogaSource } from '../../scripts/yogaPatch.mjs';

const FILE = resolve('node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js');
const source = readFileSync(FILE, 'utf8');

interface YogaNode {
  setWidth(w: number): void;
  setHeight(h: number): void;
  insertChild(child: YogaNode, at: number): void;
  setFlexGrow(g: number): void;
  calculateLayout(w?: number, h?: number): void;
  getComputedWidth(): number;
  getComputedHeight(): number;
}
interface Yoga {
  Node: { create(): YogaNode };
}

/** Loads Yoga as yoga-layout's index.js does, through the given loader source. */
async function loaderOf(code: string): Promise<() => Promise<Yoga>> {
  const url = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
  const load = ((await import(url)) as { default: () => Promise<unknown> }).default;
  const wrapAssembly = (
    (await import(resolve('node_modules/yoga-layout/dist/src/wrapAssembly.js'))) as {
      default: (lib: unknown) => Yoga;
    }
  ).default;
  return async () => wrapAssembly(await load());
}

function layout(yoga: Yoga): [number, number] {
  const root = yoga.Node.create();
  root.setWidth(120);
  root.setHeight(40);
  const child = yoga.Node.create();
  child.setFlexGrow(1);
  root.insertChild(child, 0);
  root.calculateLayout();
  return [child.getComputedWidth(), child.getComputedHeight()];
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the yoga-layout patch (scripts/yogaPatch.mjs)', () => {
  it('builds Yoga without fetch, and it lays out as the original does', async () => {
    const fetch = vi.fn(() => Promise.reject(new Error('fetched')));
    vi.stubGlobal('fetch', fetch);
    const patched = await (await loaderOf(patchYogaSource(source)))();
    expect(fetch).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
    const original = await (await loaderOf(source))();
    expect(layout(patched)).toEqual(layout(original));
    expect(layout(patched)).toEqual([120, 40]);
  });

  it('the original does fetch its data: URL (what the patch avoids)', async () => {
    const fetch = vi.fn(() => Promise.reject(new Error('fetched')));
    vi.stubGlobal('fetch', fetch);
    // The loader falls back to decoding itself when the fetch fails.
    await (
      await loaderOf(source)
    )();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('refuses a loader it was not written for', () => {
    expect(() => patchYogaSource(source.replace('function ya(){', 'function ya2(){'))).toThrow(
      /re-check the patch/,
    );
  });
});
