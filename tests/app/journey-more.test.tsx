import Database from 'better-sqlite3';
import { act } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { multi, scrollCall } from '../../src/anchors/format.js';
import { DEFAULT_NOW, insertMessage, insertSession } from '../../src/demo/store.js';
import { messagesAfter } from '../../src/store/messages.js';
import { focusedMessage } from '../../src/app/geometry/window.js';
import {
  KEY,
  WIDE,
  generatedClock,
  copyStore,
  makeStore,
  withHarness,
  type Harness,
} from './harness.js';

let path: string;

beforeAll(() => {
  path = makeStore();
});

// Each journey runs on a harness of its own (withHarness), and each that writes to the
// store on a copy of it: a failure or a write in one cannot change what the next one sees.
const journey = (store: () => string, run: (h: Harness) => Promise<void>) => () =>
  withHarness(store(), WIDE, run, { now: generatedClock() });

async function selectRecent(h: Harness, index: number): Promise<void> {
  await h.press('g');
  for (let i = 0; i < index; i++) await h.press('j');
}

describe('journeys: live store, paste, fuzzy, hidden, branches', () => {
  it(
    'follows a live conversation as the agent writes, and says what changed',
    journey(
      () => copyStore(path),
      async (h) => {
        const rows = h.state().recent.entries;
        // Open and active within the last ten minutes of the store's clock.
        const live = rows.findIndex((r) => r.open && DEFAULT_NOW - r.lastActive < 600);
        expect(live).toBeGreaterThanOrEqual(0);
        await selectRecent(h, live);
        await h.press(KEY.enter);
        const v = h.state().view!;
        expect(v.live).toBe(true);
        expect(h.frame()).toContain('● live');
        const writer = new Database(h.path);
        const id = insertMessage(writer, {
          session_id: rows[live]!.sessionId,
          role: 'assistant',
          content: 'freshly written while lookback watched',
        });
        writer.close();
        await act(async () => {
          h.controller.checkForChanges();
        });
        expect(h.frame()).toContain('freshly written while lookback watched');
        expect(focusedMessage(h.state().view!.win)?.id).toBe(id);
        await h.waitFor(
          () => /store changed: 1 new message/.test(h.frame()),
          'store changed status',
        );
        // The selection in Recent did not move.
        expect(h.state().recent.entries[h.state().recent.list.selected]?.sessionId).toBe(
          rows[live]!.sessionId,
        );
        await h.press(KEY.esc);
      },
    ),
  );

  it(
    'jumps straight to a message when a scroll call is pasted',
    journey(
      () => path,
      async (h) => {
        const row = h.state().recent.entries[3]!;
        const m = messagesAfter(h.store, row.sessionId, 0, 5)[3]!;
        await h.press(scrollCall({ sessionId: row.sessionId, messageId: m.id }));
        const v = h.state().view!;
        expect(h.state().pane).toBe('messages');
        expect(focusedMessage(v.win)?.id).toBe(m.id);
        expect(h.frame()).toContain(`#${m.id}`);
        await h.press(KEY.esc);
        expect(h.state().pane).toBe('results');
        // Esc leaves the search line keeping the query; a second Esc clears it.
        const pasted = h.state().search.text;
        await h.press('/', KEY.esc);
        expect(h.state().search.text).toBe(pasted);
        await h.press(KEY.esc);
        expect(h.state().search.text).toBe('');
      },
    ),
  );

  it(
    'marks every anchor of a pasted block (what y copies with marks)',
    journey(
      () => path,
      async (h) => {
        const rows = h.state().recent.entries;
        const a = messagesAfter(h.store, rows[1]!.sessionId, 0, 2)[1]!;
        const b = messagesAfter(h.store, rows[2]!.sessionId, 0, 2)[0]!;
        const block = multi([
          { sessionId: a.session_id, messageId: a.id },
          { sessionId: b.session_id, messageId: b.id },
        ]);
        await h.press(KEY.esc);
        expect(h.state().typing).toBe(false);
        await h.press(block);
        expect(h.state().marks).toEqual([
          { sessionId: a.session_id, messageId: a.id },
          { sessionId: b.session_id, messageId: b.id },
        ]);
        expect(h.frame()).toContain('pasted 2 anchors');
        await h.press('M');
        expect(h.state().marks).toEqual([]);
      },
    ),
  );

  it(
    'finds conversations fuzzily by title as you type',
    journey(
      () => path,
      async (h) => {
        await h.press(KEY.esc, '/');
        await h.press('f', 'f');
        // While typing, f is text; Ctrl-F switches the mode.
        expect(h.state().search.text).toBe('ff');
        await h.press(KEY.backspace, KEY.backspace, '\x06');
        expect(h.state().search.mode).toBe('fuzzy');
        const target = h.state().recent.rows.find((r) => r.hasTitle && r.title.length > 8)!;
        const words = target.title.split(/\s+/)[0]!.slice(0, 5);
        await h.type(words);
        expect(h.frame()).toContain('fuzzy · titles, ids, folders');
        const items = h.state().results.items;
        expect(items.length).toBeGreaterThan(0);
        expect(items.some((r) => r.sessionId === target.sessionId)).toBe(true);
        expect(h.frame()).toMatch(/Fuzzy: \d+ match/);
        await h.press('\x06', KEY.esc, KEY.esc);
        expect(h.state().search.mode).toBe('fulltext');
      },
    ),
  );

  it(
    'says how many matched in all when fuzzy shows the best 100',
    journey(
      () => makeStore(160),
      async (h) => {
        await h.waitFor(() => h.state().recent.complete, 'the full list');
        const rows = h.state().recent.rows;
        // Every session id starts with its century ("20…"): every listed row matches by id.
        const year = rows[0]!.sessionId.slice(0, 2);
        expect(rows.length).toBeGreaterThan(100);
        expect(rows.every((r) => r.sessionId.startsWith(year))).toBe(true);
        await h.press(KEY.esc, '/', '\x06');
        await h.type(year);
        expect(h.state().results.items).toHaveLength(100);
        expect(h.frame()).toContain(`Fuzzy: 100 of ${rows.length} matches`);
        await h.press('\x06', KEY.esc, KEY.esc);
      },
    ),
  );

  it(
    'shows what is hidden and H lists it',
    journey(
      () => path,
      async (h) => {
        await h.press(KEY.esc);
        expect(h.state().pane).toBe('recent');
        const hidden = h.state().hidden!;
        expect(h.frame()).toMatch(new RegExp(`${hidden.total} hidden`));
        const before = h.state().recent.rows.length;
        await h.press('H');
        await h.waitFor(
          () => h.state().recent.complete && h.state().recent.rows.length > before,
          'hidden rows',
        );
        expect(h.frame()).toContain('showing hidden');
        await h.press('H');
        await h.waitFor(() => h.state().recent.rows.length === before, 'hidden rows gone');
      },
    ),
  );

  it(
    'expands the branches of a conversation under it',
    journey(
      () => path,
      async (h) => {
        const rows = h.state().recent.entries;
        const parent = rows.findIndex((r) => r.branches > 0);
        // The generated store has branched conversations (src/demo); none would be a failure.
        expect(parent).toBeGreaterThanOrEqual(0);
        await selectRecent(h, parent);
        await h.press(KEY.right);
        const entries = h.state().recent.entries;
        expect(entries[parent + 1]?.depth).toBe(1);
        expect(h.frame()).toContain('└ ');
        await h.press('j', KEY.left);
        expect(h.state().recent.entries[parent + 1]?.depth ?? 0).toBe(0);
        expect(h.state().recent.list.selected).toBe(parent);
      },
    ),
  );

  it(
    'never lets stored escape sequences reach the terminal',
    journey(
      () => copyStore(path),
      async (h) => {
        const writer = new Database(h.path);
        const hostile = 'Evil \x1b]52;c;cHduZWQ=\x07title\x1b[2J\u202e';
        const sid = insertSession(writer, {
          id: '20991231_235959_e0e0e0',
          source: 'cli',
          title: hostile,
          started_at: 4_102_444_700,
        });
        insertMessage(writer, {
          session_id: sid,
          role: 'user',
          content: 'look \x1b]8;;http://x\x07link\x1b]8;;\x07 and \x07bell \x1b[31mred',
          timestamp: 4_102_444_799,
        });
        writer.close();
        await act(async () => {
          h.controller.checkForChanges();
        });
        await h.waitFor(
          () => h.state().recent.rows.some((r) => r.sessionId === sid),
          'the hostile session listed',
        );
        await h.press(KEY.esc, 'g', KEY.enter);
        const f = h.frame();
        expect(f).toContain('Evil title');
        expect(f).toContain('look link and bell red');
        expect(f).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
      },
    ),
  );
});
