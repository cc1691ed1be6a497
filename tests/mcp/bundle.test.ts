import { describe, expect, it } from 'vitest';
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { tempDir } from '../helpers/fixtures.js';

/** Every module an output chunk loads before any dynamic import(). */
function staticClosure(meta: Metafile, out: string): string[] {
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const visit = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    const chunk = meta.outputs[o];
    if (!chunk) return;
    for (const i of Object.keys(chunk.inputs)) inputs.add(i);
    for (const imp of chunk.imports)
      if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(out);
  return [...inputs];
}

const UI = /node_modules\/(ink|react|react-reconciler|yoga-layout)\/|src\/app\/|components\//;

describe('the MCP server in the bundle', () => {
  it('loads the SDK only for `mcp`, and never React or Ink', async () => {
    const result = await build({
      entryPoints: { lookback: 'src/cli.ts' },
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
    const outputs = Object.keys(result.metafile.outputs);
    const entry = outputs.find((o) => o.endsWith(join('lookback.js')))!;
    const mcp = outputs.find((o) =>
      Object.keys(result.metafile.outputs[o]!.inputs).includes('src/mcp/server.ts'),
    )!;
    expect(mcp).toBeDefined();
    expect(mcp).not.toBe(entry);

    // The JSON commands pay nothing for the SDK or zod.
    expect(
      staticClosure(result.metafile, entry).filter((i) =>
        /node_modules\/(@modelcontextprotocol|zod)\/|src\/mcp\//.test(i),
      ),
    ).toEqual([]);
    // The server itself loads the store and the SDK, and nothing of the app.
    const served = staticClosure(result.metafile, mcp);
    expect(served.some((i) => i.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    expect(served.some((i) => i.includes('src/store/recall.ts'))).toBe(true);
    expect(served.filter((i) => UI.test(i))).toEqual([]);
  });
});
