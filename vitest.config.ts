import { defineConfig } from 'vitest/config';
import { patchInkSource } from './scripts/inkPatches.mjs';

export default defineConfig({
  // The tests run the ink the bundle ships: the same speed patches (scripts/inkPatches.mjs)
  // are applied to ink's build files as vitest loads them.
  plugins: [
    {
      name: 'lookback-ink-patches',
      enforce: 'pre',
      transform(code, id) {
        return patchInkSource(id.split('?')[0] ?? id, code);
      },
    },
  ],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['tests/helpers/globalSetup.ts'],
    setupFiles: ['tests/helpers/setup.ts'],
    // ink must go through vite's transform (and so the plugin above), not Node's loader.
    server: { deps: { inline: ['ink'] } },
  },
});
