/**
 * LOOKBACK_START_MARKS=FILE (src/cli/startMarks.ts, issue 20): where a start's
 * time goes, step by step, in the built executable. A command writes its steps
 * at exit; the app writes them when its first frame is drawn (in tmux). Each
 * step has the ms since the process started and the CPU ms used by then; the
 * answer on stdout is the same with the marks on; unset, nothing is written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeStore } from '../app/harness.js';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { PROMPT, Term, requireTmux, shellEnv } from '../helpers/tmux.js';

interface Step {
  step: string;
  at: number;
  cpu?: number;
}

const read = (file: string): Step[] => JSON.parse(readFileSync(file, 'utf8')) as Step[];

/** The steps' names in order, each matched by a prefix, and their times never going back. */
function expectSteps(steps: Step[], prefixes: string[]): void {
  const names = steps.map((s) => s.step);
  let from = 0;
  for (const p of prefixes) {
    const at = names.findIndex((n, i) => i >= from && n.startsWith(p));
    expect(at, `"${p}" after "${names[from - 1]}" in ${JSON.stringify(names)}`).toBeGreaterThan(-1);
    from = at + 1;
  }
  for (let i = 1; i < steps.length; i++)
    expect(steps[i]!.at).toBeGreaterThanOrEqual(steps[i - 1]!.at);
  const own = steps.filter((s) => !s.step.startsWith('node:'));
  for (const s of own) expect(s.cpu, s.step).toBeGreaterThan(0);
  for (let i = 1; i < own.length; i++)
    expect(own[i]!.cpu!).toBeGreaterThanOrEqual(own[i - 1]!.cpu!);
}

const terms: Term[] = [];
afterAll(() => {
  for (const t of terms.splice(0)) t.kill();
});

describe('start-up marks (LOOKBACK_START_MARKS)', () => {
  it('a command writes its steps at exit, and its answer is the same with them on', () => {
    const db = makeStore(30);
    const dir = tempDir('lookback-marks-');
    const file = join(dir, 'marks.json');
    const env = { ...process.env, HOME: '/nonexistent-home', HERMES_HOME: '', XDG_CACHE_HOME: dir };
    const run = (extra: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [BIN, 'search', 'deploy', '--db', db, '--json'], {
        encoding: 'utf8',
        env: { ...env, ...extra },
      });
    const plain = run({ LOOKBACK_START_MARKS: '' });
    expect(plain.status).toBe(0);
    expect(existsSync(file)).toBe(false);
    const marked = run({ LOOKBACK_START_MARKS: file });
    expect(marked.status).toBe(0);
    expect(marked.stdout).toBe(plain.stdout);
    expectSteps(read(file), [
      'node: bootstrap complete',
      'bin: started',
      'cli.cjs loaded (code cache: ',
      'cli: main',
      'cli: sources chosen',
      'cli: answer built',
      'cli: written',
      'cli: answered',
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the app writes its steps when the first frame is drawn (tmux)', async () => {
    requireTmux();
    const dir = tempDir('lookback-marks-app-');
    const file = join(dir, 'marks.json');
    const db = makeStore(30);
    const term = new Term('marks', shellEnv(dir, resolve(BIN)), dir);
    terms.push(term);
    await term.waitFor('the shell prompt', (s) => s.includes(PROMPT));
    term.run(`CI=false LOOKBACK_START_MARKS="${file}" node "$LB" --db "${db}"`);
    await term.waitFor('the app', (s) => s.includes('? help'));
    const end = Date.now() + 10_000;
    while (!existsSync(file) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const steps = read(file);
    expectSteps(steps, [
      'bin: started',
      'cli.cjs loaded',
      'cli: main',
      'app: start.ts loaded',
      'app: yoga loaded',
      'app.cjs loaded (code cache: ',
      'run: runApp',
      'run: store opened',
      'run: controller created',
      'run: first page of Recent read',
      'run: first frame drawn',
    ]);
    // Written at the first frame: nothing after it (the app is still open).
    expect(steps[steps.length - 1]!.step).toBe('run: first frame drawn');
    term.type('q');
  });
});
