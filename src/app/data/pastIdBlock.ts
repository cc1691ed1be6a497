/**
 * Numbering hits for the app, leaving out the ones it cannot number: a hit in a
 * row past the app's id block (src/ids/app.ts) throws IdRangeError from its
 * numbering. That hit is left out and said once through `skipped` (the line,
 * how many), so one bad row does not drop its whole index from a search.
 * Without `skipped` the error is thrown as before.
 */
import { IdRangeError } from '../../ids/app.js';

export function numberEach<H, R>(
  hits: readonly H[],
  number: (hit: H) => R,
  skipped?: (line: string, hits: number) => void,
): R[] {
  const items: R[] = [];
  let past: IdRangeError | null = null;
  let n = 0;
  for (const h of hits)
    try {
      items.push(number(h));
    } catch (err) {
      if (!(err instanceof IdRangeError) || !skipped) throw err;
      past ??= err;
      n++;
    }
  if (past && skipped) skipped(n > 1 ? `${past.message} (${n} hits)` : past.message, n);
  return items;
}
