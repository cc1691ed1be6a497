import { readdirSync, readlinkSync } from 'node:fs';

/**
 * The files among `paths` (and their -wal/-shm) that process `pid` has open,
 * read from /proc/<pid>/fd as the agent does before its maintenance.
 */
export function openStoreFiles(path: string, pid: number | 'self' = 'self'): string[] {
  const wanted = new Set([path, `${path}-wal`, `${path}-shm`]);
  const dir = `/proc/${pid}/fd`;
  const held: string[] = [];
  let fds: string[] = [];
  try {
    fds = readdirSync(dir);
  } catch {
    return held;
  }
  for (const fd of fds) {
    try {
      const target = readlinkSync(`${dir}/${fd}`);
      if (wanted.has(target)) held.push(target);
    } catch {
      // The descriptor closed while we looked.
    }
  }
  return held;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` is true or `ms` pass; returns the last result. */
export async function waitFor(check: () => boolean, ms: number, step = 100): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await sleep(step);
  }
  return check();
}
