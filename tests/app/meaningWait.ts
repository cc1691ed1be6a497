/** The search by meaning's journeys (journey-meaning, journey-meaning-agents): type a query, wait for its answer. */
import type { ResultItem } from '../../src/app/model.js';
import type { Harness } from './harness.js';

/** Types `q` on the open search line and waits for its results (a model may load first: 20 s). */
export async function meaningResults(h: Harness, q: string, what: string): Promise<ResultItem[]> {
  await h.type(q);
  await h.waitFor(
    () =>
      !h.state().results.busy &&
      h.state().results.forText === q &&
      h.state().results.items.length > 0,
    what,
    20_000,
  );
  return h.state().results.items;
}
