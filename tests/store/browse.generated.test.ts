import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { tempDir } from '../helpers/fixtures.js';
import { expectedBrowse, loadSnapshot } from '../helpers/oracle.js';

describe.each([6, 16, 30] as const)('browse on a generated schema-%i store', (layout) => {
  it('the candidate pool gives exactly the ranking of every conversation', () => {
    const path = join(tempDir(), 'state.db');
    generateStore(path, { layout, sessions: 300, seed: layout });
    const snap = loadSnapshot(path);
    const store = Store.open(path);
    for (const limit of [1, 5, 20, 60]) {
      const got = browse(store, { limit }).map((r) => r.session_id);
      expect(got).toEqual(expectedBrowse(snap, limit).map((r) => r.session_id));
    }
    store.close();
  });
});
