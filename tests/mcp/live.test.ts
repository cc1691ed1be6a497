/**
 * The server is long-lived while the agent keeps writing: a message committed
 * between two calls is in the second answer, and a store that is missing at
 * start (or deleted later) is an error result until it is there again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, fixtureCopy, tempDir } from '../helpers/fixtures.js';
import { call, startServer, type Server } from './client.js';

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Appends one message the way the agent does (its triggers keep the full-text index). */
function append(path: string, sessionId: string, content: string): number {
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    const info = db
      .prepare(`INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)`)
      .run(sessionId, 'user', content, Math.floor(Date.now() / 1000));
    db.prepare(`UPDATE sessions SET message_count = message_count + 1 WHERE id = ?`).run(sessionId);
    return Number(info.lastInsertRowid);
  } finally {
    db.close();
  }
}

describe('a live store', () => {
  it('sees a message written between two calls, in read, scroll and search', async () => {
    const db = fixtureCopy(30);
    server = await startServer(['--db', db]);
    const recent = await call(server, { limit: 1 });
    const sid = (recent.json.results as { session_id: string }[])[0]!.session_id;
    const before = await call(server, { session_id: sid });
    const count = before.json.message_count as number;
    const word = 'quokkaferry';
    expect((await call(server, { query: word })).json.count).toBe(0);

    const text = `did the ${word} deploy go out on Tuesday?`;
    const id = append(db, sid, text);

    const after = await call(server, { session_id: sid });
    expect(after.json.message_count).toBe(count + 1);
    const scrolled = await call(server, { session_id: sid, around_message_id: id, window: 2 });
    const anchor = (scrolled.json.messages as { id: number; content: string; anchor?: boolean }[])
      .filter((m) => m.anchor)
      .map((m) => [m.id, m.content]);
    expect(anchor).toEqual([[id, text]]);
    const found = await call(server, { query: word });
    const results = found.json.results as {
      session_id: string;
      match_message_id: number;
      snippet: string;
    }[];
    expect(results.map((r) => [r.session_id, r.match_message_id])).toEqual([[sid, id]]);
    expect(results[0]!.snippet).toContain(`>>>${word}<<<`);
    // The same answer a fresh `lookback search` process gives now.
    expect(found.json).toEqual(
      lookback(['search', word, '--limit', '3', '--db', db, '--json']).json(),
    );
  });

  it('a missing store is an error on each call until it appears, then it is read', async () => {
    const dir = tempDir();
    const db = join(dir, 'state.db');
    server = await startServer(['--db', db]);
    const missing = await call(server, {});
    expect(missing.isError).toBe(true);
    expect(missing.text).not.toContain('\n');
    // The CLI's words for the same situation.
    expect(missing.json).toEqual(lookback(['recent', '--limit', '3', '--db', db, '--json']).json());
    expect(missing.json.error).toContain(db);

    copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), db);
    const found = await call(server, {});
    expect(found.isError).toBe(false);
    expect(found.json).toEqual(lookback(['recent', '--limit', '3', '--db', db, '--json']).json());
  });

  it('a store deleted while the server runs is an error, and is read again once restored', async () => {
    const db = fixtureCopy(16);
    server = await startServer(['--db', db]);
    const first = await call(server, { limit: 2 });
    expect(first.isError).toBe(false);
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
    const gone = await call(server, { limit: 2 });
    expect(gone.isError).toBe(true);
    expect(gone.json).toEqual(lookback(['recent', '--limit', '2', '--db', db, '--json']).json());
    expect(gone.json.error).toContain(`no store at ${db}`);
    copyFileSync(join(FIXTURE_DIR, 'hermes-v16.db'), db);
    const back = await call(server, { limit: 2 });
    expect(back.isError).toBe(false);
    expect(back.json).toEqual(first.json);
  });
});
