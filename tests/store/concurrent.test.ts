import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Store } from '../../src/store/store.js';
import { discover, hitsInSessions } from '../../src/store/search.js';
import { scroll } from '../../src/store/recall.js';
import { sessionEdge } from '../../src/store/messages.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { lookback } from '../helpers/cli.js';

const WRITER = resolve(import.meta.dirname, '../helpers/writer.mjs');

describe('reading while the agent writes', () => {
  it('search and scroll keep working and see new messages', async () => {
    const path = buildStore(30, (db) => {
      insertSession(db, { id: 'live', started_at: 1_789_999_000 });
      insertMessage(db, { session_id: 'live', content: 'the first heron of the day' });
    });
    const store = Store.open(path);
    const writer = spawn(process.execPath, [WRITER, path, 'live', '400', '2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => writer.on('exit', r));
    let running = true;
    void exited.then(() => (running = false));
    const seen: number[] = [];
    let cliRuns = 0;
    while (running) {
      const hits = hitsInSessions(store, 'heron', ['live']);
      seen.push(hits.length);
      const r = discover(store, 'heron lake', { limit: 3 });
      expect(r.results.length).toBeLessThanOrEqual(1);
      const tail = sessionEdge(store, 'live', 'tail', 1)[0]!;
      // The writer may append between the two reads, so the tail can move on.
      expect(scroll(store, 'live', tail.id, 5).messages.map((m) => m.id)).toContain(tail.id);
      if (cliRuns < 3) {
        cliRuns++;
        const out = lookback(['search', 'heron', '--db', path, '--json']);
        expect(out.code).toBe(0);
        expect(out.json().success).toBe(true);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await exited).toBe(0);
    const final = hitsInSessions(store, 'heron', ['live']).length;
    expect(final).toBe(401);
    // New messages became visible while reading, not only at the end.
    expect(new Set(seen).size).toBeGreaterThan(3);
    store.close();
  });
});
