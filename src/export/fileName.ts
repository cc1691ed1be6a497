/**
 * File names for exports: readable (date, title words, short id), safe on
 * every common filesystem (no separators, no control or reserved characters,
 * no leading dot, bounded length) and unique in the target directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sanitizeLine } from '../text/sanitize.js';
import { graphemes } from '../text/width.js';
import { TITLE_SLUG_MAX } from '../budgets.js';

/** Give up looking for a free `-N` suffix after this many (something is odd with the directory). */
const MAX_SUFFIX = 9_999;

export interface NameInfo {
  sessionId: string;
  title?: string | null;
  /** Epoch seconds. */
  startedAt?: number | null;
}

function slug(title: string): string {
  const words =
    sanitizeLine(title)
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  let out = '';
  for (const g of graphemes(words.join('-'))) {
    if (out.length + g.length > TITLE_SLUG_MAX) break;
    out += g;
  }
  return out.replace(/-+$/, '');
}

function day(epochSeconds: number | null | undefined): string | null {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds)) return null;
  const d = new Date(epochSeconds * 1000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
}

/** `2026-03-01-billing-migration-plan-ab12cd34.md`: date, title words, the id's last 8 safe characters. */
export function exportBaseName(info: NameInfo, ext: 'md' | 'json'): string {
  const id =
    sanitizeLine(info.sessionId)
      .replace(/[^A-Za-z0-9_-]/g, '')
      .slice(-8) || 'session';
  const parts = [day(info.startedAt), slug(info.title ?? ''), id].filter(
    (p): p is string => p !== null && p !== '',
  );
  return `${parts.join('-')}.${ext}`;
}

/**
 * A path in `dir` for the export that does not exist yet: the base name, or
 * with `-2`, `-3`… before the extension. `exists` is injected for tests.
 */
export function uniqueExportPath(
  dir: string,
  info: NameInfo,
  ext: 'md' | 'json',
  exists: (file: string) => boolean = existsSync,
): string {
  const base = exportBaseName(info, ext);
  const stem = base.slice(0, -(ext.length + 1));
  let candidate = path.join(dir, base);
  for (let n = 2; exists(candidate); n++) {
    if (n > MAX_SUFFIX) throw new Error(`no free file name for ${base} in ${dir}`);
    candidate = path.join(dir, `${stem}-${n}.${ext}`);
  }
  return candidate;
}
