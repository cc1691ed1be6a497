/**
 * A query equal to a conversation's title (trimmed, case-insensitive as
 * JavaScript folds case) finds it as `session_title`, whether the title is
 * looked up in SQLite (the first lookup after a commit: a one-shot
 * `lookback search`) or in the per-commit map (every later lookup).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Store } from '../../src/store/store.js';
import { discover } from '../../src/store/search.js';
import { fixtureCopy } from '../helpers/fixtures.js';

const TITLES = [
  // The Kelvin sign folds to an ASCII "k": LIKE alone would miss it.
  '\u212Aafka rebalancing notes',
  '\tÄRGER mit dem Über-Deploy  ',
  '50%_done migration',
  'İstanbul latency',
];

describe('title matches, looked up in SQLite first and in the map after', () => {
  let path: string;
  let store: Store;
  const ids: string[] = [];
  beforeAll(() => {
    path = fixtureCopy(30);
    const writer = new Database(path);
    const rows = writer
      .prepare(
        `SELECT id FROM sessions WHERE title IS NOT NULL AND parent_session_id IS NULL
           AND source NOT IN ('kanban', 'subagent', 'tool', 'cron') AND hidden = 0 AND archived = 0
         ORDER BY id LIMIT ?`,
      )
      .pluck()
      .all(TITLES.length) as string[];
    TITLES.forEach((t, i) =>
      writer.prepare(`UPDATE sessions SET title = ? WHERE id = ?`).run(t, rows[i]),
    );
    writer.close();
    ids.push(...rows);
    store = Store.open(path);
  });
  afterAll(() => store.close());

  const top = (q: string, on = store) => {
    const r = discover(on, q, { limit: 1 }).results[0];
    return r?.matched_role === 'session_title' ? [r.session_id, r.title] : null;
  };

  it('finds each title by its folded form, the first lookup and the next ones alike', () => {
    const queries = [
      'kafka rebalancing notes',
      'ärger mit dem über-deploy',
      '50%_DONE MIGRATION',
      'i̇stanbul latency',
    ];
    // A store of its own for each: every query is its store's first lookup.
    queries.forEach((q, i) => {
      const fresh = Store.open(path);
      expect(['first', ...(top(q, fresh) ?? [])]).toEqual(['first', ids[i], TITLES[i]]);
      fresh.close();
    });
    top('warm the map');
    queries.forEach((q, i) =>
      expect(['map', ...(top(q) ?? [])]).toEqual(['map', ids[i], TITLES[i]]),
    );
  });

  it('a query that only contains a title, or matches it as a LIKE pattern, is no title match', () => {
    expect(top('kafka rebalancing')).toBeNull();
    expect(top('50x_done migration')).toBeNull();
  });
});
