import { describe, expect, it } from 'vitest';
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { tempDir } from '../helpers/fixtures.js';

/** Every module the entry chunk loads before any dynamic import(). */
function staticClosure(meta: Metafile, entry: string): Set<string> {
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    const o = meta.outputs[out];
    if (!o) return;
    for (const i of Object.keys(o.inputs)) inputs.add(i);
    for (const imp of o.imports)
      if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(entry);
  return inputs;
}

describe('the command line', () => {
  it('never loads React or Ink for the JSON subcommands', async () => {
    const outdir = tempDir();
    const result = await build({
      entryPoints: { lookback: 'src/cli.ts' },
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      external: ['better-sqlite3', 'react-devtools-core'],
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const entry = Object.keys(result.metafile.outputs).find((o) =>
      o.endsWith(join('lookback.js')),
    )!;
    const loaded = [...staticClosure(result.metafile, entry)];
    expect(loaded.some((i) => i.includes('src/store/'))).toBe(true);
    expect(
      loaded.filter((i) => /node_modules\/(ink|react|react-reconciler|yoga-layout)\//.test(i)),
    ).toEqual([]);
    expect(
      loaded.filter(
        (i) =>
          i.includes('src/app/') ||
          i.includes('src/tui/') ||
          i.includes('components/') ||
          i.includes('src/demo/'),
      ),
    ).toEqual([]);
  });
});

/** Every module the entry chunk can load, dynamic imports included. */
function fullClosure(meta: Metafile, entry: string): Set<string> {
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    const o = meta.outputs[out];
    if (!o) return;
    for (const i of Object.keys(o.inputs)) inputs.add(i);
    for (const imp of o.imports) if (!imp.external) visit(imp.path);
  };
  visit(entry);
  return inputs;
}

describe('the library', () => {
  it('never loads React, Ink or the app, not even lazily', async () => {
    const outdir = tempDir();
    const result = await build({
      entryPoints: { lib: 'src/lib.ts' },
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      external: ['better-sqlite3', 'react-devtools-core'],
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const entry = Object.keys(result.metafile.outputs).find((o) => o.endsWith(join('lib.js')))!;
    const loaded = [...fullClosure(result.metafile, entry)];
    expect(loaded.some((i) => i.includes('src/store/'))).toBe(true);
    expect(
      loaded.filter((i) => /node_modules\/(ink|react|react-reconciler|yoga-layout|meow)\//.test(i)),
    ).toEqual([]);
    expect(loaded.filter((i) => i.includes('src/app/') || i.includes('components/'))).toEqual([]);
  });
});
