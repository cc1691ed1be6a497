/**
 * Between passes the app's indexer holds nothing (the guide: no file, lock or
 * connection while idle): the real agents worker, in its every-few-seconds
 * mode, has no handle on the index or its -wal once a pass has ended; and the
 * app's agents readers read with the app's small page cache, where a one-shot
 * reader keeps better-sqlite3's 16,000 KiB.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexReader } from '../../src/agents/appReads.js';
import { findAgentsWorker, keepIndexing } from '../../src/agents/background.js';
import { AGENTS } from '../../src/agents/model.js';
import { STORE_CACHE_KIB } from '../../src/budgets.js';
import { smallPageCache } from '../../src/store/open.js';
import { tempDir } from '../helpers/fixtures.js';
import { buildHome, indexSamples } from './samples.js';

/** This process's open files under `dir` (worker threads share the process's descriptors). */
function openUnder(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

let stop: (() => void) | null = null;
afterEach(() => stop?.());

describe("the app's agents index connections", () => {
  it('the indexer holds no connection once a pass has ended', async () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    buildHome(home);
    const indexFile = join(dir, 'index', 'agents.db');
    const passes: number[] = [];
    let failed: string | null = null;
    const worker = findAgentsWorker(new URL('../../dist/cli.js', import.meta.url).href);
    expect(worker, 'npm run build first').not.toBeNull();
    // The worker reads the agents' homes under HOME, as the app's does (a copy of this env).
    const was = process.env.HOME;
    process.env.HOME = home;
    const first = new Promise<void>((resolve) => {
      stop = keepIndexing(
        {
          onProgress: () => {},
          onPass: (r) => {
            passes.push(r.files);
            resolve();
          },
          onError: (m) => {
            failed = m;
            resolve();
          },
        },
        {
          indexFile,
          everyMs: 60_000,
          workerFile: worker!,
        },
      ).stop;
    });
    process.env.HOME = was;
    await first;
    expect(failed).toBeNull();
    expect(passes[0]).toBeGreaterThan(0);
    // The pass wrote the index (so it had it open) and is over: nothing of it is open now.
    const reader = new IndexReader(indexFile, [...AGENTS]);
    try {
      expect(reader.recent(5, true).length).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
    expect(openUnder(join(dir, 'index'))).toEqual([]);
  }, 60_000);

  it('an app thread reads the index with the small page cache; a one-shot reader keeps 16,000 KiB', () => {
    const dir = tempDir();
    const indexFile = join(dir, 'agents.db');
    indexSamples(join(dir, 'home'), indexFile);
    const cacheOf = (r: IndexReader): number => {
      r.recent(1, true); // opens the connection
      return r['db']!.pragma('cache_size', { simple: true }) as number;
    };
    const oneShot = new IndexReader(indexFile, [...AGENTS]);
    expect(cacheOf(oneShot)).toBe(-16_000);
    oneShot.close();
    smallPageCache();
    const app = new IndexReader(indexFile, [...AGENTS]);
    expect(cacheOf(app)).toBe(-STORE_CACHE_KIB);
    app.close();
  });
});
