/**
 * Issue 9, "the daily driver": the preview follows the selection, the list has
 * room for titles, markers sit in fixed columns, the context of a conversation,
 * pinned first, live only when recent, counts that agree, and new conversations
 * at the top. Real keys one per write, real stores, assertions on the text shown.
 */
import Database from 'better-sqlite3';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { contentText } from '../../src/store/content.js';
import { messageById, sessionEdge } from '../../src/store/messages.js';
import type { Store } from '../../src/store/store.js';
import type { Timers } from '../../src/app/controller/ctx.js';
import type { Size } from '../../src/app/geometry/screen.js';
import { buildStore, insertMessage, insertSession, type Db } from '../helpers/stores.js';
import { KEY, WIDE, lines, makeStore, startHarness, type Harness } from './harness.js';

/** Timers the test fires by hand: the moment between a key and the preview's load is observable. */
class ManualTimers implements Timers {
  private next = 1;
  private readonly pending = new Map<number, () => void>();
  setTimeout(fn: () => void): unknown {
    const id = this.next++;
    this.pending.set(id, fn);
    return id;
  }
  clearTimeout(h: unknown): void {
    this.pending.delete(h as number);
  }
  setInterval(): unknown {
    return 0;
  }
  clearInterval(): void {}
  get count(): number {
    return this.pending.size;
  }
  async fire(): Promise<void> {
    await act(async () => {
      const fns = [...this.pending.values()];
      this.pending.clear();
      for (const fn of fns) fn();
      await new Promise((r) => setTimeout(r, 2));
    });
  }
}

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function start(
  path: string,
  size: Size = WIDE,
  opts: Parameters<typeof startHarness>[2] = {},
): Promise<Harness> {
  h = await startHarness(path, size, opts);
  return h;
}

/** The inside of the list pane on each row line of the frame (the part before its right border). */
function listRows(frame: string): string[] {
  return lines(frame)
    .slice(3)
    .filter((l) => l.startsWith('│'))
    .map((l) => l.split('│')[1] ?? '');
}

/** The message pane's part of the frame (right of the list). */
function previewText(frame: string): string {
  return lines(frame)
    .slice(2)
    .map((l) => {
      const cut = l.indexOf('┐┌') >= 0 ? l.indexOf('┐┌') + 1 : l.indexOf('││') + 1;
      return cut > 0 ? l.slice(cut) : '';
    })
    .join('\n');
}

/**
 * A fragment of a session's newest user/assistant message as the store holds
 * it: twenty characters of its first plain line (null when it has none short
 * enough to be fully in view).
 */
function tailFragment(store: Store, sessionId: string): string | null {
  const tail = sessionEdge(store, sessionId, 'tail', 6);
  const last = [...tail]
    .reverse()
    .find((m) => (m.role === 'user' || m.role === 'assistant') && contentText(m.content).trim());
  if (!last || last.id !== tail[tail.length - 1]?.id) return null;
  const text = contentText(last.content);
  if (text.length > 300) return null;
  const line = text.split('\n').find((l) => /^[A-Za-z][A-Za-z ,.'-]{24,}/.test(l));
  return line ? line.slice(0, 24) : null;
}

describe('the preview follows the selection', () => {
  it('shows the selected Recent row at once, never the previous text under a new title; Enter focuses it', async () => {
    const timers = new ManualTimers();
    const app = await start(makeStore(), WIDE, { timers });
    const rows = app.state().recent.entries;
    // Two neighbouring rows whose newest messages differ and are short enough to be in view.
    // (and the first's words appear nowhere near the end of the second).
    const near = (sid: string): string =>
      sessionEdge(app.store, sid, 'tail', 80)
        .map((m) => contentText(m.content))
        .join('\n');
    const i = rows.findIndex((r, k) => {
      const a = tailFragment(app.store, r.sessionId);
      const next = rows[k + 1];
      const b = next ? tailFragment(app.store, next.sessionId) : null;
      return (
        a !== null &&
        b !== null &&
        !near(next!.sessionId).includes(a) &&
        !near(r.sessionId).includes(b)
      );
    });
    expect(i).toBeGreaterThanOrEqual(0);
    for (let k = 0; k < i; k++) await app.press('j');
    await timers.fire();
    const first = rows[i]!;
    const second = rows[i + 1]!;
    const firstText = tailFragment(app.store, first.sessionId)!;
    const secondText = tailFragment(app.store, second.sessionId)!;
    expect(previewText(app.frame())).toContain(firstText);
    expect(previewText(app.frame())).toContain(first.title.slice(0, 20));

    await app.press('j');
    // The selection moved; the load waits for it to rest. The pane has the new
    // title and "loading", and nothing of the previous conversation.
    const moving = previewText(app.frame());
    expect(moving).toContain(second.title.slice(0, 20));
    expect(moving).toContain('loading…');
    expect(moving).not.toContain(firstText);
    expect(timers.count).toBeGreaterThan(0);

    await timers.fire();
    const rested = previewText(app.frame());
    expect(rested).toContain(secondText);
    expect(rested).not.toContain(firstText);
    // Still on the list: the keyboard did not move.
    expect(app.state().pane).toBe('recent');

    await app.press(KEY.enter);
    expect(app.state().pane).toBe('messages');
    // The status line names the conversation now read; its text is still there.
    expect(lines(app.frame()).at(-1)).toContain(second.title.slice(0, 20));
    expect(previewText(app.frame())).toContain(secondText);
    // Moving now moves in the conversation, not the list.
    const focus = app.state().view!.win.focus;
    await app.press('k');
    expect(app.state().recent.list.selected).toBe(i + 1);
    expect(app.state().view!.win.focus).toBe(focus - 1);
  });

  it('a held j loads nothing until the selection rests, and then the row it rests on', async () => {
    const timers = new ManualTimers();
    const app = await start(makeStore(), WIDE, { timers });
    await timers.fire();
    const before = app.state().view?.key;
    for (let k = 0; k < 8; k++) await app.press('j');
    // One pending load (re-armed per move), none done.
    expect(timers.count).toBe(1);
    expect(app.state().view?.key).toBe(before);
    await timers.fire();
    const row = app.state().recent.entries[8]!;
    expect(app.state().view?.key).toBe(`recent:${row.sessionId}`);
    expect(previewText(app.frame())).toContain(row.title.slice(0, 20));
  });

  it('shows a result at its hit, and moving through Results changes it', async () => {
    const timers = new ManualTimers();
    const app = await start(makeStore(), WIDE, { timers });
    await app.press('/');
    await app.type('billing');
    await timers.fire();
    await app.waitFor(() => app.state().results.items.length > 2, 'results');
    await timers.fire();
    const items = app.state().results.items;
    const hitText = (k: number): string => {
      const m = messageById(app.store, items[k]!.messageId!)!;
      const line = contentText(m.content)
        .split('\n')
        .find((l) => /billing/i.test(l))!;
      const at = line.toLowerCase().indexOf('billing');
      return line.slice(at, at + 7);
    };
    // The hit's own message, marked ▶, beside the selected result.
    expect(previewText(app.frame())).toContain('▶');
    expect(previewText(app.frame())).toContain(hitText(0));
    expect(app.state().view?.key).toBe(items[0]!.key);
    // While typing, ↑/↓ recall history; Ctrl-N moves the selection (as in a shell and fzf).
    await app.press('\u000e');
    expect(previewText(app.frame())).toContain('loading…');
    expect(previewText(app.frame())).toContain(items[1]!.title.slice(0, 20));
    await timers.fire();
    expect(app.state().view?.key).toBe(items[1]!.key);
    const m = messageById(app.store, items[1]!.messageId!)!;
    expect(app.state().view?.win.anchorId).toBe(m.id);
    expect(previewText(app.frame())).toContain(`#${m.id}`);
    expect(app.state().typing).toBe(true);
  });
});

describe('room for titles', () => {
  for (const size of [
    { cols: 120, rows: 40 },
    { cols: 160, rows: 48 },
  ]) {
    it(`shows at least 20 characters of each title at ${size.cols} columns, with the preview beside`, async () => {
      const app = await start(makeStore(), size);
      const rows = app.state().recent.entries;
      const shown = listRows(app.frame());
      // The list is one pane under the search line: no empty Results pane holding a hint.
      expect(app.frame()).not.toContain('/ and type words');
      for (let k = 0; k < 10; k++) {
        const title = rows[k]!.title;
        expect(shown[k]).toContain(title.slice(0, Math.min(20, title.length)));
      }
    });
  }
});

/** A store with a row of every kind of marker, and one plain row. */
function markerStore(now: number): { path: string; ids: Record<string, string> } {
  const ids: Record<string, string> = {};
  const path = buildStore(30, (db: Db) => {
    const conv = (
      key: string,
      at: number,
      extra: Record<string, string | number | null> = {},
      n = 3,
    ): string => {
      const id = insertSession(db, {
        id: `2026111${key.length}_0000${String(at).slice(-2)}_${key.padEnd(6, 'x').slice(0, 6)}`,
        title: `Conversation ${key}`,
        started_at: at,
        ended_at: at + 100,
        end_reason: 'tui_shutdown',
        ...extra,
      });
      for (let k = 0; k < n; k++)
        insertMessage(db, {
          session_id: id,
          role: k % 2 ? 'assistant' : 'user',
          content: `${key} message ${k}`,
          timestamp: at + 10 + k,
        });
      ids[key] = id;
      return id;
    };
    conv('plain', now - 7200);
    conv('live', now - 300, { ended_at: null, end_reason: null });
    conv('crashed', now - 4 * 3600, { ended_at: null, end_reason: null });
    conv('pinned', now - 30 * 86400, { pinned: 1 });
    conv('unread', now - 3000, { last_read_at: now - 3500 });
    // A compression chain: 3 messages, then a continuation with 3 more and one rewound.
    const root = conv('chain', now - 6000, { end_reason: 'compression' });
    const child = insertSession(db, {
      id: '20261118_000099_chaink',
      title: 'Conversation chain',
      parent_session_id: root,
      started_at: now - 5800,
      ended_at: now - 5000,
      end_reason: 'tui_shutdown',
    });
    for (let k = 0; k < 4; k++)
      insertMessage(db, {
        session_id: child,
        role: k % 2 ? 'assistant' : 'user',
        content: `chain continued ${k}`,
        timestamp: now - 5700 + k,
        active: k === 3 ? 0 : 1,
      });
    ids.chainTip = child;
  });
  return { path, ids };
}

describe('markers, context, pinned, live and counts', () => {
  const now = Math.floor(Date.now() / 1000);

  it('lines the columns up whatever markers a row carries', async () => {
    const { path } = markerStore(now);
    const app = await start(path);
    const rows = listRows(app.frame()).filter((l) => /Conversation \w+/.test(l));
    expect(rows.length).toBe(6);
    // The age, source and count columns start at the same column on every row.
    const col = (l: string): number => l.indexOf(' cli ');
    const count = (l: string): number => l.search(/\d +(⛓\d)? *$/);
    const title = (l: string): number => l.indexOf('Conversation');
    expect(new Set(rows.map(col)).size).toBe(1);
    expect(new Set(rows.map(count)).size).toBe(1);
    expect(new Set(rows.map(title)).size).toBe(1);
    expect(rows.find((l) => l.includes('Conversation chain'))).toMatch(/⛓2/);
    expect(rows.find((l) => l.includes('Conversation live'))).toMatch(/●/);
    expect(rows.find((l) => l.includes('Conversation pinned'))).toMatch(/⚑/);
    expect(rows.find((l) => l.includes('Conversation unread'))).toMatch(/•/);
  });

  it('lists pinned conversations first', async () => {
    const { path } = markerStore(now);
    const app = await start(path);
    expect(app.state().recent.entries[0]!.title).toBe('Conversation pinned');
    expect(listRows(app.frame())[0]).toMatch(/▸ {2}⚑ {2}Conversation pinned/u);
  });

  it('marks live only a conversation active within ten minutes; a silent unended one is interrupted', async () => {
    const { path } = markerStore(now);
    const app = await start(path);
    const rows = listRows(app.frame());
    expect(rows.find((l) => l.includes('Conversation live'))).toContain('●');
    expect(rows.find((l) => l.includes('Conversation crashed'))).not.toContain('●');
    const at = app.state().recent.entries.findIndex((r) => r.title === 'Conversation crashed');
    await app.press('g');
    for (let k = 0; k < at; k++) await app.press('j');
    await app.waitFor(() => app.state().view?.title === 'Conversation crashed', 'the preview');
    expect(previewText(app.frame())).toContain('interrupted');
    expect(previewText(app.frame())).not.toContain('● live');
    const live = app.state().recent.entries.findIndex((r) => r.title === 'Conversation live');
    await app.press('g');
    for (let k = 0; k < live; k++) await app.press('j');
    await app.waitFor(() => app.state().view?.title === 'Conversation live', 'the preview');
    expect(previewText(app.frame())).toContain('● live');
  });

  it('shows the context of a conversation as the store has it, and i shows it all', async () => {
    const path = buildStore(30, (db) => {
      const id = insertSession(db, {
        id: '20261118_000001_ctxaaa',
        title: 'Context conversation',
        source: 'tui',
        model: 'anthropic/claude-sonnet-4',
        cwd: '/srv/projects/ledger',
        git_branch: 'fix/proration',
        input_tokens: 12_345,
        output_tokens: 678,
        estimated_cost_usd: 0.4,
        actual_cost_usd: 0.42,
        started_at: now - 3600,
        ended_at: now - 3000,
        end_reason: 'tui_shutdown',
      });
      for (let k = 0; k < 5; k++)
        insertMessage(db, { session_id: id, content: `context ${k}`, timestamp: now - 3500 + k });
    });
    const app = await start(path);
    await app.waitFor(() => app.state().view !== null, 'the preview');
    const expected = [
      '/srv/projects/ledger',
      '⎇ fix/proration',
      'anthropic/claude-sonnet-4',
      'tui',
      '5 messages',
      '12k in / 678 out tokens',
      '$0.42',
      'complete (tui_shutdown)',
    ].join(' · ');
    expect(previewText(app.frame())).toContain(expected.slice(0, 70));
    await app.press('i');
    // The info panel: one fact a row, each as the store has it.
    const panel = lines(app.frame());
    const row = (label: string): string | undefined =>
      panel.find((l) => new RegExp(`│ ${label} +\\S`).test(l));
    const value = (label: string): string =>
      (row(label) ?? '').replace(new RegExp(`^.*│ ${label} +`), '').replace(/ *│.*$/, '');
    expect(panel.some((l) => l.includes('Conversation'))).toBe(true);
    expect(value('title')).toBe('Context conversation');
    expect(value('agent')).toBe('hermes');
    expect(value('profile')).toBe('default');
    expect(value('session')).toBe('20261118_000001_ctxaaa');
    expect(value('link')).toBe('@session:default/20261118_000001_ctxaaa');
    expect(value('folder')).toBe('/srv/projects/ledger');
    expect(value('branch')).toBe('fix/proration');
    expect(value('model')).toBe('anthropic/claude-sonnet-4');
    expect(value('source')).toBe('tui');
    expect(value('messages')).toBe('5');
    expect(value('tokens')).toBe('12,345 in / 678 out');
    expect(value('cost')).toBe('$0.4200');
    expect(value('status')).toBe('complete (tui_shutdown)');
    expect(value('started')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d \(1h ago\)$/);
    await app.press('i');
    expect(app.state().overlay).toBeNull();
    expect(previewText(app.frame())).toContain(expected.slice(0, 70));
  });

  it('counts agree on a chain: the row, the context line and the opened conversation', async () => {
    const { path } = markerStore(now);
    const app = await start(path);
    const at = app.state().recent.entries.findIndex((r) => r.title === 'Conversation chain');
    await app.press('g');
    for (let k = 0; k < at; k++) await app.press('j');
    // 3 in the root, 3 shown in the continuation (its fourth was rewound).
    const row = listRows(app.frame()).find((l) => l.includes('Conversation chain'))!;
    expect(row).toMatch(/cli +6 ⛓2/);
    await app.waitFor(() => app.state().view?.title === 'Conversation chain', 'the preview');
    expect(previewText(app.frame())).toContain('· 6 messages ·');
    await app.press(KEY.enter);
    await app.press('G');
    expect(app.frame()).toMatch(/6\/6 · 100%/);
    expect(app.state().view?.win.total).toBe(6);
  });
});

describe('live: new conversations at the top', () => {
  function writeConversation(path: string, id: string, text: string): void {
    // A second connection, as the agent writes.
    buildStoreWriter(path, (db) => {
      insertSession(db, { id, source: 'cli', started_at: Date.now() / 1000 });
      insertMessage(db, { session_id: id, content: text, timestamp: Date.now() / 1000 });
    });
  }

  it('at the top, a new conversation is in view and the selection stays put; scrolled, "↑ N new"', async () => {
    const path = makeStore(40);
    const app = await start(path, { cols: 120, rows: 24 });
    await app.waitFor(() => app.state().recent.complete, 'the full list');
    // Remove pinned ones from the picture: new rows land just below them.
    const pinned = app.state().recent.entries.filter((r) => r.pinned).length;
    for (let k = 0; k < pinned + 1; k++) await app.press('j');
    const looking = app.state().recent.entries[pinned + 1]!;
    writeConversation(path, '20991231_000001_aaaaaa', 'a brand new conversation about herons');
    await act(async () => app.controller.checkForChanges());
    await app.waitFor(
      () => app.state().recent.entries.some((r) => r.sessionId === '20991231_000001_aaaaaa'),
      'the new row',
    );
    const shown = listRows(app.frame());
    expect(shown.some((l) => l.includes('a brand new conversation'))).toBe(true);
    // Still on the conversation the person was looking at.
    expect(app.state().recent.entries[app.state().recent.list.selected]!.rootId).toBe(
      looking.rootId,
    );
    expect(shown.find((l) => l.startsWith('▸'))).toContain(looking.title.slice(0, 20));

    // Scrolled down: the rows stay where they were and the pane says so.
    for (let k = 0; k < 50; k++) await app.press('j');
    expect(app.state().recent.list.offset).toBeGreaterThan(0);
    const still = app.state().recent.entries[app.state().recent.list.selected]!;
    writeConversation(path, '20991231_000002_bbbbbb', 'another new conversation about egrets');
    await act(async () => app.controller.checkForChanges());
    await app.waitFor(() => app.frame().includes('↑ 1 new'), '"↑ 1 new"');
    expect(app.state().recent.entries[app.state().recent.list.selected]!.rootId).toBe(still.rootId);
    await app.press('g');
    expect(app.frame()).not.toContain('↑ 1 new');
    expect(listRows(app.frame()).some((l) => l.includes('another new conversation'))).toBe(true);
  });

  it('H while scrolled down shows hidden rows without calling them new', async () => {
    const app = await start(makeStore(40), { cols: 120, rows: 24 });
    await app.waitFor(() => app.state().recent.complete, 'the full list');
    const listed = app.state().recent.entries.length;
    for (let k = 0; k < 50; k++) await app.press('j');
    expect(app.state().recent.list.offset).toBeGreaterThan(0);
    await app.press('H');
    await app.waitFor(
      () =>
        app.state().showHidden &&
        app.state().recent.complete &&
        app.state().recent.entries.length > listed,
      'hidden rows listed',
    );
    expect(app.state().recent.newAbove).toBe(0);
    expect(app.frame()).not.toMatch(/↑ \d+ new/);
  });
});

function buildStoreWriter(path: string, fill: (db: Db) => void): void {
  const db = new Database(path);
  try {
    fill(db);
  } finally {
    db.close();
  }
}
