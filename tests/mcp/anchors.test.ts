/**
 * The anchors an agent runs through `session_search`, beyond the ids: a title
 * link (`@session:"<title>"`, the agent's desktop composer), around_message_id=0
 * as no anchor, and an anchor that is not in the session answered with a
 * bounded read and `scroll_recovery`. Answers are checked against the CLI's
 * JSON and the store's own rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { lookback } from '../helpers/cli.js';
import { fixtureCopy, sha256 } from '../helpers/fixtures.js';
import { call, startServer, type Server } from './client.js';

let db: string;
let hash: string;
let server: Server;
let titled: { id: string; title: string };

beforeAll(async () => {
  db = fixtureCopy(30);
  hash = sha256(db);
  const conn = new Database(db, { readonly: true });
  titled = conn
    .prepare(`SELECT id, title FROM sessions WHERE title = 'Websocket Reconnect debug' LIMIT 1`)
    .get() as { id: string; title: string };
  conn.close();
  server = await startServer(['--db', db]);
});

afterAll(async () => {
  await server?.close();
  expect(sha256(db)).toBe(hash);
});

const cli = (args: string[]) =>
  lookback([...args, '--db', db, '--json']).json() as Record<string, unknown>;

describe('a title link', () => {
  it('@session:"<title>" reads the conversation with that title (case-insensitive)', async () => {
    expect(titled.id).toBeTruthy();
    const a = await call(server, { session_id: `@session:"${titled.title.toLowerCase()}"` });
    expect(a.isError).toBe(false);
    expect(a.json).toEqual(cli(['read', titled.id]));
  });

  it('with a profile, and with around_message_id it scrolls', async () => {
    const read = cli(['read', titled.id]);
    const id = (read.messages as { id: number }[])[1]!.id;
    const a = await call(server, {
      session_id: `@session:default/"${titled.title}"`,
      around_message_id: id,
      window: 2,
    });
    expect(a.json).toEqual(cli(['scroll', titled.id, String(id), '--window', '2']));
  });

  it('an unknown title is one line that says what to do instead', async () => {
    const a = await call(server, { session_id: '@session:"No such conversation"' });
    expect(a.isError).toBe(true);
    expect(a.json.error).toBe(
      `no conversation titled "No such conversation"; search for it with query="No such conversation"`,
    );
  });

  it('is refused for another agent in one line', async () => {
    const a = await call(server, { session_id: '@session:"anything"', agent: 'codex' });
    expect(a.isError).toBe(true);
    expect(a.json.error).toMatch(/^a title link is resolved in Hermes stores; for agent "codex"/);
  });
});

describe('around_message_id=0', () => {
  it('is no anchor: the session is read', async () => {
    for (const zero of [0, '0']) {
      const a = await call(server, { session_id: titled.id, around_message_id: zero });
      expect(a.json).toEqual(cli(['read', titled.id]));
    }
  });
});

describe('an anchor that is not in the session', () => {
  it('a non-number for a Hermes session: bounded read plus scroll_recovery', async () => {
    const a = await call(server, { session_id: titled.id, around_message_id: 'msg_abc' });
    expect(a.isError).toBe(false);
    const { scroll_recovery, ...read } = a.json;
    expect(read).toEqual(cli(['read', titled.id]));
    expect(scroll_recovery).toMatchObject({
      requested_around_message_id: 'msg_abc',
      reason: 'around_message_id of a Hermes session is a whole number, not "msg_abc"',
    });
  });

  it('an unknown session stays an error', async () => {
    const a = await call(server, { session_id: 'nope_nope', around_message_id: 5 });
    expect(a.isError).toBe(true);
    expect(a.json.error).toBe('session_id not found: nope_nope');
  });
});
