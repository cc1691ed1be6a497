/**
 * `message_uid` (the newest agent, late September 2026): a logical id kept across
 * compaction and branch copies. No committed fixture has the column yet, so a copy
 * of the compacted v30 fixture gets it the way a migration would add it (ALTER TABLE,
 * every row filled, a protected-tail copy sharing its original's uid).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, scrollJson } from '../../src/store/recall.js';
import { Store } from '../../src/store/store.js';
import { fixtureCopy } from '../helpers/fixtures.js';

let path: string;
let store: Store;
/** The uid each message row holds, as the store has it. */
const uidOf = new Map<number, string | null>();
let sessionId: string;

beforeAll(() => {
  path = fixtureCopy('30-compacted');
  const db = new Database(path);
  db.exec('ALTER TABLE messages ADD COLUMN message_uid TEXT');
  // Rows of equal display_order and text are one logical message: one uid for both.
  db.exec(
    `UPDATE messages SET message_uid = 'mu-' || session_id || '-' || coalesce(display_order, id)`,
  );
  // One row without a uid: the key must be absent from its answer, not null.
  const bare = db.prepare('SELECT max(id) AS id FROM messages WHERE active = 1').get() as {
    id: number;
  };
  db.prepare('UPDATE messages SET message_uid = NULL WHERE id = ?').run(bare.id);
  for (const r of db.prepare('SELECT id, message_uid FROM messages').all() as {
    id: number;
    message_uid: string | null;
  }[])
    uidOf.set(r.id, r.message_uid);
  sessionId = (
    db
      .prepare(
        `SELECT session_id FROM messages WHERE active = 1 GROUP BY session_id ORDER BY count(*) DESC LIMIT 1`,
      )
      .get() as { session_id: string }
  ).session_id;
  db.close();
  store = Store.open(path);
});
afterAll(() => store.close());

function checkUids(messages: Record<string, unknown>[]): void {
  expect(messages.length).toBeGreaterThan(0);
  for (const m of messages) {
    const want = uidOf.get(m.id as number);
    if (want) expect(m.message_uid).toBe(want);
    else expect('message_uid' in m).toBe(false);
  }
}

describe('message_uid passed through where the store has it', () => {
  it('is detected as a column of the layout', () => {
    expect(store.layout.has.messageUid).toBe(true);
  });

  it('read gives each message its own uid', () => {
    const r = readJson(store, sessionId) as { messages: Record<string, unknown>[] };
    checkUids(r.messages);
    expect(r.messages.some((m) => typeof m.message_uid === 'string')).toBe(true);
  });

  it('scroll gives each message of the window its own uid, and none where the row has none', () => {
    const withoutUid = [...uidOf].find(([, u]) => u === null)![0];
    const db = new Database(path, { readonly: true });
    const owner = (
      db.prepare('SELECT session_id FROM messages WHERE id = ?').get(withoutUid) as {
        session_id: string;
      }
    ).session_id;
    db.close();
    const a = scrollJson(store, owner, withoutUid, 3) as { messages: Record<string, unknown>[] };
    expect(a.messages.map((m) => m.id)).toContain(withoutUid);
    checkUids(a.messages);
    const b = scrollJson(store, sessionId, [...uidOf].find(([, u]) => u !== null)![0], 5) as {
      messages: Record<string, unknown>[];
    };
    checkUids(b.messages);
  });

  it('the fixture without the column answers without the key', () => {
    const plain = Store.open(fixtureCopy(30));
    try {
      expect(plain.layout.has.messageUid).toBe(false);
      const sid = (
        plain.db.prepare('SELECT session_id FROM messages LIMIT 1').get() as { session_id: string }
      ).session_id;
      const r = readJson(plain, sid) as { messages: Record<string, unknown>[] };
      expect(r.messages.every((m) => !('message_uid' in m))).toBe(true);
    } finally {
      plain.close();
    }
  });
});
