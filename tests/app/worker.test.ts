import { SUPERSEDE_AFTER_MS } from '../../src/budgets.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerQuery, type QueryRequest, type QueryResponse } from '../../src/app/data/queries.js';
import { QueryClient, findWorkerFile, workerBackend } from '../../src/app/worker/client.js';
import { Store } from '../../src/store/store.js';
import { makeStore } from './harness.js';

const WORKER = resolve(import.meta.dirname, '../../dist/query-worker.js');

const search = (generation: number, query: string): QueryRequest => ({
  kind: 'search',
  generation,
  query,
  sort: 'newest',
  roles: ['user', 'assistant'],
  limit: 10,
});

/** The same request answered on this thread, for the worker's answer to be compared with. */
function inline(path: string, req: QueryRequest): QueryResponse[] {
  const store = Store.open(path);
  const out: QueryResponse[] = [];
  try {
    answerQuery(store, req, (r) => out.push(r));
  } finally {
    store.close();
  }
  return out;
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

const text = (r: QueryResponse) =>
  r.kind === 'search' ? r.items.map((i) => i.snippet.map((s) => s.text).join('')) : [];

describe('query worker (the built bundle)', () => {
  // The bundle is part of the tree under test (`npm run build`); a missing one is a failure, not a skip.
  beforeAll(() => {
    expect(existsSync(WORKER), `${WORKER} is missing: run npm run build`).toBe(true);
  });

  it('answers a search off the main thread with the same rows and snippets as the store', async () => {
    const path = makeStore(20);
    const got: QueryResponse[] = [];
    const client = new QueryClient(workerBackend(WORKER, { path, profile: 'default' }), (r) =>
      got.push(r),
    );
    client.request(search(1, 'deploy'));
    await until(() => got.some((r) => r.kind === 'done'));
    client.close();
    const want = inline(path, search(1, 'deploy'));
    const mine = got.find((r) => r.kind === 'search');
    const theirs = want.find((r) => r.kind === 'search');
    expect(mine).toEqual(theirs);
    expect(text(mine!).length).toBeGreaterThan(0);
    for (const t of text(mine!)) expect(t.toLowerCase()).toContain('deploy');
  });

  it('starts its thread a macrotask later: a client closed before then answers nothing', async () => {
    // A request made at once waiting for the thread is the test above (it asks right away).
    const path = makeStore(20);
    const got: QueryResponse[] = [];
    const early = new QueryClient(workerBackend(WORKER, { path, profile: 'default' }), (r) =>
      got.push(r),
    );
    early.request(search(1, 'deploy'));
    early.close();
    await new Promise((r) => setTimeout(r, 500));
    expect(got).toEqual([]);
  });

  it('supersedes stale searches: a waiting one is replaced, a long-running one is killed, a young one finishes', async () => {
    const path = makeStore(20);
    let clock = 0;
    const got: QueryResponse[] = [];
    const client = new QueryClient(
      workerBackend(WORKER, { path, profile: 'default' }),
      (r) => got.push(r),
      null,
      () => clock,
    );
    // 1 starts at once; 2 waits.
    client.request(search(1, 'billing'));
    client.request(search(2, 'ledger'));
    // 1 has now "run" longer than the limit: 3 kills it (the worker restarts), takes 2's
    // place and runs at once; 4 arrives while 3 is young, so it waits for 3 to finish.
    clock = SUPERSEDE_AFTER_MS + 1;
    client.request(search(3, 'webhooks'));
    client.request(search(4, 'deploy'));
    client.request({ kind: 'recent', generation: 1, all: false, limit: 100 });
    await until(() => got.some((r) => r.kind === 'recent'));
    // Let anything stale that could still arrive arrive before asserting it never did.
    await new Promise((r) => setTimeout(r, 200));
    client.close();
    const answered = got.filter((r) => r.kind === 'search').map((r) => r.generation);
    // Neither 1 (killed in the worker) nor 2 (replaced while waiting) ever answers.
    expect(answered).toEqual([3, 4]);
    const four = got.filter((r) => r.kind === 'search')[1]!;
    expect(four).toMatchObject({ forText: 'deploy' });
    expect(four).toEqual(inline(path, search(4, 'deploy')).find((r) => r.kind === 'search'));
    const recent = got.find((r) => r.kind === 'recent');
    expect(recent).toEqual(
      inline(path, { kind: 'recent', generation: 1, all: false, limit: 100 }).find(
        (r) => r.kind === 'recent',
      ),
    );
  });

  it('finds the worker next to a bundle entry or one directory up from a chunk', () => {
    expect(findWorkerFile('file:///nonexistent/dir/chunk.js')).toBeNull();
    expect(findWorkerFile(`file://${resolve(import.meta.dirname, '../../dist/chunks/x.js')}`)).toBe(
      WORKER,
    );
    expect(findWorkerFile(`file://${resolve(import.meta.dirname, '../../dist/lookback.js')}`)).toBe(
      WORKER,
    );
  });
});
