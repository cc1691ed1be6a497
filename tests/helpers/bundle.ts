/**
 * The architecture tests' view of the bundle: esbuild builds an entry the way
 * scripts/build.mjs does (in memory), and these walk which source files each output
 * chunk loads.
 */
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { tempDir } from './fixtures.js';

/** The metafile of `entry` bundled with code splitting, and the output file of `name`.js. */
export async function bundleOf(
  name: string,
  entry: string,
): Promise<{ meta: Metafile; out: string }> {
  const result = await build({
    entryPoints: { [name]: entry },
    outdir: tempDir(),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    external: ['better-sqlite3', 'react-devtools-core'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const out = Object.keys(result.metafile.outputs).find((o) => o.endsWith(join(`${name}.js`)))!;
  return { meta: result.metafile, out };
}

/**
 * Every source file the output chunk `out` loads: before any dynamic import()
 * (`static`), or with the dynamic imports too (`all`).
 */
export function closure(meta: Metafile, out: string, which: 'static' | 'all'): string[] {
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const visit = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    const chunk = meta.outputs[o];
    if (!chunk) return;
    for (const i of Object.keys(chunk.inputs)) inputs.add(i);
    for (const imp of chunk.imports)
      if (!imp.external && (which === 'all' || imp.kind === 'import-statement')) visit(imp.path);
  };
  visit(out);
  return [...inputs];
}
