/**
 * Journeys of a daily user (issue 20): the list's columns at 100–120 columns,
 * ages, Results' right-hand columns, G at the true end, the help, the header
 * and the status line. A store built with the agent's schema, real keys, the
 * text on screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { buildHome } from '../agents/samples.js';
import { focusedMessage } from '../../src/app/geometry/window.js';
import { resumeFolder } from '../../src/tui/handover.js';
import { helpSections } from '../../src/app/input/hints.js';
import { KEY, NARROW, makeStore, startHarness, type Harness } from './harness.js';

const NOW = 1_790_000_000;
const DAY = 86_400;
/** A title of 30 columns: cut at 100 and 120 columns while fixed columns took ~25 of the pane. */
const LONG_TITLE = 'Quarry pool sizing for nightly';
const SOURCES = ['cli', 'telegram', 'discord'];

function dailyStore(): string {
  return buildStore(30, (db) => {
    const old = insertSession(db, {
      started_at: NOW - 300 * DAY,
      title: 'Quarry ten months ago',
      source: 'cli',
    });
    insertMessage(db, { session_id: old, role: 'user', content: 'quarry question from long ago' });
    for (let i = 0; i < 70; i++) {
      const sid = insertSession(db, {
        started_at: NOW - (i + 1) * 3600,
        title: i === 0 ? LONG_TITLE : `quarry conversation ${i}`,
        source: SOURCES[i % 3]!,
      });
      // Hit counts of one and of two digits: the count column must line up all the same.
      const hits = i % 4 === 0 ? 12 : 1;
      for (let k = 0; k < hits; k++)
        insertMessage(db, { session_id: sid, role: 'user', content: `the quarry, part ${k}` });
      insertMessage(db, { session_id: sid, role: 'assistant', content: `answer ${i}` });
    }
  });
}

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const clock = (): number => NOW * 1000;

async function search(harness: Harness, query: string): Promise<void> {
  await harness.press('/');
  await harness.type(query);
  await harness.waitFor(
    () =>
      !harness.state().results.busy &&
      harness.state().results.forText === query &&
      harness.state().results.items.length > 0,
    `results for ${query}`,
  );
}

/** The rows of the list pane (left of the preview, inside its borders) that hold `text`. */
function rowsWith(frame: string, text: string): string[] {
  return frame
    .split('\n')
    .filter((l) => l.startsWith('│'))
    .map((l) => l.slice(0, l.indexOf('││') + 1))
    .filter((l) => l.includes(text));
}

describe('reading the list', () => {
  it('gives the title the room at 100 and 120 columns, and shows 4-character ages whole', async () => {
    const path = dailyStore();
    for (const cols of [100, 120]) {
      h = await startHarness(path, { cols, rows: 40 }, { now: clock });
      await h.waitFor(() => h!.frame().includes('Quarry'), 'Recent');
      const f = h.frame();
      expect(rowsWith(f, LONG_TITLE), `${cols} columns`).toHaveLength(1);
      await h.press('G');
      await h.waitFor(() => h!.frame().includes('Quarry ten months ago'), 'the oldest row');
      const row = rowsWith(h.frame(), 'Quarry ten months ago')[0]!;
      expect(row).toMatch(/ 9mo |10mo /);
      expect(row).not.toContain('…');
      await h.close();
      h = null;
    }
  });

  it('drops the agent tag when every row is one agent, and a source that repeats the agent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookback-daily-'));
    const home = join(dir, 'home');
    const indexFile = join(dir, 'agents.db');
    buildHome(home);
    const { db } = openIndex(indexFile);
    try {
      indexAll(db, {
        env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' },
        agents: ['claude'],
      });
    } finally {
      db.close();
    }
    // A machine where Claude Code is the only agent with a history.
    h = await startHarness(
      buildStore(30, () => {}),
      { cols: 120, rows: 40 },
      { now: clock, agents: { indexFile, agents: ['claude'], indexWorker: null } },
    );
    await h.waitFor(() => h!.state().recent.entries.length > 0, 'Recent');
    const entries = h.state().recent.entries;
    expect(entries.every((r) => r.agent === 'claude' && r.source === 'claude')).toBe(true);
    const lines = h.frame().split('\n');
    for (const r of entries) {
      const row = lines.find((l) => l.startsWith('│') && l.includes(r.title.slice(0, 12)));
      expect(row, r.title).toBeDefined();
      // Neither the tag nor a source column repeats "claude" on its row.
      expect(row!.slice(0, row!.indexOf('││'))).not.toContain('claude');
    }
  });

  it("lines up Results' age, source and hit count across rows", async () => {
    h = await startHarness(dailyStore(), { cols: 120, rows: 40 }, { now: clock });
    await search(h, 'quarry');
    await h.waitFor(() => Object.keys(h!.state().results.hitCounts).length > 5, 'hit counts');
    const cells = h
      .frame()
      .split('\n')
      .map((l) => /(\d+(?:m|h|d|w|mo|y)) +(cli|telegram|discord) +(\d+) hits? ?│/.exec(l))
      .filter((m) => m !== null);
    expect(cells.length).toBe(17);
    expect(cells.some((m) => m[3] === '12')).toBe(true);
    expect(cells.some((m) => m[3] === '1')).toBe(true);
    // The age ends, the source starts and the count ends in one column on every row.
    const ageEnds = new Set(cells.map((m) => m.index + m[1]!.length));
    const sourceStarts = new Set(cells.map((m) => m.index + m[0].indexOf(m[2]!, m[1]!.length)));
    const countEnds = new Set(cells.map((m) => m.index + m[0].lastIndexOf(m[3]!) + m[3]!.length));
    expect(ageEnds.size).toBe(1);
    expect(sourceStarts.size).toBe(1);
    expect(countEnds.size).toBe(1);
  });

  it('G in Results goes to the true end, loading the rest', async () => {
    h = await startHarness(dailyStore(), { cols: 120, rows: 40 }, { now: clock });
    await search(h, 'quarry');
    await h.waitFor(() => h!.state().results.total !== null, 'the count');
    expect(h.state().results.total).toBe(71);
    expect(h.state().results.items).toHaveLength(50);
    await h.press(KEY.esc);
    expect(h.state().pane).toBe('results');
    await h.press('G');
    await h.waitFor(() => h!.state().results.items.length === 71, 'the rest of the results');
    expect(h.state().results.list.selected).toBe(70);
    expect(h.frame()).toContain('71/71');
    expect(h.frame()).toContain('Quarry ten months ago');
  });
});

describe('the help, the header and the status line', () => {
  it('the help at 160 columns shows every description whole', async () => {
    h = await startHarness(dailyStore(), { cols: 160, rows: 48 }, { now: clock });
    await h.waitFor(() => h!.frame().includes('Quarry'), 'Recent');
    await h.press('?');
    const f = h.frame();
    expect(f).toContain('Keys · ? or Esc closes');
    expect(f).not.toContain('…');
    expect(f).not.toContain('more below');
    // Each description's last word is on screen (wrapped under itself, never cut).
    const text = f.replace(/[│\s]+/g, ' ');
    for (const section of helpSections())
      for (const row of section.rows) {
        const tail = row.description.split(' ').pop()!;
        expect(text, row.description).toContain(tail);
      }
  });

  it('says nothing of tokens when the store records none', async () => {
    h = await startHarness(dailyStore(), { cols: 120, rows: 40 }, { now: clock });
    await h.waitFor(() => h!.frame().includes(LONG_TITLE), 'Recent');
    await h.press(KEY.enter);
    await h.waitFor(() => h!.state().view !== null, 'the conversation');
    await h.waitFor(() => h!.frame().includes('messages ·'), 'the context line');
    expect(h.frame()).not.toContain('tokens');
    await h.press('i');
    await h.waitFor(() => h!.frame().includes('messages'), 'the info panel');
    expect(h.frame()).not.toMatch(/tokens|0 in \/ 0 out/);
  });

  it('the hidden count on the right never cuts a status message', async () => {
    h = await startHarness(makeStore(), NARROW);
    await h.waitFor(() => /\d+ hidden/.test(h!.frame()), 'the hidden count');
    await h.press('H');
    await h.waitFor(() => h!.frame().includes('showing hidden conversations'), 'H');
    await h.press('H');
    const sentence = 'hiding subagent, kanban, tool, archived and hidden conversations';
    await h.waitFor(() => h!.frame().includes(sentence), 'the whole sentence');
  });
});

describe('resume', () => {
  it("R on a Codex conversation whose folder is gone resumes by id; Claude's is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lookback-daily-'));
    const home = join(dir, 'home');
    const indexFile = join(dir, 'agents.db');
    buildHome(home);
    const { db } = openIndex(indexFile);
    try {
      indexAll(db, {
        env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' },
        agents: ['codex', 'claude'],
      });
    } finally {
      db.close();
    }
    const resumed: { argv: string[]; cwd: string | undefined }[] = [];
    h = await startHarness(
      buildStore(30, () => {}),
      { cols: 120, rows: 40 },
      {
        now: clock,
        agents: { indexFile, agents: ['codex', 'claude'], indexWorker: null },
        // What src/tui/run.tsx does before it hands the terminal over.
        resume: (argv, cwd, cwdOptional) => {
          const where = resumeFolder(cwd, cwdOptional);
          if ('refused' in where) return where.refused;
          resumed.push({ argv, cwd: where.cwd });
        },
      },
    );
    await h.waitFor(() => h!.state().recent.entries.length > 0, 'Recent');
    const entries = h.state().recent.entries;
    const codex = entries.findIndex((r) => r.agent === 'codex');
    const claude = entries.findIndex((r) => r.agent === 'claude');
    expect(codex).toBeGreaterThanOrEqual(0);
    expect(claude).toBeGreaterThanOrEqual(0);
    // Their recorded folders are not on this machine.
    expect(existsSync(entries[codex]!.cwd)).toBe(false);
    expect(existsSync(entries[claude]!.cwd)).toBe(false);

    for (let i = 0; i < claude; i++) await h.press('j');
    await h.press('R');
    await h.waitFor(() => h!.frame().includes('is not a directory any more'), 'the refusal');
    expect(resumed).toHaveLength(0);

    await h.press('g');
    for (let i = 0; i < codex; i++) await h.press('j');
    await h.press('R');
    await h.waitFor(() => resumed.length === 1, 'the resume');
    const native = entries[codex]!.sessionId.replace(/^codex:/, '');
    expect(resumed[0]).toEqual({ argv: ['codex', 'resume', native], cwd: undefined });
    expect(h.frame()).toContain(`resuming: codex resume ${native}`);
  });
});

describe('find in the conversation', () => {
  it('wraps around at either end, as less and vim do, and says so', async () => {
    const path = buildStore(30, (db) => {
      const sid = insertSession(db, { started_at: NOW - 3600, title: 'Zebra hunt' });
      for (let i = 0; i < 12; i++)
        insertMessage(db, {
          session_id: sid,
          role: i % 2 ? 'assistant' : 'user',
          content: i % 4 === 1 ? `a zebra number ${i}` : `plain line ${i}`,
        });
    });
    h = await startHarness(path, { cols: 120, rows: 40 }, { now: clock });
    await h.waitFor(() => h!.frame().includes('Zebra hunt'), 'Recent');
    await h.press(KEY.enter);
    await h.waitFor(() => h!.state().view !== null, 'the conversation');
    await h.press('/');
    await h.type('zebra');
    await h.press(KEY.enter);
    await h.waitFor(() => h!.state().view?.find != null, 'the find');
    const hits = h.state().view!.find!.hits;
    expect(hits).toHaveLength(3);
    const focus = (): number | undefined => focusedMessage(h!.state().view!.win)?.id;
    // To the last match, then one more: the first again.
    while (focus() !== hits[2]) await h.press('n');
    await h.press('n');
    expect(focus()).toBe(hits[0]);
    expect(h.frame()).toContain('wrapped to the first');
    expect(h.frame()).toContain('“zebra” 1/3');
    // And back: past the first, the last.
    await h.press('N');
    expect(focus()).toBe(hits[2]);
    expect(h.frame()).toContain('wrapped to the last');
    expect(h.frame()).toContain('“zebra” 3/3');
  });
});
