/**
 * Finding in a real terminal: the built app in tmux, driven with `send-keys`.
 * A type-ahead burst (`/billing` and Enter in one send-keys call) opens the
 * first result as soon as it arrives; Esc leaves the search line keeping the
 * query. Setup as in tmux.test.ts: a private tmux server, a temp HOME and cache.
 */
import { SEARCH_LIMIT } from '../../src/budgets.js';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerQuery } from '../../src/app/data/queries.js';
import type { ResultItem } from '../../src/app/model.js';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/fixtures.js';
import { PROMPT, Term, shellEnv as tmuxShellEnv, requireTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');
const QUERY = 'billing';

let dir: string;
let env: NodeJS.ProcessEnv;
let first: ResultItem;
const terms: Term[] = [];

const SUITE = 'finding in a real terminal (tmux)';

describe(SUITE, () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    dir = tempDir('lookback-e2e-find-');
    const path = join(dir, 'state.db');
    generateStore(path, { layout: 30, sessions: 60, seed: 11 });
    mkdirSync(join(dir, 'cache'));
    // The first result, from the code path the app uses.
    const store = Store.open(path, { profile: 'default' });
    try {
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
          if (r.kind === 'search') first = r.items[0]!;
        },
      );
    } finally {
      store.close();
    }
    expect(first).toBeDefined();
    env = tmuxShellEnv(dir, BIN);
  });

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function app(name: string): Promise<Term> {
    const term = new Term(name, env, dir);
    terms.push(term);
    await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
    term.run('CI=false node "$LB" --db state.db');
    await term.waitFor('the app', (s) => s.includes('lookback · ') && s.includes('? help'));
    return term;
  }

  it('a type-ahead burst `/billing⏎` opens the first result', async () => {
    const term = await app('burst');
    // One send-keys call: the keys arrive together, before any search has run.
    term.tmux('send-keys', '-t', 'burst:0.0', '/billing', 'Enter');
    const opened = await term.waitFor('the first result opened', (s) =>
      /msg [\d,]+ · hit 1\/\d+ in session · \d+%/.test(s),
    );
    expect(opened).toContain(`#${first.messageId}`);
    expect(opened).toContain('/ billing');
    // The query was remembered in the cache folder.
    await term.waitFor('history saved', () =>
      existsSync(join(dir, 'cache', 'lookback', 'history.json')),
    );
  });

  it('Esc leaves the search line and keeps the query; a second Esc clears it', async () => {
    const term = await app('esc');
    term.type('/');
    term.type(QUERY);
    await term.waitFor('results', (s) => /Results: \d+ sessions/.test(s));
    term.key('Escape');
    const kept = await term.waitFor(
      'the line left',
      (s) => s.includes('/ billing ') && !s.includes('billing▌'),
    );
    expect(kept).toMatch(/Results: \d+ sessions/);
    term.key('Escape');
    await term.waitFor('the query cleared', (s) => s.includes('search messages (full-text)'));
  });
});
