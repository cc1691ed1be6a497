import { describe, expect, it } from 'vitest';
import { bundleOf, closure } from '../helpers/bundle.js';

describe('the command line', () => {
  it('never loads React or Ink for the JSON subcommands', async () => {
    const { meta, out } = await bundleOf('lookback', 'src/cli.ts');
    const loaded = closure(meta, out, 'static');
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

describe('the library', () => {
  it('never loads React, Ink or the app, not even lazily', async () => {
    const { meta, out } = await bundleOf('lib', 'src/lib.ts');
    const loaded = closure(meta, out, 'all');
    expect(loaded.some((i) => i.includes('src/store/'))).toBe(true);
    expect(
      loaded.filter((i) => /node_modules\/(ink|react|react-reconciler|yoga-layout|meow)\//.test(i)),
    ).toEqual([]);
    expect(loaded.filter((i) => i.includes('src/app/') || i.includes('components/'))).toEqual([]);
  });
});
