/**
 * The speed patches of scripts/inkPatches.mjs change how ink computes a frame,
 * never what it draws: ink's modules are bundled twice, as installed and
 * patched, and fed the same inputs; every answer must be identical, frame after
 * frame (the patches keep caches and the previous frame's rows across frames).
 */
import fc from 'fast-check';
import { build, type Plugin } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INK_PATCHES, inkPatchPlugin, patchInkSource } from '../../scripts/inkPatches.mjs';
import { tempDir } from '../helpers/fixtures.js';

const INK_BUILD = join(dirname(createRequire(import.meta.url).resolve('ink')), '.');
const OUT = tempDir();
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** ink loads React's devtools only when asked; the app bundle leaves them out too. */
const noDevtools: Plugin = {
  name: 'no-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: 'devtools',
      namespace: 'stub',
    }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {};' }));
  },
};

/** Bundles `source` (an ES module) with or without the patches and imports it. */
async function load<T>(name: string, source: string, patched: boolean): Promise<T> {
  const out = await build({
    stdin: { contents: source, resolveDir: INK_BUILD, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [...(patched ? [inkPatchPlugin()] : []), noDevtools],
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  const file = join(OUT, `${name}-${patched ? 'patched' : 'original'}.mjs`);
  writeFileSync(file, out.outputFiles[0]!.text);
  return (await import(pathToFileURL(file).href)) as T;
}

// ---------------------------------------------------------------- inputs

const piece = fc.constantFrom(
  'a',
  'word ',
  ' ',
  '中文',
  '한',
  '😀',
  '👨\u200d👩\u200d👧',
  'e\u0301',
  '🇯🇵',
  '\u2764\ufe0f',
  '─',
  // The edges of the fast path's own-grapheme ranges (scripts/inkPatches.mjs), in and out.
  'é',
  '\u02ff',
  '\u0300',
  '…',
  '\u2028',
  '→',
  '\u25ff',
  '\u2600',
  '\u2691',
  '\u2699',
  '\u23ce',
  '\u2442',
  '\u2329',
  '\u26ff',
  '\u4e00',
  '\u9fff',
  '\u3000',
  '\u302a',
  '\u200d',
  '\ufe0f',
  '\u0301',
  '\x9b31m',
  '\x1b[',
  '\x1b[31',
  '\x1b[m',
  '\x1b[1;3;38;5;9m',
  '\x1b[31m',
  '\x1b[39m',
  '\x1b[1m',
  '\x1b[22m',
  '\x1b[38;2;10;20;30m',
  '\x1b[0m',
  '\x1b[2J',
  '\x1b]8;;https://x.test\x07',
  '\x1b]8;;\x07',
);
const text = fc.array(piece, { maxLength: 12 }).map((xs) => xs.join(''));
const multiline = fc.array(text, { minLength: 1, maxLength: 3 }).map((xs) => xs.join('\n'));

type Op =
  | { kind: 'write'; x: number; y: number; text: string; transform: number }
  | { kind: 'clip'; x1?: number; x2?: number; y1?: number; y2?: number }
  | { kind: 'unclip' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      x: fc.nat(45),
      y: fc.nat(14),
      text: multiline,
      transform: fc.nat(2),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ kind: fc.constant('clip' as const), x1: fc.nat(20), x2: fc.nat(45) }),
      fc.record({ kind: fc.constant('clip' as const), y1: fc.nat(6), y2: fc.nat(14) }),
      fc.record({
        kind: fc.constant('clip' as const),
        x1: fc.nat(20),
        x2: fc.nat(45),
        y1: fc.nat(6),
        y2: fc.nat(14),
      }),
    ),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'unclip' as const }) },
);
const frame = fc.record({
  width: fc.integer({ min: 1, max: 40 }),
  height: fc.integer({ min: 1, max: 12 }),
  ops: fc.array(op, { maxLength: 14 }),
});

const TRANSFORMS: ((s: string, i: number) => string)[][] = [
  [],
  [(s) => `\x1b[32m${s}\x1b[39m`],
  [(s, i) => (i % 2 ? s.toUpperCase() : s), (s) => `\x1b[1m${s}\x1b[22m`],
];

// ---------------------------------------------------------------- tests

interface OutputModule {
  default: new (o: { width: number; height: number }) => {
    write(x: number, y: number, t: string, o: { transformers: unknown[] }): void;
    clip(c: object): void;
    unclip(): void;
    get(): { output: string; height: number };
    caches: { getStyledChars(line: string): { value: string; styles: unknown[] }[] };
  };
}
type Fn<A extends unknown[], R> = { default: (...a: A) => R };

describe('ink patched for speed draws what ink draws', () => {
  let output: [OutputModule, OutputModule];
  beforeAll(async () => {
    const src = `export { default } from './output.js';`;
    output = [await load('output', src, false), await load('output', src, true)];
  });

  it('applies to the installed ink, and refuses an ink it was not written for', () => {
    for (const { file } of INK_PATCHES) {
      const path = join(INK_BUILD, file);
      const source = readFileSync(path, 'utf8');
      expect(patchInkSource(path, source), file).not.toBe(source);
      const changed = source.replace(INK_PATCHES.find((p) => p.file === file)!.hunks[0]!.find, '');
      expect(() => patchInkSource(path, changed)).toThrow(/not the one .* written for/);
    }
    expect(patchInkSource(join(INK_BUILD, 'ink.js'), 'x')).toBeNull();
  });

  it('the same frames, frame after frame, for any writes, clips and styles', () => {
    const [original, patched] = output;
    const draw = (
      Output: OutputModule['default'],
      f: { width: number; height: number; ops: Op[] },
    ) => {
      const out = new Output({ width: f.width, height: f.height });
      for (const o of f.ops) {
        if (o.kind === 'write')
          out.write(o.x, o.y, o.text, { transformers: TRANSFORMS[o.transform]! });
        else if (o.kind === 'clip') out.clip(o);
        else out.unclip();
      }
      return out.get();
    };
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 4 }), (frames) => {
        // Each frame twice: the second time the patched output reuses the previous rows.
        for (const f of frames.flatMap((f) => [f, f]))
          expect(draw(patched.default, f)).toEqual(draw(original.default, f));
      }),
      { numRuns: 400 },
    );
  });

  it("a line tokenized without the segmenter has the very cells of ink's own tokenizer", () => {
    const [original, patched] = output;
    const cells = (Output: OutputModule['default'], line: string) =>
      new Output({ width: 40, height: 2 }).caches
        .getStyledChars(line)
        .map((c) => ({ ...c, styles: [...c.styles] }));
    fc.assert(
      fc.property(text, (line) => {
        expect(cells(patched.default, line)).toEqual(cells(original.default, line));
      }),
      { numRuns: 3000 },
    );
  });

  it("the first frame's kind of line (SGR escapes, Latin, box drawing, ⚑, CJK) is built without the grapheme segmenter", () => {
    const [original, patched] = output;
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      const calls = (Output: OutputModule['default'], lines: string[]): number => {
        const caches = new Output({ width: 60, height: 2 }).caches;
        segment.mockClear();
        for (const line of lines) caches.getStyledChars(line);
        return segment.mock.calls.length;
      };
      // Lines no earlier test drew, so no cache answers them; each escape is read
      // once (through ansi-tokenize) per styles it follows, never per character.
      const rows = Array.from(
        { length: 20 },
        (_, i) =>
          `\x1b[1m\u2691 fix 内存 leak #${i}\x1b[22m \u2502 caf\u00e9 \u2026 \x1b[38;5;9m\u23ce\x1b[39m`,
      );
      expect(calls(original.default, rows)).toBeGreaterThanOrEqual(rows.length);
      expect(calls(patched.default, rows)).toBeLessThanOrEqual(4);
      // A combining mark joins its character: ink's own path, with the segmenter.
      expect(calls(patched.default, ['cafe\u0301 \u2691 fix #99'])).toBe(1);
    } finally {
      segment.mockRestore();
    }
  });

  it('a cached line holds one shared cell per styled character, not a new object per cell', () => {
    const [original, patched] = output;
    const cells = (Output: OutputModule['default'], line: string) =>
      new Output({ width: 40, height: 2 }).caches.getStyledChars(line);
    const red = (s: string) => `\x1b[31m${s}\x1b[39m`;
    const a = cells(patched.default, `${red('ab')} ab`);
    const b = cells(patched.default, `x ${red('ba')}b`);
    // The same character in the same styles is the same frozen object, in a line and across lines…
    expect(a[0]).toBe(b[3]);
    expect(a[1]).toBe(b[2]);
    expect(a[4]).toBe(b[4]);
    expect(a[2]).toBe(b[1]);
    expect(Object.isFrozen(a[0]) && Object.isFrozen(a[0]!.styles)).toBe(true);
    // …and another style is another cell (red b vs plain b).
    expect(a[1]).not.toBe(a[4]);
    expect(a.map((c) => c.value).join('')).toBe('ab ab');
    // ink as installed makes a new object per character.
    const o = cells(original.default, `${red('ab')} ab`);
    expect(o[0]).not.toBe(cells(original.default, `x ${red('ba')}b`)[3]);
  });

  it('whole trees of boxes and text render to the same screen', async () => {
    process.env.FORCE_COLOR = '1';
    const src = `export { renderToString, Box, Text } from './index.js'; export { default as React } from 'react';`;
    type Ink = {
      renderToString: (n: unknown, o: { columns: number }) => string;
      Box: unknown;
      Text: unknown;
      React: { createElement: (...a: unknown[]) => unknown };
    };
    const [a, b] = [await load<Ink>('ink', src, false), await load<Ink>('ink', src, true)];
    const node = fc.letrec((tie) => ({
      text: fc.record({
        t: fc.constant('text' as const),
        color: fc.constantFrom(undefined, 'red', 'cyan', '#ff8800'),
        bold: fc.boolean(),
        wrap: fc.constantFrom('wrap', 'truncate-end', 'truncate'),
        parts: fc.array(
          fc.oneof(text, fc.record({ inner: text, color: fc.constantFrom('green', 'blue') })),
          {
            maxLength: 3,
          },
        ),
      }),
      box: fc.record({
        t: fc.constant('box' as const),
        direction: fc.constantFrom('row', 'column'),
        width: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        height: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
        overflow: fc.constantFrom(undefined, 'hidden'),
        border: fc.constantFrom(undefined, 'single', 'round'),
        children: fc.array(fc.oneof(tie('text'), tie('box')), { maxLength: 3 }),
      }),
    }));
    type Node = { t: 'text' | 'box'; [k: string]: unknown };
    const toElement = (ink: Ink, n: Node, key = 0): unknown => {
      const h = ink.React.createElement;
      if (n.t === 'text') {
        const parts = (n.parts as (string | { inner: string; color: string })[]).map((p, i) =>
          typeof p === 'string' ? p : h(ink.Text, { key: i, color: p.color }, p.inner),
        );
        return h(ink.Text, { key, color: n.color, bold: n.bold, wrap: n.wrap }, ...parts);
      }
      return h(
        ink.Box,
        {
          key,
          flexDirection: n.direction,
          width: n.width,
          height: n.height,
          overflow: n.overflow,
          borderStyle: n.border,
        },
        ...(n.children as Node[]).map((c, i) => toElement(ink, c, i)),
      );
    };
    fc.assert(
      fc.property(node.box, fc.integer({ min: 10, max: 60 }), (tree, columns) => {
        for (let i = 0; i < 2; i++)
          expect(b.renderToString(toElement(b, tree), { columns })).toBe(
            a.renderToString(toElement(a, tree), { columns }),
          );
      }),
      { numRuns: 200 },
    );
  });

  it('bounded caches answer as the unbounded ones did, past their bounds', async () => {
    const texts = fc.sample(multiline, 5_000);
    const pairs = async <A extends unknown[], R>(file: string) =>
      [
        await load<Fn<A, R>>(file, `export { default } from './${file}';`, false),
        await load<Fn<A, R>>(file, `export { default } from './${file}';`, true),
      ] as const;
    const [measure0, measure1] = await pairs<[string], { width: number; height: number }>(
      'measure-text.js',
    );
    const [wrap0, wrap1] = await pairs<[string, number, string], string>('wrap-text.js');
    const [clean0, clean1] = await pairs<[string], string>('sanitize-ansi.js');
    for (const round of [0, 1])
      for (const [i, t] of texts.entries()) {
        expect(measure1.default(t)).toEqual(measure0.default(t));
        const mode = ['wrap', 'truncate-end', 'truncate-middle'][(i + round) % 3]!;
        expect(wrap1.default(t, 1 + (i % 17), mode)).toBe(wrap0.default(t, 1 + (i % 17), mode));
        expect(clean1.default(t)).toBe(clean0.default(t));
      }
  });
});
