/**
 * The real-terminal test: the built app (dist/lookback.js) runs in a shell
 * inside tmux, is driven with `send-keys` and read with `capture-pane -p`, the
 * way a person uses it. Each test has its own tmux server (a private socket, no
 * config file), its own temp HOME and cache, and polls the pane with generous
 * timeouts (a loaded 2-core machine may take seconds to draw), never relying
 * on fixed sleeps.
 */
import { RECENT_FULL_LIMIT, SEARCH_LIMIT } from '../../src/budgets.js';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerQuery } from '../../src/app/data/queries.js';
import { loadRecent } from '../../src/app/data/rows.js';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { displayWidth } from '../../src/text/width.js';
import { tempDir } from '../helpers/fixtures.js';
import { MARKER, PROMPT, Term, shellEnv as tmuxShellEnv, requireTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');
/** A word the generated store (seed 11) says in several conversations. */
const QUERY = 'billing';

const APP_COMMAND = 'CI=false node "$LB" --db state.db';

/**
 * A shell in tmux, in the temp HOME next to the store, with the marker printed;
 * `before` is the screen up to the marker, as the shell left it.
 */
async function shellWithMarker(name: string): Promise<{ term: Term; before: string[] }> {
  const term = new Term(name, shellEnv, dir);
  terms.push(term);
  await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
  term.run(`echo ${MARKER}`);
  const screen = await term.waitFor('the marker', (s) =>
    nonEmpty(s).some((l, i, ls) => l === MARKER && ls[i + 1] === PROMPT),
  );
  const ls = nonEmpty(screen);
  return { term, before: ls.slice(0, ls.indexOf(MARKER) + 1) };
}

function startApp(term: Term): void {
  term.run(APP_COMMAND);
}

/** A screen's non-empty lines (capture-pane pads the pane with blank lines). */
function nonEmpty(screen: string): string[] {
  return screen.split('\n').filter((l) => l.trim() !== '');
}

/** The app's frame is on screen: its header and its status line hints. */
const appDrawn = (s: string): boolean => s.includes('lookback · ') && s.includes('? help');

/**
 * The app is gone and the main screen is back: the marker and the prompt,
 * and nothing of the app's frame (panes, header, status line).
 */
function shellRestored(s: string): boolean {
  const ls = nonEmpty(s);
  return (
    ls.includes(MARKER) &&
    ls[ls.length - 1] === PROMPT &&
    !/[┌┐└┘│]/.test(s) &&
    !s.includes('lookback · ') &&
    !s.includes('? help')
  );
}

/**
 * The screen after the app left is the shell's, exactly: what was there before
 * (up to the marker), the command that started the app, then a new prompt.
 */
function expectRestored(screen: string, before: string[]): void {
  expect(nonEmpty(screen)).toEqual([...before, `${PROMPT} ${APP_COMMAND}`, PROMPT]);
}

let dir: string;
let shellEnv: NodeJS.ProcessEnv;
let sessions: number;
let resultCount: number;
let recentTitles: string[];
const terms: Term[] = [];

// Without tmux the suite is skipped, and its name says why (.ci/run installs tmux).
const SUITE = 'real terminal (tmux)';

describe(SUITE, () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    // The temp dir is HOME, so the header shows the store as ~/state.db.
    dir = tempDir('lookback-e2e-');
    const path = join(dir, 'state.db');
    generateStore(path, {
      layout: 30,
      sessions: 60,
      seed: 11,
      longSessions: 1,
      longSessionMessages: 900,
    });
    mkdirSync(join(dir, 'cache'));
    // What the app should show, from the same code paths it uses.
    const store = Store.open(path, { profile: 'default' });
    try {
      const recent = loadRecent(store, RECENT_FULL_LIMIT, false);
      sessions = recent.rows.length;
      recentTitles = recent.rows.slice(0, 5).map((r) => r.title);
      let count = -1;
      answerQuery(
        store,
        {
          kind: 'search',
          generation: 1,
          query: QUERY,
          sort: 'relevance',
          roles: ['user', 'assistant'],
          limit: SEARCH_LIMIT,
        },
        (r) => {
          if (r.kind === 'search') count = r.items.length;
        },
      );
      resultCount = count;
    } finally {
      store.close();
    }
    expect(resultCount).toBeGreaterThan(1);
    shellEnv = tmuxShellEnv(dir, BIN);
  });

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('searches, opens a hit, copies its anchor, redraws on resize and restores the shell on q', async () => {
    const { term, before } = await shellWithMarker('journey');
    startApp(term);

    // First screen: header with the store and its size, Recent rows, key hints. The
    // first frame holds a screenful of rows ("56+ sessions"); the whole list follows.
    await term.waitFor('the first screen', appDrawn);
    const first = await term.waitFor('the whole list counted', (screen) =>
      screen.includes(`· ${sessions} sessions`),
    );
    const lines = first.split('\n');
    expect(lines[0]).toContain('lookback · default · ~/state.db');
    expect(lines[0]).toContain(`· ${sessions} sessions`);
    expect(first).toContain(`Recent · ${sessions}`);
    for (const title of recentTitles)
      expect(first).toContain(Array.from(title).slice(0, 8).join(''));
    expect(first).toMatch(/│▸ /);
    const status = nonEmpty(first).at(-1)!;
    expect(status).toMatch(/↑↓ move · ⏎ open .*\? help · q quit/);
    expect(status).toContain('hidden');

    // A search: the Results pane says how many conversations matched.
    term.type('/');
    await term.waitFor('the search line to take input', (s) => s.includes('/ ▌'));
    term.type(QUERY);
    await term.waitFor(`${resultCount} results`, (s) =>
      s.includes(`Results: ${resultCount} sessions`),
    );

    // Enter opens the top hit: the message window's position line.
    term.key('Enter');
    const opened = await term.waitFor('the message window', (s) =>
      /msg [\d,]+ · hit 1\/\d+ in session · \d+%/.test(s),
    );
    const id = Number(/msg ([\d,]+) · hit/.exec(opened)![1]!.replace(/,/g, ''));
    expect(opened).toMatch(new RegExp(`▸▶\\w+ · .* · #${id}\\b`));

    // y copies the focused message's scroll call; inside tmux through the tmux buffer.
    term.type('y');
    await term.waitFor('the copy status', (s) =>
      s.includes(`anchor for message ${id.toLocaleString('en-US')}: copied to the tmux buffer`),
    );
    const buffer = term.tmux('show-buffer');
    expect(buffer).toMatch(
      new RegExp(`^session_search\\(session_id="[\\w-]+", around_message_id=${id}, window=5\\)$`),
    );
    const owner = /session_id="([\w-]+)"/.exec(buffer)![1]!;
    const store = Store.open(join(dir, 'state.db'), { profile: 'default' });
    try {
      const row = store.db.prepare('SELECT session_id FROM messages WHERE id = ?').get(id) as {
        session_id: string;
      };
      expect(row.session_id).toBe(owner);
    } finally {
      store.close();
    }

    // Narrow (below 100 columns): the message view alone, at full width, and nothing left of the wide frame.
    term.resize(90, 30);
    const narrow = await term.waitFor('the narrow layout', (s) => {
      const ls = s.split('\n');
      const top = ls[2] ?? '';
      return (
        ls.length >= 29 &&
        /^┌─ .*┐$/.test(top) &&
        displayWidth(top) === 90 &&
        top.indexOf('┌') === top.lastIndexOf('┌')
      );
    });
    const nl = narrow.split('\n');
    for (const l of nl) expect(displayWidth(l)).toBeLessThanOrEqual(90);
    expect(nl[0]).toContain('lookback · default');
    expect(nl[1]).toContain(`/ ${QUERY}`);
    // One pane: one top-left corner, and the panes that are not shown are gone.
    expect(nl[2]!.match(/┌/g)).toHaveLength(1);
    expect(narrow).not.toContain('Recent · ');
    expect(narrow).not.toContain('Results: ');
    // The frame is rows - 1 = 29 lines: the pane's bottom border and the status line end it.
    expect(nl[27]).toMatch(new RegExp(`^└─ msg ${id.toLocaleString('en-US')} · hit .*┘$`));
    expect(displayWidth(nl[27]!)).toBe(90);
    expect(nl[28]).toMatch(/^ \S/);
    for (const l of nl.slice(3, 27)) expect(l).toMatch(/^│.*│$/);

    // q: the main screen comes back as it was, with a new prompt.
    term.type('q');
    const after = await term.waitFor('the shell to come back', shellRestored);
    expectRestored(after, before);
    term.run('echo EXIT=$?');
    await term.waitFor('the exit code', (s) => s.includes('EXIT=0'));
  });

  it('quits on Ctrl-C and restores the screen', async () => {
    const { term, before } = await shellWithMarker('ctrlc');
    startApp(term);
    await term.waitFor('the first screen', appDrawn);
    term.key('C-c');
    const after = await term.waitFor('the shell to come back', shellRestored);
    expectRestored(after, before);
    expect(term.childPid()).toBeNull();
  });

  it('keeps a V8 code cache of the app: written when it quits, read by the next start', async () => {
    const cacheHome = join(dir, 'code-cache-test');
    mkdirSync(cacheHome);
    const code = join(cacheHome, 'lookback', 'code');
    const caches = () => (existsSync(code) ? readdirSync(code) : []);
    const { term } = await shellWithMarker('codecache');
    const run = async () => {
      term.run(`XDG_CACHE_HOME=${cacheHome} ${APP_COMMAND}`);
      await term.waitFor('the first screen', appDrawn);
      term.key('q');
      // The shell's own prompt, not just the app gone: typed ahead, the line would reach the app.
      await term.waitFor('the shell to come back', (s) => nonEmpty(s).at(-1) === PROMPT);
      term.run('echo EXIT=$?');
      await term.waitFor('the exit code', (s) => s.includes('EXIT=0'));
      term.run('clear');
    };
    // A run that stops early (not a SQLite file) leaves no cache: it compiled almost nothing.
    writeFileSync(join(dir, 'not-a-store.db'), 'plain text, not SQLite\n');
    term.run(`XDG_CACHE_HOME=${cacheHome} CI=false node "$LB" --db not-a-store.db; echo EXIT=$?`);
    await term.waitFor('the failed start', (s) => /EXIT=1\b/.test(s));
    expect(caches()).toEqual([]);
    term.run('clear');
    await run();
    const written = caches().sort();
    // The app's bundle and the command line's, each named by its hash, Node and arch.
    const tail = `-[0-9a-f]{16}-${process.version}-${process.arch}\\.v8cache$`;
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(new RegExp(`^app${tail}`));
    expect(written[1]).toMatch(new RegExp(`^cli-app${tail}`));
    const stats = () => written.map((f) => statSync(join(code, f))).map((s) => [s.ino, s.mtimeMs]);
    const before = stats();
    await run();
    // A refused cache would have been deleted; a used one is left as it is.
    expect(caches().sort()).toEqual(written);
    expect(stats()).toEqual(before);
  });

  it('restores the screen when the app gets SIGTERM', async () => {
    const { term, before } = await shellWithMarker('sigterm');
    startApp(term);
    await term.waitFor('the first screen', appDrawn);
    const pid = term.childPid();
    expect(pid).not.toBeNull();
    process.kill(pid!, 'SIGTERM');
    const after = await term.waitFor('the shell to come back', shellRestored);
    expectRestored(after, before);
    term.run('echo EXIT=$?');
    // 128 + SIGTERM, as shells expect.
    await term.waitFor('the exit code', (s) => s.includes('EXIT=143'));
    expect(term.childPid()).toBeNull();
  });
});
