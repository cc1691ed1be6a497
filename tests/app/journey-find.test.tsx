/**
 * Finding (issue 9): filter chips, "50 of N" and more rows, find within a
 * conversation, line editing and history, Esc, type-ahead bursts and the
 * no-results hints, each asserted on the frame after real key input and
 * checked against the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrollCall } from '../../src/anchors/format.js';
import { focusedMessage } from '../../src/app/geometry/window.js';
import { discover } from '../../src/store/search.js';
import { parseWhen } from '../../src/store/time.js';
import { KEY, WIDE, makeStore, startHarness, type Harness } from './harness.js';

let path: string;
beforeAll(() => {
  path = makeStore(160);
});

const CTRL_N = '\x0e';
const CTRL_A = '\x01';
const CTRL_U = '\x15';

async function settled(h: Harness, what: string): Promise<void> {
  await h.waitFor(
    () => !h.state().results.busy && h.state().results.forText === h.state().search.text,
    what,
  );
}

function sourceOf(h: Harness, id: string): string {
  return h.store.db.prepare('SELECT source FROM sessions WHERE id = ?').pluck().get(id) as string;
}

describe('finding (160 conversations, 160x48)', () => {
  let h: Harness;
  const saved: string[][] = [];
  beforeAll(async () => {
    h = await startHarness(path, WIDE, {
      history: { load: () => ['older query'], save: (e) => (saved.push([...e]), null) },
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('filters the results by a chip combined with the text, every row satisfying it', async () => {
    await h.press('/');
    await h.type('test source:telegram');
    await settled(h, 'filtered results');
    const items = h.state().results.items;
    expect(items.length).toBeGreaterThan(0);
    for (const r of items) expect(sourceOf(h, r.rootId)).toBe('telegram');
    const truth = discover(h.store, 'test', {
      limit: 5000,
      views: false,
      filters: { sources: ['telegram'] },
    });
    expect(items.length).toBe(truth.results.length);
    expect(h.frame()).toContain('/ test source:telegram');
    expect(h.frame()).toMatch(new RegExp(`Results: ${truth.results.length} sessions?`));
  });

  it('a filter alone filters Recent', async () => {
    await h.press(CTRL_U);
    await h.type('after:2026-11-01');
    const t = parseWhen('2026-11-01', new Date())!;
    await h.waitFor(() => h.state().recent.complete, 'filtered Recent');
    const rows = h.state().recent.rows;
    const truth = h.store.db
      .prepare(
        `SELECT count(*) FROM sessions WHERE parent_session_id IS NULL AND started_at >= ? AND source IN ('cli','telegram','discord','tui','cron') AND COALESCE(hidden,0)=0 AND COALESCE(archived,0)=0`,
      )
      .pluck()
      .get(t) as number;
    for (const r of rows) expect(r.startedAt).toBeGreaterThanOrEqual(t);
    expect(rows.length).toBeLessThanOrEqual(truth);
    expect(h.frame()).toContain('Recent lists the conversations matching after:2026-11-01');
    // Enter goes to the filtered Recent; / comes back to the line.
    await h.press(KEY.enter);
    expect([h.state().pane, h.state().typing]).toEqual(['recent', false]);
    expect(h.frame()).toContain('/ after:2026-11-01');
    await h.press('/');
  });

  it('says in one line that a key is unknown, or not in the app', async () => {
    await h.press(CTRL_U);
    await h.type('colour:red test');
    expect(h.frame()).toContain('unknown filter colour: (filters: source: in: after:');
    await h.press(CTRL_U);
    await h.type('agent:claude test');
    // Other agents are off in this app (no index): said in one line, not a silent empty list.
    await h.waitFor(
      () => h.frame().includes("agent:claude: claude's conversations are not read here"),
      'the agent: line',
    );
    await h.press(CTRL_U);
    await h.type('profile:work test');
    expect(h.frame()).toContain('profile:work: only one profile is shown (default)');
    await h.press(CTRL_U);
    await h.type('after:someday test');
    expect(h.frame()).toContain('after:someday is not a date');
  });

  it('says "50 of N" with N the true count, and loads more near the end', async () => {
    await h.press(CTRL_U);
    await h.type('test');
    await settled(h, 'results for test');
    const truth = discover(h.store, 'test', { limit: 5000, views: false }).results.length;
    expect(truth).toBeGreaterThan(50);
    await h.waitFor(() => h.state().results.total !== null, 'the count');
    expect(h.state().results.total).toBe(truth);
    expect(h.frame()).toContain(`Results: 50 of ${truth} sessions`);
    // Ctrl-N moves the selection while typing; near the end, more rows load.
    for (let i = 0; i < 45; i++) await h.press(CTRL_N);
    await h.waitFor(() => h.state().results.items.length > 50, 'more results');
    expect(h.state().results.items.length).toBe(Math.min(100, truth));
    expect(h.state().results.list.selected).toBe(45);
    expect(h.frame()).toContain(`Results: ${Math.min(100, truth)} of ${truth} sessions`);
    const keys = new Set(h.state().results.items.map((r) => r.rootId));
    expect(keys.size).toBe(h.state().results.items.length);
  });

  it('edits the line: cursor moves, Ctrl-A, and typing in the middle', async () => {
    await h.press(CTRL_U);
    await h.type('biling');
    await h.press(KEY.left, KEY.left, KEY.left);
    await h.type('l');
    expect(h.state().search.text).toBe('billing');
    await h.press(CTRL_A);
    await h.type('"');
    expect(h.state().search.text).toBe('"billing');
    expect(h.frame()).toContain('/ "billing');
    await h.press('\x1b[F'); // End
    await h.type('"');
    await settled(h, 'phrase results');
    expect(h.frame()).toMatch(/Results: \d+ sessions?/);
  });

  it('Esc keeps the query; / reopens it selected; ↑ recalls older queries; a second Esc clears', async () => {
    await h.press(KEY.esc);
    expect(h.state().typing).toBe(false);
    expect(h.frame()).toContain('/ "billing"');
    expect(saved.at(-1)).toContain('"billing"');
    await h.press('/');
    expect(h.state().search.selected).toBe(true);
    await h.press(KEY.up);
    expect(h.state().search.text).not.toBe('"billing"');
    expect(h.state().search.history.entries).toContain('older query');
    // Typing over a selected line replaces it.
    await h.press(KEY.down, '/', KEY.esc, '/');
    await h.type('x');
    expect(h.state().search.text).toBe('x');
    await h.press(KEY.esc, KEY.esc);
    expect(h.state().search.text).toBe('');
    expect(h.frame()).not.toContain('/ x');
  });

  it('type-ahead: `/query⏎` in one burst opens the first result when it arrives', async () => {
    await h.press('/billing\r');
    await h.waitFor(() => h.state().view !== null && h.state().pane === 'messages', 'opened');
    const first = h.state().results.items[0]!;
    expect(h.state().results.forText).toBe('billing');
    expect(h.state().view!.resultKey).toBe(first.key);
    expect(focusedMessage(h.state().view!.win)?.id).toBe(first.messageId);
    expect(h.frame()).toContain(`#${first.messageId}`);
  });

  it('finds within the conversation with /, walks with n/N onto messages that contain it', async () => {
    const v = h.state().view!;
    const word = 'the';
    await h.press('/');
    expect(h.frame()).toContain('find in conversation:');
    await h.type(word);
    await h.press(KEY.enter);
    const find = h.state().view!.find!;
    expect(find.text).toBe(word);
    const contains = (id: number): boolean => {
      const m = h.store.db
        .prepare('SELECT content, tool_calls, tool_name FROM messages WHERE id = ?')
        .get(id) as Record<string, string | null>;
      return Object.values(m).some((x) => (x ?? '').toLowerCase().includes(word));
    };
    const at = focusedMessage(h.state().view!.win)!;
    expect(find.hits).toContain(at.id);
    expect(contains(at.id)).toBe(true);
    expect(h.frame()).toMatch(new RegExp(`“the” \\d+/${find.hits.length}`));
    if (find.hits.length > 1) {
      await h.press('n');
      const next = focusedMessage(h.state().view!.win)!;
      expect(next.id).toBeGreaterThan(at.id);
      expect(contains(next.id)).toBe(true);
      await h.press('N');
      expect(focusedMessage(h.state().view!.win)!.id).toBe(at.id);
    }
    // Esc leaves the find, then goes back as before.
    await h.press(KEY.esc);
    expect(h.state().view!.find).toBeNull();
    expect(h.state().view!.win.chain).toEqual(v.win.chain);
    await h.press(KEY.esc);
    expect(h.state().pane).toBe('results');
  });

  it('says why nothing was found, and the way out', async () => {
    const hint = async (q: string, re: RegExp): Promise<void> => {
      await h.press(CTRL_U);
      await h.type(q);
      await settled(h, q);
      await h.waitFor(() => re.test(h.frame()), `hint for ${q}`);
    };
    await h.press('/');
    await hint('zzqqxx', /no messages say “zzqqxx”: try fewer words, a prefix/);
    await hint('NOT billing', /only NOT terms/);
    await hint(
      'billing source:nosuch',
      /no results with source:nosuch \(\d+ without the filters\): source:nosuch excludes them all/,
    );
    await h.press('\x06'); // Ctrl-F: fuzzy
    await hint('zzqqxx', /no titles or previews like “zzqqxx”: Ctrl-F switches to full-text/);
    await h.press('\x06');
  });

  it('a burst of Esc Esc q is three keys: leave, clear, quit', async () => {
    expect(h.state().typing).toBe(true);
    await h.press('\x1b\x1bq');
    expect(h.state().search.text).toBe('');
    expect(h.quit()).toBe(true);
  });
});

describe('more filters, fuzzy with a chip, find inside a tool call (80x24)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(path, { cols: 100, rows: 30 }, { home: '/home/dev' });
  });
  afterAll(async () => {
    await h.close();
  });

  const col = (id: string, c: 'cwd' | 'model'): string =>
    (h.store.db.prepare(`SELECT ${c} FROM sessions WHERE id = ?`).pluck().get(id) as string) ?? '';

  it('cwd:~/… is a folder prefix under the home folder; model: is part of the model name', async () => {
    await h.press('/');
    await h.type('test cwd:~/projects/my-app');
    await settled(h, 'cwd results');
    let items = h.state().results.items;
    expect(items.length).toBeGreaterThan(0);
    for (const r of items)
      expect(col(r.sessionId, 'cwd')).toMatch(/^\/home\/dev\/projects\/my-app/);
    await h.press(CTRL_U);
    await h.type('test model:opus');
    await settled(h, 'model results');
    items = h.state().results.items;
    expect(items.length).toBeGreaterThan(0);
    for (const r of items) expect(col(r.sessionId, 'model')).toContain('opus');
    const truth = discover(h.store, 'test', {
      limit: 5000,
      views: false,
      filters: { model: 'opus' },
    });
    expect(items.length).toBe(truth.results.length);
  });

  it('role: chooses which messages are searched', async () => {
    await h.press(CTRL_U);
    await h.type('terminal role:tool');
    await settled(h, 'tool results');
    const items = h.state().results.items;
    expect(items.length).toBeGreaterThan(0);
    for (const r of items) expect(r.matchedRole).toBe('tool');
    await h.press(CTRL_U);
    await h.type('terminal role:robot');
    // The whole line is the status; a narrow pane shows as much of it as fits.
    expect(h.state().status?.text).toContain(
      'role:robot is not a role (roles: user, assistant, tool, system)',
    );
    expect(h.frame()).toContain('role:robot is not a role (roles: user, assist');
  });

  it('fuzzy search with a chip searches only the conversations the chip keeps', async () => {
    await h.press(CTRL_U, '\x06');
    expect(h.state().search.mode).toBe('fuzzy');
    await h.type('source:telegram a');
    await h.waitFor(() => h.state().recent.complete, 'filtered Recent');
    await h.type('p');
    const items = h.state().results.items;
    expect(items.length).toBeGreaterThan(0);
    for (const r of items) expect(r.source).toBe('telegram');
    await h.press('\x06', KEY.esc, KEY.esc);
    expect(h.state().search.text).toBe('');
  });

  it('finds text that is only in a tool call, expanding it where it lands', async () => {
    const m = h.store.db
      .prepare(
        `SELECT id, session_id, tool_calls FROM messages WHERE tool_calls LIKE '%heapsnapshot%' LIMIT 1`,
      )
      .get() as { id: number; session_id: string; tool_calls: string };
    const first = h.store.db
      .prepare('SELECT min(id) FROM messages WHERE session_id = ?')
      .pluck()
      .get(m.session_id) as number;
    await h.press(scrollCall({ sessionId: m.session_id, messageId: first }));
    expect(h.state().pane).toBe('messages');
    await h.press('/');
    await h.type('heapsnapshot');
    await h.press(KEY.enter);
    const hits = h.state().view!.find!.hits;
    expect(hits).toContain(m.id);
    // n walks the matches in order up to the tool call.
    for (const id of hits) {
      expect(focusedMessage(h.state().view!.win)!.id).toBe(id);
      if (id === m.id) break;
      await h.press('n');
    }
    const v = h.state().view!;
    const at = focusedMessage(v.win)!;
    expect(at.id).toBe(m.id);
    expect(JSON.stringify(at.tool_calls)).toContain('heapsnapshot');
    // The collapsed call is expanded, so the match is on screen.
    expect(v.expanded.has(at.id)).toBe(true);
    expect(h.frame()).toContain('heapsnapshot');
  });
});
