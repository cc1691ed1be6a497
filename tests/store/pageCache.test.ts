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
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { PROMPT, Term, requireTmux, shellEnv } from '../helpers/tmux.js';
import { smallPageCache } from '../../src/store/open.js';

const APP = resolve(import.meta.dirname, '../../dist/lookback.js');

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

  it('is the budget on every store connection of the app’s main thread, query worker and embed worker, in the real app', async () => {
    // The built app in tmux, each of its threads preloaded with a probe that records the
    // page cache of every SQLite connection it uses (pageCacheProbe.mjs).
    requireTmux();
    // An embedder on loopback, so the embed worker reads the store's messages in the background.
    let embedded = 0;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const { input } = JSON.parse(raw || '{}') as { input: string[] };
        embedded += input.length;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ embeddings: input.map((t) => [t.length % 7, 1, 0.5]) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const embedder = `ollama:m@http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = tempDir('lookback-pagecache-');
    const store = join(dir, 'state.db');
    generateStore(store, { layout: 30, sessions: 60, seed: 11 });
    mkdirSync(join(dir, 'cache'));
    const probe = join(dir, 'probe.jsonl');
    const term = new Term(
      'pagecache',
      {
        ...shellEnv(dir, APP),
        NODE_OPTIONS: `--import ${join(import.meta.dirname, 'pageCacheProbe.mjs')}`,
        LOOKBACK_TEST_CACHE_PROBE: probe,
      },
      dir,
    );
    try {
      await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
      term.run(`CI=false node "$LB" --db state.db --embedder ${embedder}`);
      await term.waitFor('the app', (s) => s.includes('lookback · ') && s.includes('? help'));
      // A search: the query worker reads the store.
      term.type('/billing');
      await term.waitFor('results', (s) => /Results: \d+ sessions/.test(s));
      await term.waitFor('the embed worker embedding', () => embedded > 0);
      term.key('C-c');
      await term.waitFor('the app gone', () => term.childPid() === null);
    } finally {
      term.kill();
      await new Promise((r) => server.close(r));
    }
    const seen = readFileSync(probe, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { thread: number; conn: number; file: string; cache: number });
    // Each connection to the store, by thread, with its page cache as last set.
    const last = new Map<string, number>();
    for (const r of seen)
      if (r.file === store)
        last.set(`${r.thread === 0 ? 'main' : 'worker'} ${r.thread}/${r.conn}`, r.cache);
    const threads = new Set([...last.keys()].map((k) => k.split('/')[0]!));
    // The main thread, and two workers (the query worker and the embed worker).
    expect([...threads].filter((t) => t === 'main 0')).toHaveLength(1);
    expect([...threads].filter((t) => t.startsWith('worker '))).toHaveLength(2);
    for (const [conn, cache] of last) expect(cache, conn).toBe(-STORE_CACHE_KIB);
    rmSync(dir, { recursive: true, force: true });
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
