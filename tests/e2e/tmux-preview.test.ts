/**
 * The real-terminal test of issue 9: in tmux, the built app's preview follows
 * the selection (never the previous conversation's text under a new title),
 * and a conversation the agent writes while the app is open appears at the top.
 * The setup is tests/e2e/tmux.test.ts's: a private tmux server, a temp HOME,
 * polling with generous timeouts, no fixed sleeps.
 */
import { RECENT_FULL_LIMIT } from '../../src/budgets.js';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { loadRecent } from '../../src/app/data/rows.js';
import type { SessionRow } from '../../src/app/model.js';
import { generateStore } from '../../src/demo/generate.js';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { contentText } from '../../src/store/content.js';
import { sessionEdge } from '../../src/store/messages.js';
import { Store } from '../../src/store/store.js';
import { tempDir } from '../helpers/fixtures.js';
import { PROMPT, Term, shellEnv as tmuxShellEnv, requireTmux } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');
const APP_COMMAND = 'CI=false node "$LB" --db state.db';

let dir: string;
let shellEnv: NodeJS.ProcessEnv;
let rows: SessionRow[];
/** A fragment of each listed conversation's newest message (null: none that fits in view). */
let fragments: (string | null)[];
let near: string[];
const terms: Term[] = [];

const SUITE = 'real terminal (tmux): preview and live list';

/** The message pane: each screen line right of the list pane's right border. */
function preview(screen: string): string {
  return screen
    .split('\n')
    .map((l) => {
      const at = l.indexOf('┐┌') >= 0 ? l.indexOf('┐┌') : l.indexOf('││');
      return at >= 0 ? l.slice(at + 1) : '';
    })
    .join('\n');
}

/** The list pane's rows (inside its borders). */
function listRows(screen: string): string[] {
  return screen
    .split('\n')
    .slice(3)
    .filter((l) => l.startsWith('│'))
    .map((l) => l.split('│')[1] ?? '');
}

const appDrawn = (s: string): boolean => s.includes('lookback · ') && s.includes('? help');

async function startApp(name: string): Promise<Term> {
  const term = new Term(name, shellEnv, dir);
  terms.push(term);
  await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
  term.run(APP_COMMAND);
  await term.waitFor('the first screen', appDrawn);
  return term;
}

describe(SUITE, () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    dir = tempDir('lookback-e2e-preview-');
    const path = join(dir, 'state.db');
    generateStore(path, {
      layout: 30,
      sessions: 60,
      seed: 11,
      longSessions: 1,
      longSessionMessages: 900,
    });
    mkdirSync(join(dir, 'cache'));
    const store = Store.open(path, { profile: 'default' });
    try {
      rows = loadRecent(store, RECENT_FULL_LIMIT, false).rows;
      fragments = rows.map((r) => {
        const tail = sessionEdge(store, r.sessionId, 'tail', 6);
        const last = tail[tail.length - 1];
        if (!last || (last.role !== 'user' && last.role !== 'assistant')) return null;
        const text = contentText(last.content);
        if (text.length > 300) return null;
        const line = text.split('\n').find((l) => /^[A-Za-z][A-Za-z ,.'-]{24,}/.test(l));
        return line ? line.slice(0, 24) : null;
      });
      near = rows.map((r) =>
        sessionEdge(store, r.sessionId, 'tail', 80)
          .map((m) => contentText(m.content))
          .join('\n'),
      );
    } finally {
      store.close();
    }
    shellEnv = tmuxShellEnv(dir, BIN);
  });

  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the preview follows the selection and never shows the previous text under a new title', async () => {
    // Two neighbours whose newest messages differ and fit in view.
    const i = rows.findIndex((_, k) => {
      const a = fragments[k];
      const b = fragments[k + 1];
      return a != null && b != null && !near[k + 1]!.includes(a) && !near[k]!.includes(b ?? '');
    });
    expect(i).toBeGreaterThanOrEqual(0);
    const term = await startApp('preview');
    for (let k = 0; k < i; k++) term.type('j');
    const first = rows[i]!;
    const second = rows[i + 1]!;
    await term.waitFor(`the preview of "${first.title}"`, (s) =>
      preview(s).includes(fragments[i]!),
    );
    term.type('j');
    // Every screen drawn on the way: the new title never sits over the old text.
    const seen: string[] = [];
    await term.waitFor(`the preview of "${second.title}"`, (s) => {
      seen.push(s);
      return preview(s).includes(fragments[i + 1]!);
    });
    const head = Array.from(second.title).slice(0, 20).join('');
    for (const s of seen)
      if (preview(s).includes(head)) expect(preview(s)).not.toContain(fragments[i]!);
    // Enter moves the keyboard there, and the status line names what is read.
    term.key('Enter');
    await term.waitFor('the status line naming it', (s) =>
      (
        s
          .split('\n')
          .filter((l) => l.trim() !== '')
          .at(-1) ?? ''
      ).includes(head),
    );
    term.type('q');
  });

  it('a conversation written while the app is open appears at the top', async () => {
    const term = await startApp('live');
    await term.waitFor('the whole list', (s) => s.includes(`Recent · ${rows.length} `));
    const pinned = rows.filter((r) => r.pinned).length;
    const title = 'Heron migration patterns, written just now';
    const db = new Database(join(dir, 'state.db'));
    try {
      const now = Date.now() / 1000;
      const id = insertSession(db, {
        id: '20991231_000001_abcdef',
        source: 'cli',
        title,
        started_at: now,
      });
      insertMessage(db, {
        session_id: id,
        content: 'where do herons go in winter?',
        timestamp: now,
      });
    } finally {
      db.close();
    }
    const screen = await term.waitFor('the new conversation in the list', (s) =>
      listRows(s).some((l) => l.includes('Heron migration')),
    );
    // At the top (below any pinned conversation), where the person is looking.
    const at = listRows(screen).findIndex((l) => l.includes('Heron migration'));
    expect(at).toBe(pinned);
    expect(screen).toContain(`Recent · ${rows.length + 1} `);
    term.type('q');
  });
});
