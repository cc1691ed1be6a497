/** Small display formatters shared by the app and the readable CLI output. Pure. */

/** `12,345`. (Not Intl.NumberFormat: constructing one took ~16 ms at module load, measured alone.) */
export function formatCount(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `3d`, `2w`, `5mo`: how long ago, in four columns at most. */
export function age(epochSeconds: number, nowSeconds: number): string {
  if (!Number.isFinite(epochSeconds)) return '?';
  const d = Math.max(0, nowSeconds - epochSeconds);
  if (d < 60) return 'now';
  if (d < 3600) return `${Math.floor(d / 60)}m`;
  if (d < 86400) return `${Math.floor(d / 3600)}h`;
  if (d < 86400 * 14) return `${Math.floor(d / 86400)}d`;
  if (d < 86400 * 60) return `${Math.floor(d / 604800)}w`;
  if (d < 86400 * 730) return `${Math.floor(d / 2592000)}mo`;
  return `${Math.floor(d / 31536000)}y`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `2026-03-01 14:02` in local time; `?` for a value that is not a time. */
export function clockTime(epochSeconds: number): string {
  if (!Number.isFinite(epochSeconds)) return '?';
  const d = new Date(epochSeconds * 1000);
  if (Number.isNaN(d.getTime())) return '?';
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** `~/…` for paths under the home directory. */
export function tildePath(path: string, home: string): string {
  if (home && (path === home || path.startsWith(home.endsWith('/') ? home : `${home}/`)))
    return `~${path.slice(home.replace(/\/$/, '').length)}`;
  return path;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
