/**
 * Real-terminal tests for reading (issue 9), with the tmux harness of
 * tmux.test.ts: a store whose titles and messages hold skin-tone emoji,
 * flags and ZWJ sequences leaves the frame whole (header on the first row,
 * status line on the last, nothing scrolled off), and with tmux's `mouse on`
 * the app asks for mouse reports (so tmux gives it the wheel instead of its
 * copy mode), a wheel report scrolls the message pane, and the modes are off
 * again after quitting.
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { safeWidth } from '../../src/text/width.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { PROMPT, Term, requireTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');
const EMOJI = 'family 👨‍👩‍👧‍👦 coder 👩🏽‍💻 thumbs 👍🏽👍🏿 flags 🇯🇵🇫🇷🇺🇸 keycap 1️⃣ ';

let dir: string;
let env: NodeJS.ProcessEnv;
const terms: Term[] = [];

const SUITE = 'real terminal, reading (tmux)';

const appDrawn = (s: string): boolean => s.includes('lookback · ') && s.includes('? help');

async function startApp(name: string): Promise<Term> {
  const term = new Term(name, env, dir);
  terms.push(term);
  await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
  term.run('CI=false node "$LB" --db state.db');
  await term.waitFor('the app', appDrawn);
  return term;
}

/**
 * The status line is drawn: a capture can fall between the start and the end of one
 * frame's write under load, so a wait takes the frame once it is drawn to its last line
 * (a frame that stays cut still fails, by the wait's timeout).
 */
function statusDrawn(screen: string, rows = 48): boolean {
  const last =
    screen
      .split('\n')
      .slice(0, rows - 1)
      .at(-1) ?? '';
  return last.trim() !== '' && !/[┌┐└┘│]/.test(last);
}

/** The frame fills the pane exactly as drawn: header first, status line last, no line too wide. */
function expectWholeFrame(screen: string, rows = 48, cols = 160): void {
  const lines = screen.split('\n');
  expect(lines[0]).toContain('lookback · default');
  // The frame is one line shorter than the terminal; its last line is the status line.
  const last = lines.slice(0, rows - 1).at(-1) ?? '';
  expect(last.trim()).not.toBe('');
  expect(last).not.toMatch(/[┌┐└┘│]/);
  for (const line of lines) expect(safeWidth(line)).toBeLessThanOrEqual(cols);
}

describe(SUITE, () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    const path = buildStore(
      30,
      (db) => {
        for (let i = 0; i < 3; i++) {
          const sid = insertSession(db, {
            started_at: 1_790_000_000 + i,
            title: `${i} 🇯🇵🇫🇷 trip 👨‍👩‍👧 plans 👍🏽`,
          });
          for (let m = 0; m < 60; m++)
            insertMessage(db, {
              session_id: sid,
              role: m % 2 === 0 ? 'user' : 'assistant',
              content: `message ${m}: ${EMOJI.repeat(1 + (m % 4))}`,
            });
        }
      },
      { name: 'state.db' },
    );
    // buildStore writes into its own temp dir: the shell runs there (and it is HOME).
    dir = dirname(path);
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      HERMES_HOME: '',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm-256color',
      PS1: `${PROMPT} `,
      HISTFILE: '/dev/null',
      LB: BIN,
    };
  });

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('emoji, flags and ZWJ sequences leave the frame whole', async () => {
    const term = await startApp('emoji');
    expectWholeFrame(term.capture());
    term.key('Enter');
    const opened = await term.waitFor(
      'the conversation',
      (s) => s.includes('message 59:') && statusDrawn(s),
    );
    expectWholeFrame(opened);
    for (const k of ['k', 'k', 'k', 'PageUp', 'PageUp']) {
      term.key(k);
    }
    const moved = await term.waitFor(
      'the view to move up',
      (s) => !s.includes('message 59:') && statusDrawn(s),
    );
    expectWholeFrame(moved);
    term.resize(90, 30);
    const small = await term.waitFor(
      'the redraw at 90x30',
      (s) =>
        s
          .split('\n')
          .some((l) => l.startsWith('┌') && l.trimEnd().endsWith('┐') && l.length < 120) &&
        statusDrawn(s, 30),
    );
    expectWholeFrame(small, 30, 90);
    term.type('q');
    await term.waitFor('the shell', (s) => s.trimEnd().endsWith(PROMPT));
  });

  it('with tmux mouse on, the app takes the wheel and a wheel report scrolls the message pane', async () => {
    const term = await startApp('mouse');
    term.tmux('set', '-g', 'mouse', 'on');
    const flags = (): string =>
      term
        .tmux('display', '-p', '-t', 'mouse:0.0', '#{mouse_standard_flag}#{mouse_sgr_flag}')
        .trim();
    // tmux forwards the wheel to a pane whose app asked for mouse reports (else: copy mode).
    expect(flags()).toBe('11');
    term.key('Enter');
    await term.waitFor('the conversation', (s) => s.includes('message 59:'));
    term.key('g');
    await term.waitFor('the first messages', (s) => s.includes('message 0:'));
    // Wheel down over the message pane (right of column 84 at 160 columns), as tmux passes it on.
    for (let i = 0; i < 6; i++) term.type('\x1b[<65;120;20M');
    const scrolled = await term.waitFor('the pane to scroll', (s) => !s.includes('message 0:'));
    expect(scrolled).not.toContain('[<65');
    expect(scrolled).not.toContain('65;120;20M');
    expectWholeFrame(scrolled);
    // Wheel up brings the start back.
    for (let i = 0; i < 12; i++) term.type('\x1b[<64;120;20M');
    await term.waitFor('the pane to scroll back', (s) => s.includes('message 0:'));
    term.type('q');
    await term.waitFor('the shell', (s) => s.trimEnd().endsWith(PROMPT));
    expect(flags()).toBe('00');
  });

  it('Ctrl-Z stops to the shell, fg brings the whole frame back, and q leaves the shell screen clean', async () => {
    const term = await startApp('suspend');
    term.key('j');
    term.key('C-z');
    const stopped = await term.waitFor('the shell after Ctrl-Z', (s) => /Stopped/.test(s));
    expect(stopped).not.toContain('lookback · ');
    term.run('fg');
    const back = await term.waitFor('the frame again', appDrawn);
    expectWholeFrame(back);
    term.type('q');
    const after = await term.waitFor('the shell', (s) => s.trimEnd().endsWith(PROMPT));
    // Nothing the app drew stays on the shell's screen (a frame written outside the alternate screen would).
    expect(after).not.toMatch(/[┌┐└┘│]/);
    expect(after).not.toContain('lookback · ');
  });
});
