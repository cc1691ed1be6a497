/**
 * The every-profile view (P) pages to the true end: two profiles' stores
 * together hold more conversations than one fetch of Recent
 * (RECENT_FULL_LIMIT), and walking the list with real keys reaches the oldest
 * row of either store, with the header counting every row.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RECENT_FULL_LIMIT } from '../../src/budgets.js';
import {
  createEmptyStore,
  DEFAULT_NOW,
  insertMessage,
  insertSession,
} from '../../src/demo/store.js';
import { otherProfiles } from '../../src/tui/otherProfiles.js';
import { formatCount } from '../../src/text/format.js';
import { startHarness, WIDE, type Harness } from './harness.js';

const root = mkdtempSync(join(tmpdir(), 'lookback-every-end-'));
const defaultPath = join(root, 'state.db');
const workPath = join(root, 'profiles', 'work', 'state.db');
mkdirSync(join(root, 'profiles', 'work'), { recursive: true });

/** Per store: more than half a fetch, so the two together pass one. */
const PER_STORE = Math.ceil(RECENT_FULL_LIMIT * 0.6);
const TOTAL = 2 * PER_STORE;

/** Conversation i of a store, one minute apart; the work store's are older by half a minute. */
function build(path: string, name: string, offset: number): void {
  createEmptyStore(path, 30, { withFts: true });
  const db = new Database(path);
  db.transaction(() => {
    for (let i = 0; i < PER_STORE; i++) {
      const id = insertSession(db, {
        title: `${name} conversation ${i}`,
        started_at: DEFAULT_NOW - i * 60 - offset,
      });
      insertMessage(db, { session_id: id, role: 'user', content: `${name} note ${i}` });
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
build(defaultPath, 'default', 0);
build(workPath, 'work', 30);

let h: Harness | null = null;
afterAll(async () => {
  await h?.close();
});

describe('the every-profile view pages to the end', () => {
  it(`walks ${TOTAL} rows of two profiles (one fetch is ${RECENT_FULL_LIMIT}) to the oldest, with the true count`, async () => {
    h = await startHarness(defaultPath, WIDE, {
      profiles: ['default', 'work'],
      otherProfiles: otherProfiles({ env: { HERMES_HOME: root }, home: '/nonexistent' }),
    });
    await h.waitFor(() => h!.frame().includes('default conversation 0'), 'default’s Recent');
    await h.press('P');
    await h.waitFor(() => h!.frame().includes('work conversation 0'), 'work’s rows in Recent');
    // One fetch holds no more than RECENT_FULL_LIMIT: the list starts cut, not whole.
    expect(h.state().recent.rows.length).toBeLessThanOrEqual(RECENT_FULL_LIMIT);
    expect(h.state().recent.complete).toBe(false);
    // G walks to the last loaded row; near the end the next page is asked for; G again.
    for (let i = 0; i < 10 && !(h.state().recent.complete && atEnd(h)); i++) {
      await h.press('G');
      await h.waitFor(
        () => h!.state().recent.complete || h!.state().recent.entries.length > RECENT_FULL_LIMIT,
        'the next page',
        20_000,
      );
    }
    await h.press('G');
    await h.waitFor(() => atEnd(h!), 'the last row selected');
    const s = h.state().recent;
    expect(s.complete).toBe(true);
    expect(s.rows.length).toBe(TOTAL);
    // The oldest of both stores is work's last conversation (half a minute older than default's).
    expect(s.entries[s.entries.length - 1]!.title).toBe(`work conversation ${PER_STORE - 1}`);
    const f = h.frame();
    expect(f).toContain(`work conversation ${PER_STORE - 1}`);
    expect(f).toContain(`Recent · ${formatCount(TOTAL)} · every profile`);
  }, 120_000);
});

function atEnd(h: Harness): boolean {
  const r = h.state().recent;
  return r.list.selected === r.entries.length - 1;
}
