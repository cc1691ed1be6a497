/** Figures and table rows shared by the bench sections. */

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** Nearest-rank percentile (p in 0..100); NaN for no samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  if (p === 50) return s[Math.floor(s.length / 2)]!;
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))]!;
}

/** The percentiles and mean the latency reports print, of one set of samples. */
export function summary(xs: readonly number[]) {
  return {
    n: xs.length,
    p50: percentile(xs, 50),
    p95: percentile(xs, 95),
    p99: percentile(xs, 99),
    mean: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length),
  };
}

export const fmt = (ms: number): string =>
  Number.isNaN(ms) ? 'n/a' : `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One table row: a wide first column, then right-aligned cells. */
export function row(cells: readonly string[], first = 44, width = 12): void {
  console.log(cells.map((c, i) => (i === 0 ? c.padEnd(first) : c.padStart(width))).join(''));
}
