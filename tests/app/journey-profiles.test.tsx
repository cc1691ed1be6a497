/**
 * Another profile's conversation opened from a pasted link or scroll call: the
 * app reads that profile's store (never the shown store's session of the same
 * id), and every copy names that profile. The two stores share a session id
 * and message ids on purpose.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createEmptyStore,
  DEFAULT_NOW,
  insertMessage,
  insertSession,
} from '../../src/demo/store.js';
import { otherProfiles } from '../../src/tui/otherProfiles.js';
import { focusedMessage } from '../../src/app/geometry/window.js';
import { sha256 } from '../helpers/fixtures.js';
import { displayWidth } from '../../src/text/width.js';
import { KEY, startHarness, WIDE, type Harness } from './harness.js';
import { copyForms, pasteJump, pasteOpensMessage } from './paste.js';

const SID = '20261101_120000_abc123';
const root = mkdtempSync(join(tmpdir(), 'lookback-profiles-'));
const defaultPath = join(root, 'state.db');
const workPath = join(root, 'profiles', 'work', 'state.db');
mkdirSync(join(root, 'profiles', 'work'), { recursive: true });

/** What message `i` (1-based, = its id) of each store says. */
const defaultText = (i: number) => `default tomato note ${i}`;
const workText = (i: number): string =>
  i === 1
    ? 'zeppelin budget opening'
    : i === 200
      ? 'the kiwi checkpoint list lives in work'
      : i === 120 || i === 50
        ? `work checkpoint ${i}`
        : `work step ${i}`;

/** A second conversation in each store, for the every-profile view's search. */
const CITRUS = {
  default: { id: '20261102_090000_def456', title: 'Lemon tree', text: 'citrus orchard planning' },
  work: { id: '20261102_100000_aaa999', title: 'Harbor crane', text: 'citrus shipment to harbor' },
};

function build(
  path: string,
  title: string,
  n: number,
  text: (i: number) => string,
  extra: { id: string; title: string; text: string },
): void {
  createEmptyStore(path, 30, { withFts: true });
  const db = new Database(path);
  db.transaction(() => {
    insertSession(db, { id: SID, title, source: 'cli' });
    for (let i = 1; i <= n; i++)
      insertMessage(db, {
        session_id: SID,
        role: i % 2 === 1 ? 'user' : 'assistant',
        content: text(i),
      });
    insertSession(db, { id: extra.id, title: extra.title, source: 'cli' });
    insertMessage(db, { session_id: extra.id, role: 'user', content: extra.text });
    // A /branch of the second conversation, nested under it in Recent.
    const branch = `${extra.id.slice(0, -1)}b`;
    insertSession(db, {
      id: branch,
      title: `${extra.title} (branch)`,
      source: 'cli',
      parent_session_id: extra.id,
      model_config: JSON.stringify({ _branched_from: extra.id }),
    });
    insertMessage(db, { session_id: branch, role: 'user', content: `${extra.text}, branched` });
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
build(defaultPath, 'Tomato garden', 210, defaultText, CITRUS.default);
build(workPath, 'Zeppelin budget', 250, workText, CITRUS.work);

/** A Hermes root with the default profile alone. */
const lonely = mkdtempSync(join(tmpdir(), 'lookback-one-profile-'));
build(join(lonely, 'state.db'), 'Alone', 3, defaultText, CITRUS.default);

const before = { def: sha256(defaultPath), work: sha256(workPath) };

afterAll(() => {
  // Both stores are read, never written: the same bytes, and no WAL frames
  // (opening a WAL store read-only may leave an empty -wal beside it).
  expect(sha256(defaultPath)).toBe(before.def);
  expect(sha256(workPath)).toBe(before.work);
  for (const p of [defaultPath, workPath])
    expect(existsSync(`${p}-wal`) ? statSync(`${p}-wal`).size : 0).toBe(0);
});

function start(): Promise<Harness> {
  return startHarness(defaultPath, WIDE, {
    profiles: ['default', 'work'],
    // The real door to the other stores, on this temp Hermes root.
    otherProfiles: otherProfiles({ env: { HERMES_HOME: root }, home: '/nonexistent' }),
  });
}

const focusedId = (h: Harness): number | null => {
  const v = h.state().view;
  return v ? (focusedMessage(v.win)?.id ?? null) : null;
};

describe('a conversation of another profile', () => {
  it('each form Y offers, pasted into the search line, opens the same message: work’s, then this profile’s', async () => {
    const h = await start();
    try {
      await pasteJump(
        h,
        `session_search(session_id="${SID}", around_message_id=200, window=5, profile="work")`,
      );
      await h.waitFor(() => h.frame().includes('kiwi checkpoint list'), 'work message 200');
      for (const shown of ['kiwi checkpoint list', defaultText(200)]) {
        const id = focusedId(h)!;
        const forms = await copyForms(h, 'message quoted with citation');
        expect(forms.map((o) => o.form)).toEqual(['link', 'scroll', 'quote', 'window']);
        // The link names the conversation; the call and the quote's citation name the message.
        for (const o of forms.filter((f) => f.form === 'scroll' || f.form === 'quote')) {
          await pasteOpensMessage(h, o.text, id);
          expect(h.frame()).toContain(shown);
        }
        // Then the same session id in this profile (default's, another conversation).
        await pasteJump(h, `session_search(session_id="${SID}", around_message_id=200, window=5)`);
        await h.waitFor(() => h.frame().includes(defaultText(200)), 'default message 200');
      }
    } finally {
      await h.close();
    }
  });

  it('a pasted scroll call naming work opens work’s message, not default’s', async () => {
    const h = await start();
    try {
      await h.press(
        '/',
        `session_search(session_id="${SID}", around_message_id=200, window=5, profile="work")`,
      );
      await h.waitFor(() => h.frame().includes('Zeppelin budget'), 'the work row');
      // One row, work's (the message pane may still preview default's selected Recent row).
      expect(h.state().results.items.map((r) => r.title)).toEqual(['Zeppelin budget']);
      expect(h.frame()).toMatch(/profile work · 20261101_120000_abc123 · open at message 200/);
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes('kiwi checkpoint list'), 'work message 200');
      expect(h.frame()).not.toContain(defaultText(200));
      expect(h.frame()).toContain('#200');

      // Every copy form names work and the store's own ids.
      await h.press('y');
      await h.waitFor(() => h.copied.length === 1, 'the anchor copy');
      expect(h.copied[0]).toBe(
        `session_search(session_id="${SID}", around_message_id=200, window=5, profile="work")`,
      );
      await h.press('Y', '1');
      await h.waitFor(() => h.copied.length === 2, 'the link copy');
      expect(h.copied[1]).toBe(`@session:work/${SID}`);
      await h.press('Y', '3');
      await h.waitFor(() => h.copied.length === 3, 'the quote copy');
      expect(h.copied[2]).toContain('> the kiwi checkpoint list lives in work');
      expect(h.copied[2]).toContain(`@session:work/${SID}`);
      expect(h.copied[2]).toContain('around_message_id=200, window=5, profile="work"');
      await h.press('Y', '4');
      await h.waitFor(() => h.copied.length === 4, 'the window copy');
      expect(h.copied[3]).toContain('the kiwi checkpoint list lives in work');
      expect(h.copied[3]).not.toContain('default tomato');
      expect(h.copied[3]).toContain(`@session:work/${SID}`);

      // Scrolling to either end pages work's store.
      await h.press('g');
      await h.waitFor(() => h.frame().includes('zeppelin budget opening'), 'work message 1');
      expect(h.frame()).not.toContain(defaultText(1));
      await h.press('G');
      await h.waitFor(() => h.frame().includes('work step 250'), 'work message 250');

      // Find walks work's messages with n/N.
      await h.press('/');
      await h.type('checkpoint');
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes('“checkpoint”'), 'the find status');
      expect(h.frame()).toContain('“checkpoint” 1/3');
      expect(focusedId(h)).not.toBeNull();
      await h.press('n');
      await h.waitFor(() => h.frame().includes('“checkpoint” 2/3'), 'the second find');
      expect(h.frame()).toContain('work checkpoint 120');
      await h.press('n');
      await h.waitFor(() => h.frame().includes('“checkpoint” 3/3'), 'the third find');
      expect(h.frame()).toContain('kiwi checkpoint list');

      // A mark copies as work's scroll call.
      await h.press('m');
      await h.waitFor(() => h.frame().includes('marked message 200'), 'the mark');
      await h.press('y');
      await h.waitFor(() => h.copied.length === 5, 'the marks copy');
      expect(h.copied[4]).toContain('of another profile');
      expect(h.copied[4]).toContain(
        `session_search(session_id="${SID}", around_message_id=200, window=5, profile="work")`,
      );
    } finally {
      await h.close();
    }
  });

  it('a pasted link of work opens work’s conversation; copy gives work’s link', async () => {
    const h = await start();
    try {
      await h.press('/', `@session:work/${SID}`);
      await h.waitFor(() => h.frame().includes('Zeppelin budget'), 'the work row');
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes('work step 250'), 'work’s latest message');
      expect(h.frame()).not.toContain('default tomato');
      await h.press('Y', '1');
      await h.waitFor(() => h.copied.length === 1, 'the link copy');
      expect(h.copied[0]).toBe(`@session:work/${SID}`);
      // i names work's profile and its store's own id.
      await h.press('i');
      expect(h.frame()).toMatch(/│ profile +work /);
      expect(h.frame()).toMatch(new RegExp(`│ session +${SID} `));
      expect(h.frame()).toMatch(new RegExp(`│ link +@session:work/${SID} `));
      await h.press(KEY.esc);

      // The same id in this profile is still default's own conversation.
      await h.press(KEY.esc, KEY.esc, '/', `@session:default/${SID}`);
      await h.waitFor(() => h.frame().includes('Tomato garden'), 'the default row');
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes(defaultText(210)), 'default’s latest message');
      expect(h.frame()).not.toContain('work step');
    } finally {
      await h.close();
    }
  });

  it('an unknown profile stays one line', async () => {
    const h = await start();
    try {
      await h.press('/', `@session:nosuch/${SID}`);
      await h.waitFor(() => h.frame().includes('no profile "nosuch"'), 'unknown profile line');
      expect(h.state().results.message).toBe('no profile "nosuch" (profiles: default, work)');
      // Nothing opened (the message pane may preview the selected Recent row, default's own).
      expect(h.state().results.items).toEqual([]);
      expect(h.state().pane).not.toBe('messages');
      expect(h.frame()).not.toContain('work step');
    } finally {
      await h.close();
    }
  });
});

describe('the every-profile view (P)', () => {
  it('lists and searches both stores, each row naming its profile, and opens any row', async () => {
    const h = await start();
    try {
      await h.waitFor(() => h.frame().includes('Tomato garden'), 'default’s Recent');
      expect(h.frame()).not.toContain('Zeppelin budget');
      await h.press('P');
      await h.waitFor(() => h.frame().includes('Zeppelin budget'), 'work’s rows in Recent');
      expect(h.frame()).toContain('Recent · 4 · every profile');
      expect(h.frame()).toContain('every profile · P');
      expect(h.frame()).toMatch(/work\s+Zeppelin budget/);
      expect(h.frame()).toMatch(/work\s+Harbor crane/);
      expect(h.frame()).toMatch(/default\s+Tomato garden/);
      expect(h.frame()).toMatch(/default\s+Lemon tree/);

      // Full-text search finds text in both stores, with each store's snippet.
      await h.press('/');
      await h.type('citrus');
      await h.waitFor(
        () => h.frame().includes('Harbor crane') && h.frame().includes('Lemon tree'),
        'results from both profiles',
      );
      const f = h.frame();
      expect(f).toContain('citrus shipment to harbor');
      expect(f).toContain('citrus orchard planning');
      expect(f).toContain('Results: 2 sessions · every profile');
      expect(h.frame()).toMatch(/work\s+Harbor crane/);
      expect(h.frame()).toMatch(/default\s+Lemon tree/);

      // Opening work's result reads work's store, and its link names work.
      const at = h.state().results.items.findIndex((r) => r.title === 'Harbor crane');
      expect(at).toBeGreaterThanOrEqual(0);
      await h.press(KEY.esc);
      await h.press(...Array<string>(at).fill('j'));
      await h.waitFor(() => h.state().results.list.selected === at, 'the work result');
      await h.press(KEY.enter);
      await h.waitFor(() => h.state().pane === 'messages', 'the work conversation');
      expect(h.frame()).toContain('citrus shipment to harbor');
      await h.press('Y', '1');
      await h.waitFor(() => h.copied.length === 1, 'the link copy');
      expect(h.copied[0]).toBe(`@session:work/${CITRUS.work.id}`);

      // Opening work's Recent row with the colliding id reads work's conversation.
      await h.press(KEY.esc, KEY.esc, KEY.esc);
      await h.waitFor(() => h.state().search.text === '', 'the search cleared');
      const row = h.state().recent.entries.findIndex((r) => r.title === 'Zeppelin budget');
      if (h.state().pane !== 'recent') await h.press(KEY.tab);
      await h.waitFor(() => h.state().pane === 'recent', 'the Recent pane');
      await h.press('g', ...Array<string>(row).fill('j'), KEY.enter);
      await h.waitFor(() => h.frame().includes('work step 250'), 'work’s conversation');
      expect(h.frame()).not.toContain(defaultText(210));

      // → shows the branches of work's row, read from work's store and tagged work.
      const harbor = h.state().recent.entries.findIndex((r) => r.title === 'Harbor crane');
      await h.press(KEY.esc, 'g', ...Array<string>(harbor).fill('j'), 'l');
      await h.waitFor(() => h.frame().includes('Harbor crane (branch)'), 'work’s branch');
      const branch = h.state().recent.entries.find((r) => r.title === 'Harbor crane (branch)')!;
      expect(branch.sessionId).toBe(`work/${CITRUS.work.id.slice(0, -1)}b`);
      expect(h.frame()).not.toContain('Lemon tree (branch)');

      // The key is on the help screen.
      await h.press(KEY.esc, '?');
      await h.waitFor(() => h.frame().includes('Every profile:'), 'the help screen');
      expect(h.frame()).toMatch(/P\s+Every profile: Recent and search/);
      await h.press(KEY.esc);

      // P again: this profile alone.
      await h.press('P');
      await h.waitFor(() => !h.frame().includes('Zeppelin budget'), 'default alone');
      expect(h.frame()).toContain('profile default alone');
      expect(h.frame()).not.toContain('every profile ·');
    } finally {
      await h.close();
    }
  });

  it('fits a narrow terminal: a four-cell profile tag', async () => {
    const h = await startHarness(
      defaultPath,
      { cols: 50, rows: 20 },
      {
        profiles: ['default', 'work'],
        otherProfiles: otherProfiles({ env: { HERMES_HOME: root }, home: '/nonexistent' }),
      },
    );
    try {
      await h.press('P');
      await h.waitFor(() => h.frame().includes('Harbor'), 'work’s rows');
      expect(h.frame()).toMatch(/work\s+Harbor/);
      expect(h.frame()).toMatch(/def…\s+Lemon/);
      for (const line of h.frame().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    } finally {
      await h.close();
    }
  });

  it('with one profile, P says so in one line', async () => {
    const h = await startHarness(join(lonely, 'state.db'), WIDE, {
      profiles: ['default'],
      otherProfiles: otherProfiles({ env: { HERMES_HOME: lonely }, home: '/nonexistent' }),
    });
    try {
      await h.press('P');
      await h.waitFor(() => h.frame().includes('only one profile'), 'the one-profile line');
      expect(h.frame()).toContain('only one profile (default): nothing else to list');
      expect(h.state().everyProfile).toBe(false);
    } finally {
      await h.close();
    }
  });
});

describe('another profile’s conversation while its agent writes', () => {
  it('re-anchors on a removed message and shows new ones, from work’s store', async () => {
    // A copy of the whole Hermes root: this test plays work's agent and writes.
    const live = mkdtempSync(join(tmpdir(), 'lookback-profiles-live-'));
    const liveWork = join(live, 'profiles', 'work', 'state.db');
    mkdirSync(join(live, 'profiles', 'work'), { recursive: true });
    copyFileSync(defaultPath, join(live, 'state.db'));
    copyFileSync(workPath, liveWork);
    const h = await startHarness(join(live, 'state.db'), WIDE, {
      profiles: ['default', 'work'],
      otherProfiles: otherProfiles({ env: { HERMES_HOME: live }, home: '/nonexistent' }),
    });
    const agentWrites = async (sql: string, ...args: unknown[]): Promise<void> => {
      const writer = new Database(liveWork);
      writer.prepare(sql).run(...args);
      writer.close();
      await act(async () => {
        h.controller.checkForChanges();
      });
    };
    try {
      await h.press(
        '/',
        `session_search(session_id="${SID}", around_message_id=200, window=5, profile="work")`,
      );
      await h.waitFor(() => h.frame().includes('Zeppelin budget'), 'the work row');
      await h.press(KEY.enter);
      await h.waitFor(() => h.frame().includes('kiwi checkpoint list'), 'work message 200');

      // Work's agent prunes the focused message: the window moves to its neighbour in work.
      await agentWrites('DELETE FROM messages WHERE id = 200');
      await h.waitFor(() => h.frame().includes('was removed'), 'the re-anchor line');
      expect(h.frame()).not.toContain('kiwi checkpoint list');
      expect(h.frame()).toMatch(/#(199|201)/);
      expect(h.frame()).not.toContain('default tomato');

      // Work's agent appends: the new message is there at the end.
      await agentWrites(
        "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'a late walrus question', ?)",
        SID,
        DEFAULT_NOW + 10_000,
      );
      await h.press('G');
      await h.waitFor(() => h.frame().includes('a late walrus question'), 'the new message');
    } finally {
      await h.close();
    }
  });
});
