/**
 * Change signals a file's own stat misses, added to its mtime for the
 * unchanged test: a database's -wal, a legacy tree's per-session files.
 */
import { statSync } from 'node:fs';
import { storageSignatures } from '../parsers/opencodeLegacy.js';
import type { Format } from '../sourceFiles.js';

/** Whether a file's own stat is its whole change signal (all but a database and a legacy tree). */
export function statIsSignal(format: Format): boolean {
  return format !== 'sqlite' && format !== 'storage';
}

/** The legacy tree's per-session signatures folded into one number (FNV-1a) for the stat check. */
export function storageStamp(path: string): number {
  let h = 0x811c9dc5;
  for (const ch of JSON.stringify(storageSignatures(path))) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 1e3;
}

/** The -wal's mtime folded into the change signal (a checkpoint can leave the main file's size alone). */
export function walSignature(path: string): number {
  try {
    const w = statSync(`${path}-wal`);
    return w.mtimeMs / 1e6 + w.size;
  } catch {
    return 0;
  }
}
