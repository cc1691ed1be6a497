import Database from 'better-sqlite3';
import { act } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { focusedMessage } from '../../src/app/geometry/window.js';
import { KEY, WIDE, copyStore, makeStore, withHarness, type Harness } from './harness.js';

let path: string;
beforeAll(() => {
  path = makeStore(30);
});

// Each journey runs on a harness of its own (withHarness), and each that writes to the
// store on a copy of it: a failure or a write in one cannot change what the next one sees.

/** Opens a conversation from Recent at its latest messages and steps up a few messages. */
async function openSomewhere(h: Harness, rowIndex: number): Promise<number> {
  await h.press('g');
  for (let i = 0; i < rowIndex; i++) await h.press('j');
  await h.press(KEY.enter);
  for (let i = 0; i < 4; i++) await h.press('k');
  return focusedMessage(h.state().view!.win)!.id;
}

async function agentWrites(h: Harness, sql: string, ...args: unknown[]): Promise<void> {
  const writer = new Database(h.path);
  writer.prepare(sql).run(...args);
  writer.close();
  await act(async () => {
    h.controller.checkForChanges();
  });
}

describe('the agent removes what the window shows', () => {
  it('a pruned focused message: says so and moves to the nearest surviving one', () =>
    withHarness(copyStore(path), WIDE, async (h) => {
      const id = await openSomewhere(h, 2);
      const sid = focusedMessage(h.state().view!.win)!.session_id;
      await agentWrites(h, 'DELETE FROM messages WHERE id = ?', id);
      const now = focusedMessage(h.state().view!.win)!;
      expect(now.id).not.toBe(id);
      expect(now.session_id).toBe(sid);
      expect(h.frame()).toMatch(/was removed \(pruned or rewound\); moved to the nearest message/);
      expect(
        h.state().view!.win.items.some((it) => it.kind === 'message' && it.msg.id === id),
      ).toBe(false);
      await h.press(KEY.esc);
    }));

  it('a rewound message elsewhere in the window: reloads around the same focus', () =>
    withHarness(copyStore(path), WIDE, async (h) => {
      const id = await openSomewhere(h, 3);
      const other = h
        .state()
        .view!.win.items.find((it) => it.kind === 'message' && it.msg.id !== id);
      expect(other?.kind).toBe('message');
      const otherId = other!.kind === 'message' ? other!.msg.id : -1;
      // Rewound: active 0 and not compaction history (compacted 0).
      await agentWrites(h, 'UPDATE messages SET active = 0, compacted = 0 WHERE id = ?', otherId);
      expect(focusedMessage(h.state().view!.win)!.id).toBe(id);
      expect(h.frame()).toMatch(
        /removed by the agent \(pruned or rewound\); reloaded around message/,
      );
      expect(
        h.state().view!.win.items.some((it) => it.kind === 'message' && it.msg.id === otherId),
      ).toBe(false);
      await h.press(KEY.esc);
    }));

  it('a deleted conversation: back to the list, and says so', () =>
    withHarness(copyStore(path), WIDE, async (h) => {
      await openSomewhere(h, 4);
      const sid = focusedMessage(h.state().view!.win)!.session_id;
      const chain = h.state().view!.win.chain;
      const writer = new Database(h.path);
      writer.pragma('foreign_keys = OFF');
      for (const s of chain) {
        writer.prepare('DELETE FROM messages WHERE session_id = ?').run(s);
        writer.prepare('DELETE FROM sessions WHERE id = ?').run(s);
      }
      writer.close();
      await act(async () => {
        h.controller.checkForChanges();
      });
      expect(chain).toContain(sid);
      expect(h.state().pane).not.toBe('messages');
      expect(h.frame()).toMatch(/gone from the store/);
    }));
});
