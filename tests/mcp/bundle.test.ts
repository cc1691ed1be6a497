import { describe, expect, it } from 'vitest';
import { bundleOf, closure } from '../helpers/bundle.js';

const UI = /node_modules\/(ink|react|react-reconciler|yoga-layout)\/|src\/app\/|components\//;

describe('the MCP server in the bundle', () => {
  it('loads the SDK only for `mcp`, and never React or Ink', async () => {
    const { meta, out: entry } = await bundleOf('lookback', 'src/cli.ts');
    const mcp = Object.keys(meta.outputs).find((o) =>
      Object.keys(meta.outputs[o]!.inputs).includes('src/mcp/server.ts'),
    )!;
    expect(mcp).toBeDefined();
    expect(mcp).not.toBe(entry);

    // The JSON commands pay nothing for the SDK or zod.
    expect(
      closure(meta, entry, 'static').filter((i) =>
        /node_modules\/(@modelcontextprotocol|zod)\/|src\/mcp\//.test(i),
      ),
    ).toEqual([]);
    // The server itself loads the store and the SDK, and nothing of the app.
    const served = closure(meta, mcp, 'static');
    expect(served.some((i) => i.includes('node_modules/@modelcontextprotocol/server/'))).toBe(true);
    expect(served.some((i) => i.includes('src/store/recall.ts'))).toBe(true);
    expect(served.filter((i) => UI.test(i))).toEqual([]);
  });
});
