/**
 * The app's first frame loads none of the Node built-ins it uses only later
 * (issue 20, the first frame): dist/app.cjs takes child_process, crypto,
 * worker_threads, v8, https and tls on first use (scripts/lazyBuiltins.mjs), so
 * the start does not compile them (with child_process: dgram, the socket list):
 * dist/app.cjs's load ~12 ms of CPU less (A/B in the README, issue 20 start-up). The built app in tmux, with a preload that
 * lists the built-ins loaded when the first frame's start mark is made, with the
 * other agents' index beside the Hermes store, as a user has it. Without the
 * plugin on dist/app.cjs this fails: child_process, worker_threads and crypto
 * are required by the bundle's top level.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexSamples } from '../agents/samples.js';
import { makeStore } from './harness.js';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { PROMPT, Term, requireTmux, shellEnv } from '../helpers/tmux.js';

const LATER = ['child_process', 'crypto', 'worker_threads', 'v8', 'https', 'tls'];

const terms: Term[] = [];
afterAll(() => {
  for (const t of terms.splice(0)) t.kill();
});

describe("the app's first frame", () => {
  it('loads none of the built-ins the app uses only after it', async () => {
    requireTmux();
    const dir = tempDir('lookback-builtins-');
    const out = join(dir, 'builtins.json');
    const preload = join(dir, 'preload.cjs');
    writeFileSync(
      preload,
      `const mark = performance.mark.bind(performance);
performance.mark = (name, options) => {
  if (name === 'lookback:run: first frame drawn')
    require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList));
  return mark(name, options);
};
`,
    );
    const db = makeStore(30);
    const index = join(dir, 'agents.db');
    indexSamples(dir, index);
    const term = new Term('builtins', shellEnv(dir, resolve(BIN)), dir);
    terms.push(term);
    await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
    term.run(
      `CI=false LOOKBACK_AGENTS=all LOOKBACK_INDEX="${index}" LOOKBACK_START_MARKS="${join(dir, 'marks.json')}" NODE_OPTIONS="--require ${preload}" node "$LB" --db "${db}"`,
    );
    // The first frame lists the other agents' conversations too (the agent column).
    await term.waitFor('the app with the agents', (s) => s.includes('? help') && /claude/.test(s));
    const end = Date.now() + 10_000;
    while (!existsSync(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const loaded = (JSON.parse(readFileSync(out, 'utf8')) as string[])
      .filter((m) => m.startsWith('NativeModule '))
      .map((m) => m.slice('NativeModule '.length));
    // The list is the real one: the app's own built-ins are in it.
    expect(loaded).toEqual(expect.arrayContaining(['fs', 'tty', 'os']));
    expect(loaded.filter((m) => LATER.includes(m))).toEqual([]);
    term.type('q');
  });
});
