/**
 * The query client with searches by meaning beside full-text ones (#22): one
 * request at a time; words replace a waiting search by meaning and the other
 * way round; a search by meaning left for words is stopped once it has run
 * past SUPERSEDE_AFTER_MS (it may wait on a model or a server), while a newer
 * search by meaning waits for the one running (restarting would load the model again).
 */
import { describe, expect, it } from 'vitest';
import { SUPERSEDE_AFTER_MS } from '../../src/budgets.js';
import type { QueryRequest } from '../../src/app/data/queries.js';
import { QueryClient, type BackendFactory } from '../../src/app/worker/client.js';

/** A client over a recording backend, on a clock the test sets. */
function client(): {
  c: QueryClient;
  b: ReturnType<typeof recording>;
  at: (ms: number) => void;
} {
  let clock = 0;
  const b = recording();
  const c = new QueryClient(
    b.factory,
    () => undefined,
    null,
    () => clock,
  );
  return { c, b, at: (ms) => (clock = ms) };
}

function recording(): { factory: BackendFactory; posted: QueryRequest[]; restarts: () => number } {
  const posted: QueryRequest[] = [];
  let restarts = 0;
  const factory: BackendFactory = () => ({
    post: (r) => posted.push(r),
    restart: () => {
      restarts++;
      return true;
    },
    close: () => undefined,
  });
  return { factory, posted, restarts: () => restarts };
}

const meaning = (generation: number): QueryRequest => ({
  kind: 'meaning',
  generation,
  query: 'dog cat',
  forText: 'dog cat',
  mode: 'hybrid',
  embedder: 'ollama:m',
  limit: 10,
  background: true,
});
const search = (generation: number): QueryRequest => ({
  kind: 'search',
  generation,
  query: 'dog',
  sort: 'relevance',
  roles: ['user', 'assistant'],
  limit: 10,
});

describe('QueryClient with searches by meaning', () => {
  it('a newer search by meaning waits for the running one; a waiting one of the other kind is dropped', () => {
    const { c, b, at } = client();
    c.request(meaning(1));
    at(SUPERSEDE_AFTER_MS * 10);
    c.request(meaning(2));
    expect(b.restarts()).toBe(0);
    expect(b.posted.map((r) => r.generation)).toEqual([1]);
    // Words now: 1 has run past the limit, so it is stopped.
    c.request(search(3));
    expect(b.restarts()).toBe(1);
    // 2 (by meaning, waiting) was dropped for 3 (words): 3 runs at once.
    expect(b.posted.map((r) => `${r.kind}:${r.generation}`)).toEqual(['meaning:1', 'search:3']);
  });

  it('a young search by meaning is not stopped for words: they wait their turn', () => {
    const { c, b, at } = client();
    c.request(meaning(1));
    at(SUPERSEDE_AFTER_MS - 1);
    c.request(search(2));
    expect(b.restarts()).toBe(0);
    expect(b.posted.map((r) => r.generation)).toEqual([1]);
  });
});
