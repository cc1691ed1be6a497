import { statSync } from 'node:fs';
import { SETTLED_MS } from '../budgets.js';

/**
 * What stat() says about a store's main file and its -wal: enough to tell,
 * without holding either open, whether anything may have been written since
 * the last look (the agent commits to the -wal in WAL mode, to the main file
 * in rollback-journal mode; a checkpoint touches both).
 */
export interface FilesStamp {
  /** One comparable string: inode, size and mtime (ns) of both files. */
  key: string;
  /** The newest mtime of the two, in ms. */
  newestMs: number;
}

function part(path: string): { key: string; mtimeMs: number } {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!st) return { key: '-', mtimeMs: 0 };
    return { key: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`, mtimeMs: Number(st.mtimeMs) };
  } catch {
    return { key: '?', mtimeMs: 0 };
  }
}

export function stampFiles(path: string): FilesStamp {
  const db = part(path);
  const wal = part(`${path}-wal`);
  return { key: `${db.key}|${wal.key}`, newestMs: Math.max(db.mtimeMs, wal.mtimeMs) };
}

export function settled(stamp: FilesStamp, takenAtMs: number): boolean {
  return takenAtMs - stamp.newestMs >= SETTLED_MS;
}
