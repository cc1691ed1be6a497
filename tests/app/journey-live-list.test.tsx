import Database from 'better-sqlite3';
import { act } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { WIDE, makeStore, startHarness, type Harness } from './harness.js';

let path: string;
let h: Harness;

beforeAll(async () => {
  path = makeStore(30);
  h = await startHarness(path, WIDE);
});
afterAll(async () => {
  await h.close();
});

async function agentStartsConversation(id: string, text: string): Promise<void> {
  const writer = new Database(path);
  insertSession(writer, { id, source: 'cli', started_at: Date.now() / 1000 });
  insertMessage(writer, { session_id: id, content: text, timestamp: Date.now() / 1000 });
  writer.close();
  await act(async () => {
    h.controller.checkForChanges();
  });
}

/** Pinned conversations are listed first (STORE.md); new ones go on top of the rest. */
function unpinned() {
  const db = new Database(path, { readonly: true });
  const pinned = new Set(db.prepare('SELECT id FROM sessions WHERE pinned = 1').pluck().all());
  db.close();
  return h.state().recent.rows.filter((r) => !pinned.has(r.rootId));
}

describe('Recent while the agent writes', () => {
  it('puts new conversations on top and keeps the rest of the list', async () => {
    const before = h.state().recent.rows.length;
    await agentStartsConversation('20991231_000001_aaaaaa', 'first new conversation about herons');
    await h.waitFor(() => unpinned()[0]?.sessionId === '20991231_000001_aaaaaa', 'first on top');
    // A second change soon after refreshes only the top of the list, merged into the rest.
    await agentStartsConversation('20991231_000002_bbbbbb', 'second new conversation about egrets');
    await h.waitFor(() => unpinned()[0]?.sessionId === '20991231_000002_bbbbbb', 'second on top');
    const rows = h.state().recent.rows;
    expect(rows.length).toBe(before + 2);
    expect(new Set(rows.map((r) => r.rootId)).size).toBe(rows.length);
    expect(unpinned()[1]?.sessionId).toBe('20991231_000001_aaaaaa');
    expect(h.frame()).toContain('second new conv');
  });
});
