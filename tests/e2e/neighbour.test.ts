/**
 * Being a good neighbour, in a real terminal: the built app, left idle, holds
 * no descriptor on state.db, -wal or -shm (the agent looks in /proc/<pid>/fd
 * before its maintenance), still sees the agent's new conversations, and
 * answers the next key at once.
 */
import { IDLE_CLOSE_MS } from '../../src/budgets.js';
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { insertMessage, insertSession } from '../../src/demo/store.js';

import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import { openStoreFiles } from '../helpers/fds.js';
import { PROMPT, sleep, Term, shellEnv as tmuxShellEnv, requireTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');

let dir: string;
let path: string;
let env: NodeJS.ProcessEnv;
const terms: Term[] = [];

function term(name: string): Term {
  const t = new Term(name, env, dir);
  terms.push(t);
  return t;
}

const appDrawn = (s: string): boolean => s.includes('lookback · ') && s.includes('? help');

describe('a good neighbour in a real terminal (tmux)', () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    dir = tempDir('lookback-e2e-nb-');
    path = join(dir, 'state.db');
    generateStore(path, { layout: 30, sessions: 40, seed: 5 });
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    mkdirSync(join(dir, 'cache'));
    env = tmuxShellEnv(dir, BIN);
  });

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('idle: no descriptor on the store in /proc/<pid>/fd; the agent’s writes still show; a key answers', async () => {
    const t = term('idle');
    await t.waitFor('the shell prompt', (s) => s.includes(PROMPT));
    t.run('CI=false node "$LB" --db state.db');
    await t.waitFor('the first screen', appDrawn);
    const pid = t.childPid();
    expect(pid).not.toBeNull();
    // Reading: the store is open.
    expect(openStoreFiles(path, pid!).length).toBeGreaterThan(0);

    // Left alone for more than 5 s: nothing of the store is held, by any thread.
    await sleep(5_500);
    expect(openStoreFiles(path, pid!)).toEqual([]);
    const idleStart = Date.now();

    // The agent writes a new conversation meanwhile: the app's stat() poll sees it.
    const writer = new Database(path);
    const sid = insertSession(writer, {
      title: 'Osprey nesting census',
      started_at: Date.now() / 1000,
    });
    insertMessage(writer, {
      session_id: sid,
      role: 'user',
      content: 'count the osprey nests',
      timestamp: Date.now() / 1000,
    });
    writer.close();
    await t.waitFor('the change on the status line', (s) =>
      s.includes('store changed: 1 new message, 1 new conversation'),
    );

    // Idle again, then a key: the search answers from the reopened store.
    await sleep(IDLE_CLOSE_MS + 2_500);
    expect(openStoreFiles(path, pid!)).toEqual([]);
    t.type('/');
    await t.waitFor('the search line', (s) => s.includes('/ ▌'));
    t.type('osprey nests');
    // The exact hit first (relaxed ones, marked ≈, may follow it).
    await t.waitFor(
      'the search results',
      (s) => /Results: \d+ session/.test(s) && /▸ +Osprey nesting census/.test(s),
    );
    expect(Date.now() - idleStart).toBeGreaterThan(IDLE_CLOSE_MS);
    t.key('C-c');
    await t.waitFor('the shell back', (s) => !appDrawn(s) && s.trimEnd().endsWith(PROMPT));
  }, 60_000);

  it('a profile on PostgreSQL whose URL cannot be found: one line, exit 1, nothing drawn', async () => {
    const pg = join(dir, '.hermes', 'profiles', 'pg');
    mkdirSync(pg, { recursive: true });
    copyFileSync(join(FIXTURE_DIR, 'hermes-v6.db'), join(pg, 'state.db'));
    writeFileSync(join(pg, 'config.yaml'), 'database:\n  backend: postgres\n');
    const t = term('pg');
    await t.waitFor('the shell prompt', (s) => s.includes(PROMPT));
    t.run('CI=false node "$LB" --profile pg; echo EXIT=$?');
    const screen = await t.waitFor('the exit code', (s) => /EXIT=\d/.test(s));
    // The line is longer than the pane: join the wrapped rows back.
    expect(screen.replace(/\n/g, '')).toContain(
      `lookback: profile pg keeps its sessions in PostgreSQL, but HERMES_DATABASE_URL was not found in ${pg}/.env`,
    );
    expect(screen).toContain('EXIT=1');
    expect(screen).not.toContain('Recent');
  });
});
