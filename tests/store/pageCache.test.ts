/**
 * The app's read connections to a Hermes store have a small page cache (budgets.ts
 * STORE_CACHE_KIB), however they were made: better-sqlite3's own default is 16,000
 * KiB, and what the app's threads fill of it stays in the process's RSS after SQLite
 * frees it. One-shot readers keep the 16,000 (a warm search is faster with it).
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { STORE_CACHE_KIB } from '../../src/budgets.js';
import { generateStore } from '../../src/demo/generate.js';
import { listFacts } from '../../src/store/facts.js';
import { browse } from '../../src/store/browse.js';
import { Store } from '../../src/store/store.js';
import { fixtureCopy, tempDir } from '../helpers/fixtures.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { smallPageCache } from '../../src/store/open.js';

const ROOT = join(import.meta.dirname, '..', '..');

const cacheOf = (db: Database.Database): number =>
  db.pragma('cache_size', { simple: true }) as number;

describe('the page cache of a store connection', () => {
  it('is better-sqlite3’s 16,000 KiB for a one-shot reader, the budget once a thread asks, by path or by the main thread’s plan', () => {
    const path = fixtureCopy(30);
    const raw = new Database(path, { readonly: true });
    // What a connection gets without lookback's pragma (better-sqlite3's build default).
    expect(cacheOf(raw)).toBe(-16_000);
    raw.close();
    expect(STORE_CACHE_KIB).toBeLessThan(16_000);

    // The command line, the library and MCP: a warm search is faster with the big cache.
    const oneShot = Store.open(path);
    expect(cacheOf(oneShot.db)).toBe(-16_000);
    oneShot.close();

    smallPageCache();
    const store = Store.open(path);
    expect(cacheOf(store.db)).toBe(-STORE_CACHE_KIB);
    // The query worker connects by the main thread's plan.
    const viaPlan = Store.open(path, { plan: store.openPlan });
    expect(cacheOf(viaPlan.db)).toBe(-STORE_CACHE_KIB);
    viaPlan.close();
    store.close();
  });

  it('is asked for by each of the app’s threads before it opens a store', () => {
    // The main thread (run.tsx), the query worker and the embed worker: each is its own
    // thread with its own module state, so each must ask, before its first Store.open.
    for (const file of [
      'src/tui/run.tsx',
      'src/app/worker/entry.ts',
      'src/app/worker/embedEntry.ts',
    ]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const ask = text.indexOf('smallPageCache();');
      expect(ask, file).toBeGreaterThan(0);
      expect(ask, file).toBeLessThan(text.indexOf('Store.open('));
    }
  });

  it('still answers a count over every message row of a store larger than the cache', () => {
    const path = join(tempDir(), 'big.db');
    generateStore(path, {
      layout: 30,
      sessions: 40,
      seed: 5,
      longSessions: 1,
      longSessionMessages: 4_000,
    });
    const store = Store.open(path);
    const raw = new Database(path, { readonly: true });
    try {
      const ids = browse(store, { limit: 1_000, all: true }).map((r) => [r.session_id]);
      const facts = listFacts(store, ids);
      // The same counts as a connection with the default cache, row by row.
      const counted = raw.prepare(`SELECT count(*) FROM messages WHERE session_id = ?`).pluck();
      const visible = facts.map((f) => f.messages);
      expect(visible.reduce((a, b) => a + b, 0)).toBeGreaterThan(4_000);
      for (const [i, [id]] of ids.entries())
        expect(visible[i]).toBeLessThanOrEqual(counted.get(id) as number);
      // The file is bigger than the cache: the scan re-reads pages rather than holding them.
      expect(raw.pragma('page_count', { simple: true }) as number).toBeGreaterThan(
        (STORE_CACHE_KIB * 1024) / 4096,
      );
    } finally {
      raw.close();
      store.close();
    }
  });
});
