/**
 * The exact hits of a search answer: relaxed hits (`match: "relaxed"`, src/store/relaxed.ts)
 * fill a short page after them and are marked, so "nothing has these words" is said by
 * the exact hits alone.
 */
export function exactHits(p: Record<string, unknown>): Record<string, unknown>[] {
  const rows = Array.isArray(p.results) ? (p.results as Record<string, unknown>[]) : [];
  return rows.filter((r) => r.match !== 'relaxed');
}

export function exactCount(p: Record<string, unknown>): number {
  return exactHits(p).length;
}
