/**
 * Values cached per agent commit (titles, sources, lineage roots, pinned ids)
 * must not outlive a reconnection: after an idle close, a new connection's
 * data_version starts again and may repeat the number the cache was read under.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Store } from '../../src/store/store.js';
import { discover } from '../../src/store/search.js';
import { browse } from '../../src/store/browse.js';
import { fixtureCopy } from '../helpers/fixtures.js';

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('per-commit caches across an idle reconnection', () => {
  it('a title and a pin changed while the store was closed are seen on the next read', async () => {
    const path = fixtureCopy(30);
    const store = Store.open(path, { idleCloseMs: 50 });
    const writer = new Database(path);
    const { id, title } = writer
      .prepare(
        `SELECT id, title FROM sessions WHERE title IS NOT NULL AND parent_session_id IS NULL
           AND source NOT IN ('kanban', 'subagent', 'tool') AND hidden = 0 AND archived = 0 AND pinned = 0 LIMIT 1`,
      )
      .get() as { id: string; title: string };
    expect(discover(store, title, { limit: 1 }).results[0]!.session_id).toBe(id);
    expect(browse(store, { limit: 500 }).find((r) => r.root_id === id)!.pinned).toBe(false);
    await until(() => !store.connected);
    writer
      .prepare(`UPDATE sessions SET title = ?, pinned = 1 WHERE id = ?`)
      .run('Renamed later', id);
    writer.close();
    const renamed = discover(store, 'Renamed later', { limit: 1 }).results[0]!;
    expect([renamed.session_id, renamed.matched_role, renamed.title]).toEqual([
      id,
      'session_title',
      'Renamed later',
    ]);
    expect(browse(store, { limit: 500 }).find((r) => r.root_id === id)!.pinned).toBe(true);
    store.close();
  });
});
