/** ISO-8601 (UTC) for an epoch-seconds value as stored; "unknown" when there is none. */
export function isoTime(epochSeconds: number | null | undefined): string {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds)) return 'unknown';
  const d = new Date(epochSeconds * 1000);
  if (Number.isNaN(d.getTime())) return 'unknown';
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const UNIT_SECONDS: Record<string, number> = { h: 3600, d: 86_400, w: 7 * 86_400 };

/** Local midnight of the day `now` falls in, in epoch seconds. */
function startOfDay(now: Date): number {
  const d = new Date(now.getTime());
  d.setHours(0, 0, 0, 0);
  return d.getTime() / 1000;
}

/**
 * A point in time for `--after` / `--before` (the agent's `after` / `before`),
 * in epoch seconds, or null when `text` is none of: an ISO date (`2026-08-01`,
 * local midnight), an ISO date-time (`2026-08-01T14:30`, local unless it names
 * a zone: `Z`, `+02:00`), a span back from `now` (`7d`, `24h`, `2w`), `today`
 * or `yesterday` (local midnight). Pure: `now` is the only clock.
 */
export function parseWhen(text: string, now: Date): number | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (t === 'today') return startOfDay(now);
  if (t === 'yesterday') {
    const d = new Date(now.getTime());
    d.setDate(d.getDate() - 1);
    return startOfDay(d);
  }
  const span = /^(\d{1,6})\s*([hdw])$/.exec(t);
  if (span) return Math.floor(now.getTime() / 1000) - Number(span[1]) * UNIT_SECONDS[span[2]!]!;
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(z|[+-]\d{2}:?\d{2})?)?$/.exec(
      t,
    );
  if (!iso) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = iso;
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [Y, M, D, H, MI, S] = parts;
  if (M < 1 || M > 12 || D < 1 || D > 31 || H > 23 || MI > 59 || S > 59) return null;
  const ms = frac ? Number(`0.${frac}`) * 1000 : 0;
  let when: number;
  if (zone) {
    const sign = zone === 'z' ? 0 : zone.startsWith('-') ? -1 : 1;
    const digits = zone === 'z' ? '0000' : zone.slice(1).replace(':', '');
    const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
    when = Date.UTC(Y, M - 1, D, H, MI, S, ms) - offset * 60_000;
    // Reject dates that rolled over (2026-02-30).
    if (new Date(Date.UTC(Y, M - 1, D)).getUTCDate() !== D) return null;
  } else {
    const local = new Date(Y, M - 1, D, H, MI, S, ms);
    if (local.getDate() !== D || local.getMonth() !== M - 1) return null;
    when = local.getTime();
  }
  return when / 1000;
}
