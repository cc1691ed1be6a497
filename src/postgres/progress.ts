/**
 * The progress line of a long PostgreSQL sync (a first copy of a big profile
 * takes minutes), drawn on stderr while the command that opened the profile
 * waits: only on a terminal, only once the sync has run PG_PROGRESS_AFTER_MS or
 * from the start when it copies PG_PROGRESS_BIG_COPY messages or more (a small
 * or idle sync draws nothing; a big one never depends on how fast the machine
 * is to say how far it is), redrawn at most every 100 ms, and
 * erased when the sync ends. It writes to fd 2 itself: it runs in the sync's
 * worker while the main thread is blocked waiting (./run.ts syncBlocking), so
 * the main thread's stderr stream could not carry it.
 */
import { writeSync } from 'node:fs';
import { PG_PROGRESS_AFTER_MS, PG_PROGRESS_BIG_COPY } from '../budgets.js';
import type { SyncProgress } from './feed.js';

/** One line: `profile team: copying from PostgreSQL ██████░░░░  42%  95,000/226,449 messages`. */
export function progressLine(p: SyncProgress): string {
  const n = (x: number) => x.toLocaleString('en-US');
  // A profile name is the agent's [a-z0-9_-] (store/profiles.ts); anything else is dropped, not drawn.
  const who = `profile ${p.profile.replace(/[^\w.-]/g, '')}`;
  if (p.phase === 'index')
    return `${who}: building the search index over ${n(p.done)} messages copied from PostgreSQL`;
  if (p.total === null || p.total <= 0)
    return `${who}: copying from PostgreSQL, ${n(p.done)} messages`;
  const frac = Math.min(1, p.done / p.total);
  const width = 24;
  const full = Math.round(frac * width);
  const bar = '█'.repeat(full) + '░'.repeat(width - full);
  return `${who}: copying from PostgreSQL ${bar} ${String(Math.round(frac * 100)).padStart(3)}%  ${n(p.done)}/${n(p.total)} messages`;
}

/** The drawer a sync reports to; `done` erases what was drawn. */
export function progressWriter(
  fd = 2,
  afterMs = PG_PROGRESS_AFTER_MS,
): { update: (p: SyncProgress) => void; done: () => void } {
  const t0 = Date.now();
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      const big = p.total !== null && p.total >= PG_PROGRESS_BIG_COPY;
      if ((!big && now - t0 < afterMs) || (now - last < 100 && p.phase === 'copy')) return;
      last = now;
      drawn = true;
      try {
        writeSync(fd, `\r\u001b[2K${progressLine(p)}`);
      } catch {
        // A closed terminal: the sync goes on without its line.
      }
    },
    done() {
      if (!drawn) return;
      drawn = false;
      try {
        writeSync(fd, '\r\u001b[2K');
      } catch {
        // As above.
      }
    },
  };
}
