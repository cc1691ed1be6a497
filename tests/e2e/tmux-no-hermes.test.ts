/**
 * Issue 17: a person whose agents are Claude Code (no Hermes store) runs
 * `lookback` and gets their own history, not the generated demo store; the
 * demo is for a machine with no history at all. Real terminal (tmux), the
 * built app, a temp HOME holding one Claude Code transcript.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fixtures.js';
import { PROMPT, Term, requireTmux, shellEnv } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../dist/lookback.js');
const SID = '5b1c2d3e-1111-4222-8333-944455556666';
const FIRST = 'Where should the job queue live? I think postgres with SKIP LOCKED.';
const DECISION = 'Decision: keep the job queue in postgres using SKIP LOCKED; no redis.';

function transcript(): string {
  const base = { sessionId: SID, cwd: '/home/ana/api', version: '2.1.300' };
  return [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-11-25T10:00:00.000Z',
      message: { role: 'user', content: FIRST },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: '2026-11-25T10:00:05.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: DECISION }],
        usage: { input_tokens: 120, output_tokens: 40 },
      },
    },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n')
    .concat('\n');
}

let home: string;
let file: string;
const terms: Term[] = [];

async function start(name: string, env: NodeJS.ProcessEnv): Promise<Term> {
  const term = new Term(name, env, home);
  terms.push(term);
  await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
  term.run('CI=false node "$LB"');
  return term;
}

describe('real terminal (tmux): no Hermes store, other agents present', () => {
  beforeAll(requireTmux);
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run node scripts/build.mjs`);
    home = tempDir('lookback-e2e-nohermes-');
    mkdirSync(join(home, 'cache'));
    const dir = join(home, '.claude', 'projects', '-home-ana-api');
    mkdirSync(dir, { recursive: true });
    file = join(dir, `${SID}.jsonl`);
    writeFileSync(file, transcript());
  });
  afterEach(() => {
    for (const t of terms.splice(0)) t.kill();
  });
  afterAll(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('lists the Claude conversation alone and says there is no Hermes store; no demo sessions', async () => {
    const before = readFileSync(file);
    const term = await start('nohermes', { ...shellEnv(home, BIN), LOOKBACK_AGENTS: '' });
    const screen = await term.waitFor('the Claude conversation listed', (s) =>
      s.includes('Where should the job queue live?'),
    );
    expect(screen).toContain('no Hermes store');
    expect(screen).not.toContain('demo store');
    expect(screen).toContain('Recent · 1 ');
    // The preview shows the conversation's own words.
    await term.waitFor('its decision in the preview', (s) => s.includes('Decision: keep the job'));
    term.type('q');
    await term.waitFor('the shell prompt again', (s) => s.trimEnd().endsWith(PROMPT));
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('with no history at all, the demo store, and it says so', async () => {
    const empty = tempDir('lookback-e2e-empty-');
    try {
      mkdirSync(join(empty, 'cache'));
      // An empty Claude folder is not a history.
      mkdirSync(join(empty, '.claude', 'projects'), { recursive: true });
      const term = await start('empty', { ...shellEnv(empty, BIN), LOOKBACK_AGENTS: '' });
      const screen = await term.waitFor('the demo store', (s) => s.includes('demo store'));
      expect(screen).not.toContain('no Hermes store');
      term.type('q');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
