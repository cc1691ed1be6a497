/**
 * Complete lines of a file that another program is appending to (AGENTS.md rule
 * 4): only `\n`-terminated lines count, the offset stops after the last one, and a
 * line longer than the bound is skipped while streaming, never held whole.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Problems } from './model.js';
import { LINE_READ_CHUNK } from '../budgets.js';

/** Lines above this are skipped (one Claude line can be tens of MB of base64). */
export const MAX_LINE_BYTES = Number(process.env.LOOKBACK_MAX_LINE_BYTES ?? 32 * 1024 * 1024);

export interface LinesRead {
  /** Byte offset just after the last complete line read. */
  end: number;
  /** Bytes after `end`: a line still being written. */
  pending: number;
}

/**
 * Calls `onLine` with each complete line from `offset` on, and the line's 0-based
 * number counted from `firstLineNo`. Reads at most to `limit` (the size seen at
 * stat time) so a pass is a consistent prefix.
 */
export function readLines(
  path: string,
  offset: number,
  limit: number,
  onLine: (line: string, lineNo: number) => void,
  problems: Problems,
  firstLineNo = 0,
): LinesRead & { lines: number } {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(LINE_READ_CHUNK);
  const parts: Buffer[] = [];
  let partLen = 0;
  let skipping = false;
  let pos = offset;
  let end = offset;
  let lineNo = firstLineNo;
  try {
    while (pos < limit) {
      const n = readSync(fd, buf, 0, Math.min(LINE_READ_CHUNK, limit - pos), pos);
      if (n <= 0) break;
      let start = 0;
      for (;;) {
        const nl = buf.indexOf(10, start);
        if (nl < 0 || nl >= n) break;
        if (skipping) {
          problems.add(`line over ${Math.round(MAX_LINE_BYTES / 1048576)} MiB skipped`);
          skipping = false;
        } else {
          const piece = buf.subarray(start, nl);
          const line =
            partLen === 0
              ? piece.toString('utf8')
              : Buffer.concat([...parts, piece], partLen + piece.length).toString('utf8');
          onLine(line, lineNo);
        }
        lineNo++;
        parts.length = 0;
        partLen = 0;
        start = nl + 1;
        end = pos + start;
      }
      if (start < n && !skipping) {
        const rest = Buffer.from(buf.subarray(start, n));
        parts.push(rest);
        partLen += rest.length;
        if (partLen > MAX_LINE_BYTES) {
          parts.length = 0;
          partLen = 0;
          skipping = true;
        }
      }
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  return { end, pending: limit - end, lines: lineNo - firstLineNo };
}

/** JSON.parse that counts instead of throwing; objects only. */
export function parseRecord(line: string, problems: Problems): Record<string, unknown> | null {
  if (line.trim().length === 0) return null;
  try {
    const v: unknown = JSON.parse(line);
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      return v as Record<string, unknown>;
    problems.add('line is JSON but not an object');
  } catch {
    problems.add('line is not valid JSON (truncated or garbage)');
  }
  return null;
}
