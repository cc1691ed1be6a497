import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueryResponse } from '../../src/app/data/queries.js';
import { QueryClient, findWorkerFile, workerBackend } from '../../src/app/worker/client.js';
import { makeStore } from './harness.js';

const WORKER = resolve(import.meta.dirname, '../../dist/query-worker.js');

describe('query worker (the built bundle)', () => {
  it.skipIf(!existsSync(WORKER))(
    'answers searches off the main thread and supersedes stale ones',
    async () => {
      const path = makeStore(20);
      const got: QueryResponse[] = [];
      const client = new QueryClient(workerBackend(WORKER, { path, profile: 'default' }), (r) =>
        got.push(r),
      );
      client.request({
        kind: 'search',
        generation: 1,
        query: 'billing',
        sort: 'relevance',
        roles: ['user', 'assistant'],
        limit: 10,
      });
      client.request({
        kind: 'search',
        generation: 2,
        query: 'deploy',
        sort: 'newest',
        roles: ['user', 'assistant'],
        limit: 10,
      });
      client.request({ kind: 'recent', generation: 1, all: false, limit: 100 });
      const deadline = Date.now() + 10_000;
      while (!got.some((r) => r.kind === 'recent') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      client.close();
      const searches = got.filter((r) => r.kind === 'search');
      // Generation 2 superseded 2 before it ran, or ran after it: either way its answer came.
      expect(searches.some((r) => r.generation === 2 && r.forText === 'deploy')).toBe(true);
      expect(got.find((r) => r.kind === 'recent')).toMatchObject({ kind: 'recent', generation: 1 });
    },
  );

  it('finds the worker next to a bundle entry or one directory up from a chunk', () => {
    expect(findWorkerFile('file:///nonexistent/dir/chunk.js')).toBeNull();
    if (existsSync(WORKER)) {
      expect(
        findWorkerFile(`file://${resolve(import.meta.dirname, '../../dist/chunks/x.js')}`),
      ).toBe(WORKER);
      expect(
        findWorkerFile(`file://${resolve(import.meta.dirname, '../../dist/lookback.js')}`),
      ).toBe(WORKER);
    }
  });
});
