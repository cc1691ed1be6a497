import { SUPERSEDE_AFTER_MS } from '../../src/budgets.js';
import { describe, expect, it } from 'vitest';
import type { QueryRequest, QueryResponse } from '../../src/app/data/queries.js';
import { QueryClient, type BackendFactory } from '../../src/app/worker/client.js';

function search(generation: number): QueryRequest {
  return {
    kind: 'search',
    generation,
    query: `q${generation}`,
    sort: 'relevance',
    roles: ['user'],
    limit: 5,
  };
}

/** A backend that runs nothing until told, and can be restarted (like a worker). */
function fakeBackend() {
  const posted: QueryRequest[] = [];
  let restarts = 0;
  let respond: (r: QueryResponse) => void = () => undefined;
  const factory: BackendFactory = (onResponse) => {
    respond = onResponse;
    return {
      post: (req) => posted.push(req),
      restart: () => {
        restarts++;
        return true;
      },
      close: () => undefined,
    };
  };
  return {
    factory,
    posted,
    restarts: () => restarts,
    finish: (req: QueryRequest) => {
      respond({ kind: 'done', generation: req.generation, request: req.kind });
    },
  };
}

describe('query client', () => {
  it('runs one request at a time and keeps only the newest waiting one', () => {
    const b = fakeBackend();
    const now = 0;
    const c = new QueryClient(
      b.factory,
      () => undefined,
      null,
      () => now,
    );
    c.request(search(1));
    c.request(search(2));
    c.request(search(3));
    expect(b.posted.map((r) => r.generation)).toEqual([1]);
    b.finish(search(1));
    expect(b.posted.map((r) => r.generation)).toEqual([1, 3]);
    expect(b.restarts()).toBe(0);
  });

  it('cancels a search that has run too long when a newer one arrives', () => {
    const b = fakeBackend();
    let now = 0;
    const c = new QueryClient(
      b.factory,
      () => undefined,
      null,
      () => now,
    );
    c.request(search(1));
    now = SUPERSEDE_AFTER_MS + 1;
    c.request(search(2));
    expect(b.restarts()).toBe(1);
    expect(b.posted.map((r) => r.generation)).toEqual([1, 2]);
  });

  it('puts searches ahead of list reloads', () => {
    const b = fakeBackend();
    const c = new QueryClient(
      b.factory,
      () => undefined,
      null,
      () => 0,
    );
    c.request({ kind: 'recent', generation: 1, all: false, limit: 10 });
    c.request({ kind: 'recent', generation: 2, all: false, limit: 10 });
    c.request(search(1));
    b.finish({ kind: 'recent', generation: 1, all: false, limit: 10 });
    expect(b.posted.map((r) => `${r.kind}${r.generation}`)).toEqual(['recent1', 'search1']);
  });
});
