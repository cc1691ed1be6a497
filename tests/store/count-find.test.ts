/**
 * countConversations (the app's "50 of N") and findInSessions (find within a
 * conversation), on generated stores of three layouts and the fixtures: the
 * count equals the number of conversations discover returns with no limit,
 * filters included; every found message contains the text, and none that
 * contains it is missed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { findInSessions } from '../../src/store/find.js';
import { compressionChain } from '../../src/store/lineage.js';
import { countConversations, discover } from '../../src/store/search.js';
import { visibleMessage } from '../../src/store/sqlParts.js';
import { Store } from '../../src/store/store.js';
import { FIXTURE_LAYOUTS, fixtureCopy, sha256, tempDir } from '../helpers/fixtures.js';

const WORDS = ['test', 'billing', 'the', 'deploy', 'zzqqxx'];

describe.each([6, 16, 30] as const)('count and find on a generated schema-%i store', (layout) => {
  const path = join(tempDir(), 'state.db');
  generateStore(path, { layout, sessions: 160, seed: 11 });

  it('counts exactly the conversations discover finds, with and without filters', () => {
    const store = Store.open(path);
    for (const w of WORDS)
      for (const filters of [undefined, { sources: ['cli'] }, { after: 1_780_000_000 }]) {
        // The count is of exact matches: the relaxed leg is off.
        const all = discover(store, w, {
          limit: 100_000,
          views: false,
          relaxed: false,
          ...(filters ? { filters } : {}),
        });
        const c = countConversations(store, w, filters ? { filters } : {});
        expect(c, `${w} ${JSON.stringify(filters)}`).toEqual({
          count: all.results.length,
          capped: false,
        });
      }
    store.close();
  });

  it('says capped when the row cap is reached, never more than it read', () => {
    const store = Store.open(path);
    const c = countConversations(store, 'the', {}, 10)!;
    expect(c.capped).toBe(true);
    expect(c.count).toBeLessThanOrEqual(10);
    expect(c.count).toBeGreaterThan(0);
    store.close();
  });

  it('finds every message of a chain that contains the text, tool calls included', () => {
    const store = Store.open(path);
    const root = store.db
      .prepare(`SELECT session_id FROM messages GROUP BY session_id ORDER BY count(*) DESC LIMIT 1`)
      .pluck()
      .get() as string;
    const chain = compressionChain(store, root);
    for (const text of ['the', 'THE', 'billing', '"', '%', '_']) {
      const found = findInSessions(store, chain, text);
      const rows = store.db
        .prepare(
          `SELECT id, content, tool_name, tool_calls FROM messages
           WHERE session_id IN (SELECT value FROM json_each(?)) AND ${visibleMessage(store.layout, 'messages')}
           ORDER BY id`,
        )
        .all(JSON.stringify(chain)) as Record<string, string | number | null>[];
      const has = (r: Record<string, string | number | null>): boolean =>
        ['content', 'tool_name', 'tool_calls'].some((k) =>
          String(r[k] ?? '')
            .toLowerCase()
            .includes(text.toLowerCase()),
        );
      const expected = rows.filter(has).map((r) => r.id as number);
      // Every found message contains it; the visible messages that contain it are all found.
      for (const id of found) expect(expected).toContain(id);
      expect(found).toEqual([...found].sort((a, b) => a - b));
      // Nothing missed, multimodal content (`\0json:[…]`) included.
      expect(found.length).toBe(expected.length);
    }
    store.close();
  });
});

describe.each(FIXTURE_LAYOUTS)('count and find on the schema-%s fixture', (layout) => {
  it('answers and leaves the store byte for byte unchanged', () => {
    const path = fixtureCopy(layout);
    const before = sha256(path);
    const store = Store.open(path);
    const c = countConversations(store, 'the');
    expect(c).not.toBeNull();
    const all = discover(store, 'the', { limit: 100_000, views: false });
    expect(c!.count).toBe(all.results.length);
    store.close();
    expect(sha256(path)).toBe(before);
  });
});
