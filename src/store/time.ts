/** ISO-8601 (UTC) for an epoch-seconds value as stored; "unknown" when there is none. */
export function isoTime(epochSeconds: number | null | undefined): string {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds)) return 'unknown';
  const d = new Date(epochSeconds * 1000);
  if (Number.isNaN(d.getTime())) return 'unknown';
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
