/**
 * Journeys for reading and acting (issue 9): Markdown and tool JSON as a
 * reader shows them, hits inside tool output, message steps, hiding tool
 * steps, frames that hold whatever the store holds, the mouse, export,
 * resume and Ctrl-Z. Real store (the agent's schema), real keys, the text on
 * screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationJson, conversationMarkdown } from '../../src/export/conversation.js';
import { sessionMeta } from '../../src/store/lineage.js';
import { readSession } from '../../src/store/messages.js';
import { Store } from '../../src/store/store.js';
import { safeWidth } from '../../src/text/width.js';
import { focusedMessage } from '../../src/app/geometry/window.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { KEY, NARROW, WIDE, startHarness, type Harness } from './harness.js';

const MARKDOWN = [
  '# Pool leak',
  '',
  'The **pool** grows and *never* shrinks.',
  '',
  '- first item',
  '- second item',
  '',
  '| key | value |',
  '| --- | ----- |',
  '| max | 20 |',
  '',
  '```ts',
  'const pool = createPool({ max: 20 });',
  '```',
].join('\n');

const FILLER = 'nothing interesting in this line of the log '.repeat(12);
const EMOJI = 'Found it 👍🏽👍🏿 🇯🇵🇫🇷🇺🇸 👨‍👩‍👧‍👦 👩🏽‍💻 ok '.repeat(6);

interface Built {
  path: string;
  sid: string;
  ids: Record<string, number>;
}

function readingStore(): Built {
  const ids: Record<string, number> = {};
  let sid = '';
  const path = buildStore(30, (db) => {
    for (let i = 0; i < 6; i++) {
      const other = insertSession(db, {
        started_at: 1_790_000_000 + i * 10,
        title: `other conversation ${i}`,
      });
      insertMessage(db, { session_id: other, role: 'user', content: `plain question ${i}` });
      insertMessage(db, { session_id: other, role: 'assistant', content: `plain answer ${i}` });
    }
    sid = insertSession(db, {
      started_at: 1_790_100_000,
      title: 'Pool leak 🇯🇵 👨‍👩‍👧 hunt',
      cwd: '/work/pool',
    });
    ids.user = insertMessage(db, {
      session_id: sid,
      role: 'user',
      content: 'why does the pool grow?',
    });
    ids.md = insertMessage(db, { session_id: sid, role: 'assistant', content: MARKDOWN });
    ids.call = insertMessage(db, {
      session_id: sid,
      role: 'assistant',
      content: '',
      tool_calls: JSON.stringify([
        {
          id: 'call_1',
          type: 'function',
          function: {
            name: 'terminal',
            arguments: JSON.stringify({ command: 'grep ECONN app.log' }),
          },
        },
      ]),
    });
    ids.tool = insertMessage(db, {
      session_id: sid,
      role: 'tool',
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      content: JSON.stringify({
        output: `line one\n${FILLER}\nECONNRESET zebra42 at socket\nline three`,
        exit_code: 0,
      }),
    });
    ids.emoji = insertMessage(db, { session_id: sid, role: 'assistant', content: EMOJI });
    ids.tool2 = insertMessage(db, {
      session_id: sid,
      role: 'tool',
      tool_name: 'terminal',
      content: `${FILLER}${FILLER} second zebra42 sighting`,
    });
    ids.last = insertMessage(db, { session_id: sid, role: 'user', content: 'thanks, that was it' });
  });
  return { path, sid, ids };
}

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** The frame's line holding the focus marker (the focused message's header). */
function focusLine(frame: string): string {
  return frame.split('\n').find((l) => /▸[▶ ](user|assistant|tool|system) · /.test(l)) ?? '';
}

/** Open the reading conversation (the newest in Recent) from the start. */
async function openReading(harness: Harness): Promise<void> {
  await harness.waitFor(() => harness.frame().includes('Pool leak'), 'Recent');
  await harness.press(KEY.enter);
  await harness.waitFor(() => harness.state().view !== null, 'the conversation');
}

function frameFits(frame: string, cols: number, rows: number): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows);
  for (const line of lines) expect(safeWidth(line)).toBeLessThanOrEqual(cols);
}

describe('reading a conversation', () => {
  it('renders Markdown: headings, emphasis, lists, tables and code, without raw markers', async () => {
    const b = readingStore();
    h = await startHarness(b.path, WIDE);
    await openReading(h);
    const f = h.frame();
    expect(f).toContain('Pool leak');
    expect(f).not.toMatch(/# Pool leak/);
    expect(f).toContain('The pool grows and never shrinks.');
    expect(f).not.toContain('**pool**');
    expect(f).toContain('first item');
    expect(f).toContain('second item');
    expect(f).not.toMatch(/^\W*- first item/m);
    expect(f).toContain('const pool = createPool({ max: 20 });');
    expect(f).not.toContain('```');
    const tableRow = f
      .split('\n')
      .find((l) => l.includes('max') && l.includes('20') && !l.includes('createPool'));
    expect(tableRow).toBeDefined();
    expect(f).not.toContain('| --- |');
  });

  it('shows tool JSON on several lines when expanded, and ]/[ move the focus message by message', async () => {
    const b = readingStore();
    h = await startHarness(b.path, WIDE);
    await openReading(h);
    // Opened at the tail: the focus is on the last message.
    expect(focusLine(h.frame())).toContain(`#${b.ids.last}`);
    await h.press('[');
    expect(focusLine(h.frame())).toContain(`#${b.ids.tool2}`);
    await h.press('[', '[');
    expect(focusLine(h.frame())).toContain(`#${b.ids.tool}`);
    await h.press(']');
    expect(focusLine(h.frame())).toContain(`#${b.ids.emoji}`);
    await h.press('K');
    expect(focusLine(h.frame())).toContain(`#${b.ids.tool}`);
    // Expanded, the output's "\n" are real line breaks.
    await h.press('e');
    const lines = h.frame().split('\n');
    const one = lines.findIndex((l) => l.includes('line one'));
    expect(one).toBeGreaterThan(0);
    expect(lines[one]).not.toContain('line three');
    expect(lines.some((l, i) => i > one && l.includes('ECONNRESET zebra42 at socket'))).toBe(true);
    expect(lines.some((l, i) => i > one && l.includes('line three'))).toBe(true);
    expect(h.frame()).not.toContain('\\n');
    // The help lists the new keys.
    await h.press('?');
    expect(h.frame()).toContain('Next message');
    expect(h.frame()).toContain('Hide or show tool steps');
  });

  it('T hides tool steps (tool calls and outputs) and says so in the header', async () => {
    const b = readingStore();
    h = await startHarness(b.path, WIDE);
    await openReading(h);
    await h.press('g');
    expect(h.frame()).toContain('terminal output');
    expect(h.frame()).toContain('⚙ terminal');
    await h.press('T');
    let f = h.frame();
    expect(f.split('\n')[0]).toContain('tool steps hidden');
    expect(f).not.toContain('terminal output');
    expect(f).not.toContain('⚙ terminal');
    expect(f).toContain('Pool leak');
    expect(f).toContain('thanks, that was it');
    // Message steps skip what is hidden: from the Markdown answer straight to the emoji one.
    while (!focusLine(h.frame()).includes(`#${b.ids.md}`)) await h.press(']');
    await h.press(']');
    expect(focusLine(h.frame())).toContain(`#${b.ids.emoji}`);
    await h.press('T');
    f = h.frame();
    expect(f.split('\n')[0]).not.toContain('tool steps hidden');
    expect(f).toContain('terminal output');
  });

  it('opening a hit inside a tool output shows the match, and so does n', async () => {
    const b = readingStore();
    h = await startHarness(b.path, WIDE);
    await h.press('/');
    await h.press('\x14'); // Ctrl-T: search tool output too
    await h.type('zebra42');
    await h.waitFor(() => h!.state().results.items.length > 0, 'results');
    await h.press(KEY.enter);
    await h.waitFor(() => h!.state().view !== null, 'the hit');
    expect(focusedMessage(h.state().view!.win)!.id).toBe(b.ids.tool);
    let line = focusLine(h.frame());
    const lines = h.frame().split('\n');
    let at = lines.indexOf(line);
    // The collapsed line under the header shows the matching fragment.
    expect(lines[at + 1]).toContain('zebra42');
    await h.press('n');
    expect(focusedMessage(h.state().view!.win)!.id).toBe(b.ids.tool2);
    line = focusLine(h.frame());
    at = h.frame().split('\n').indexOf(line);
    expect(h.frame().split('\n')[at + 1]).toContain('zebra42');
  });
});

describe('frames hold whatever the store holds', () => {
  for (const size of [WIDE, NARROW, { cols: 41, rows: 12 }]) {
    it(`skin tones, flags and ZWJ sequences keep every frame within ${size.cols}x${size.rows}`, async () => {
      const b = readingStore();
      h = await startHarness(b.path, size);
      frameFits(h.frame(), size.cols, size.rows);
      await openReading(h);
      for (let i = 0; i < 8; i++) {
        frameFits(h.frame(), size.cols, size.rows);
        await h.press('k');
      }
      await h.press('[', '[');
      frameFits(h.frame(), size.cols, size.rows);
      // The header is still the first row.
      expect(h.frame().split('\n')[0]).toMatch(/lookback|full-text/);
    });
  }
});

describe('the mouse', () => {
  const wheel = (dir: 1 | -1, x: number, y: number): string =>
    `\x1b[<${dir === 1 ? 65 : 64};${x};${y}M`;
  const click = (x: number, y: number): string => `\x1b[<0;${x};${y}M\x1b[<0;${x};${y}m`;

  it('the wheel scrolls the pane under it; a click selects, a double click opens', async () => {
    const b = readingStore();
    h = await startHarness(b.path, WIDE);
    await h.waitFor(() => h!.frame().includes('Pool leak'), 'Recent');
    // Recent is the left pane (columns 1..35); its first row is screen row 4.
    expect(h.state().recent.list.selected).toBe(0);
    await h.press(wheel(1, 5, 6));
    expect(h.state().recent.list.selected).toBe(3);
    await h.press(wheel(-1, 5, 6));
    expect(h.state().recent.list.selected).toBe(0);
    await h.press(click(5, 4 + 2));
    expect(h.state().recent.list.selected).toBe(2);
    expect(h.state().view).toBeNull();
    await h.press(click(5, 4));
    expect(h.state().recent.list.selected).toBe(0);
    await h.press(click(5, 4));
    await h.waitFor(() => h!.state().view !== null, 'double click opens');
    expect(h.state().view!.title).toContain('Pool leak');
    // The wheel over the message pane (right of column 84) scrolls the conversation.
    await h.press('g');
    const before = h.state().view!.win;
    await h.press(wheel(1, 120, 10));
    const after = h.state().view!.win;
    expect(after.focus + after.top).toBeGreaterThan(before.focus + before.top);
    expect(h.state().pane).toBe('messages');
    expect(h.frame()).not.toContain('[<');
  });

  it('mouse reports never reach the search line as text', async () => {
    const b = readingStore();
    h = await startHarness(b.path, WIDE);
    await h.press('/');
    await h.type('pool');
    await h.press(wheel(1, 5, 6), click(5, 5), '\x1b[<35;7;7M');
    expect(h.state().search.text).toBe('pool');
    expect(h.frame()).not.toContain('[<');
    expect(h.frame()).not.toMatch(/\d+;\d+;\d+M/);
  });
});

describe('export, resume, suspend', () => {
  it('x writes the conversation as Markdown and JSON, equal to the store', async () => {
    const b = readingStore();
    const dir = mkdtempSync(join(tmpdir(), 'lookback-export-'));
    const written: string[] = [];
    h = await startHarness(b.path, WIDE, {
      files: {
        dir,
        exists: existsSync,
        write: (p, t) => {
          written.push(p);
          writeFileSync(p, t, { flag: 'wx' });
        },
      },
    });
    await openReading(h);
    await h.press('x');
    expect(h.frame()).toContain('Export');
    expect(h.frame()).toContain('conversation as Markdown');
    await h.press('1');
    expect(written).toHaveLength(1);
    expect(h.frame()).toContain(`exported to ${dir}`);
    const store = Store.open(b.path, { profile: 'default' });
    try {
      const messages = readSession(store, b.sid).messages;
      const meta = sessionMeta(store, b.sid)!;
      const info = {
        profile: 'default',
        sessionId: b.sid,
        title: meta.title,
        source: meta.source,
        model: meta.model,
        startedAt: meta.started_at,
        cwd: meta.cwd,
      };
      expect(messages.length).toBe(7);
      expect(readFileSync(written[0]!, 'utf8')).toBe(
        conversationMarkdown(info, messages, { anchorId: null }).text,
      );
      await h.press('x', '2');
      expect(written).toHaveLength(2);
      expect(written[1]).toMatch(/\.json$/);
      expect(JSON.parse(readFileSync(written[1]!, 'utf8'))).toEqual(
        JSON.parse(JSON.stringify(conversationJson(info, messages))),
      );
      // A second Markdown export never overwrites the first.
      await h.press('x', '1');
      expect(written).toHaveLength(3);
      expect(written[2]).not.toBe(written[0]);
      expect(readdirSync(dir)).toHaveLength(3);
    } finally {
      store.close();
    }
  });

  it('R resumes the conversation: the agent argv, from LOOKBACK_RESUME when set', async () => {
    const b = readingStore();
    const runs: string[][] = [];
    h = await startHarness(b.path, WIDE, { resume: (argv) => void runs.push(argv), env: {} });
    await openReading(h);
    await h.press('R');
    expect(runs).toEqual([['hermes', '-p', 'default', '--resume', b.sid]]);
    await h.close();
    h = await startHarness(b.path, WIDE, {
      resume: (argv) => void runs.push(argv),
      env: { LOOKBACK_RESUME: "myagent --resume {id} --dir '{cwd}'" },
    });
    await h.waitFor(() => h!.frame().includes('Pool leak'), 'Recent');
    // From Recent: the selected row.
    await h.press('R');
    expect(runs[1]).toEqual(['myagent', '--resume', b.sid, '--dir', '/work/pool']);
    await h.close();
    // The demo store was written by lookback, not an agent: nothing to resume in.
    h = await startHarness(b.path, WIDE, { demo: true, resume: (argv) => void runs.push(argv) });
    await openReading(h);
    await h.press('R');
    expect(runs).toHaveLength(2);
    expect(h.frame()).toContain('the demo store has no agent to resume in');
  });

  it('draws nothing between Ctrl-Z and the return: what changed meanwhile is drawn once back', async () => {
    const b = readingStore();
    let resumeFn: (() => void) | null = null;
    h = await startHarness(b.path, WIDE, { suspend: (onContinue) => (resumeFn = onContinue) });
    await h.waitFor(() => h!.frame().includes('Pool leak'), 'Recent');
    const selected = () =>
      h!
        .frame()
        .split('\n')
        .find((l) => l.includes('│▸')) ?? '';
    const before = selected();
    await h.press('\x1a');
    const stopped = h.frame();
    // Stopped: a change (here a key; after SIGCONT also a worker's answer or a timer)
    // must not draw, or its frame would land on the shell's screen.
    await h.press('j');
    await new Promise((r) => setTimeout(r, 50));
    expect(h.frame()).toBe(stopped);
    resumeFn!();
    await h.waitFor(() => h!.frame().includes('back from the shell'), 'the status after SIGCONT');
    expect(selected()).not.toBe(before);
  });

  it('Ctrl-Z suspends through the shell side and says so when back', async () => {
    const b = readingStore();
    let resumeFn: (() => void) | null = null;
    h = await startHarness(b.path, WIDE, { suspend: (onContinue) => (resumeFn = onContinue) });
    await h.waitFor(() => h!.frame().includes('Pool leak'), 'Recent');
    await h.press('\x1a');
    expect(resumeFn).not.toBeNull();
    // Nothing is drawn for the stop itself: a frame after the terminal left the
    // alternate screen would stay on the shell's screen.
    expect(h.frame()).not.toContain('suspended');
    await h.press('j'); // keys still work after coming back
    resumeFn!();
    await h.waitFor(() => h!.frame().includes('back from the shell'), 'the status after SIGCONT');
    // A second return says a different line (ink redraws only a changed frame).
    await h.press('\x1a');
    resumeFn!();
    await h.waitFor(
      () => h!.frame().includes('back from the shell (2 times)'),
      'the second return',
    );
  });
});
