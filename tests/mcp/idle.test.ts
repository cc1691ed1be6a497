/**
 * A long-lived server must not hold the agent's store open while the agent is
 * idle (the agent's maintenance checks /proc/<pid>/fd): after the Store's idle
 * close, no descriptor on the store, and the next call still answers.
 */
import { IDLE_CLOSE_MS } from '../../src/budgets.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readlinkSync } from 'node:fs';

import { fixtureCopy } from '../helpers/fixtures.js';
import { call, startServer, type Server } from './client.js';

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The store's files (main, -wal, -shm) that process `pid` has open. */
function held(path: string, pid: number): string[] {
  const wanted = new Set([path, `${path}-wal`, `${path}-shm`]);
  const out: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (wanted.has(target)) out.push(target);
    } catch {
      // Closed while we looked.
    }
  }
  return out;
}

describe('an idle MCP server', () => {
  it('holds no descriptor on the store, and answers the next call', async () => {
    const db = fixtureCopy(30);
    server = await startServer(['--db', db]);
    const pid = server.pid;
    const first = await call(server, { limit: 2 });
    expect(first.isError).toBe(false);
    expect(held(db, pid)).not.toEqual([]);
    const until = Date.now() + IDLE_CLOSE_MS + 3_000;
    while (held(db, pid).length > 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect(held(db, pid)).toEqual([]);
    const again = await call(server, { limit: 2 });
    expect(again.json).toEqual(first.json);
    expect(held(db, pid)).not.toEqual([]);
  });
});
