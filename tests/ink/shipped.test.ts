import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// vitest.config.ts applies scripts/inkPatches.mjs to ink as the tests load it, so the
// journeys render with the ink the bundle ships. If that plugin or the inlining of ink
// is lost, this fails instead of the journeys silently testing another renderer.
describe('the ink the tests run', () => {
  it('is the patched renderer the bundle ships', async () => {
    const output = (await import(resolve('node_modules/ink/build/output.js'))) as {
      default: unknown;
    };
    expect(String(output.default)).toContain('lookbackPreviousRows');
  });
});
