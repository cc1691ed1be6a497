import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { browse, firstUserText, previewOf } from '../../src/store/browse.js';
import { compressionChain } from '../../src/store/lineage.js';
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

  it('previews and branch counts read for all rows at once are each row’s own', () => {
    const path = join(tempDir(), 'state.db');
    generateStore(path, { layout, sessions: 300, seed: layout });
    const snap = loadSnapshot(path);
    const store = Store.open(path);
    const cfg = (id: string, key: string): unknown => {
      try {
        return (JSON.parse(snap.sessions.get(id)?.model_config ?? '') as Record<string, unknown>)[
          key
        ];
      } catch {
        return undefined;
      }
    };
    let branched = 0;
    for (const rows of [browse(store, { limit: 60 }), browse(store, { limit: 300, all: true })])
      for (const r of rows) {
        // The preview: the tip's first words, else the root's (one row at a time, as before).
        const tipText = firstUserText(store, r.session_id);
        expect(r.preview).toBe(
          previewOf(tipText || (r.root_id === r.session_id ? '' : firstUserText(store, r.root_id))),
        );
        // Branches: children of any chain segment with a branch marker or started after a `branched` end.
        const chain = new Set(compressionChain(store, r.root_id));
        const want = [...snap.sessions.values()].filter((k) => {
          const p = k.parent_session_id ? snap.sessions.get(k.parent_session_id) : undefined;
          if (!p || !chain.has(p.id)) return false;
          const marked = cfg(k.id, '_branched_from');
          return (
            (marked !== undefined && marked !== null) ||
            (p.end_reason === 'branched' && k.started_at >= (p.ended_at ?? 0))
          );
        }).length;
        expect(r.branches, r.root_id).toBe(want);
        if (want > 0) branched++;
      }
    expect(branched).toBeGreaterThan(0);
    store.close();
  });
});
