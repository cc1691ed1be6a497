/**
 * `lookback stats` in a real terminal (tmux): colour on a TTY, none with
 * NO_COLOR, the drawing growing to the terminal's width and never past it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { Term, requireTmux, shellEnv } from '../helpers/tmux.js';
import { statsHome } from './histories.js';

const ANSI = /\x1b\[[0-9;]*m/g;

describe('lookback stats on a TTY', () => {
  let term: Term;
  beforeAll(() => {
    requireTmux();
    const home = tempDir('lookback-stats-tty-');
    statsHome(home);
    const env = {
      ...shellEnv(home, BIN),
      LOOKBACK_INDEX: join(home, 'cache', 'agents.db'),
      TZ: 'UTC',
    };
    term = new Term('stats', env, home);
    term.resize(160, 100); // the whole drawing on one screen
  });
  afterAll(() => term?.kill());

  const draw = async (command: string, mark: string): Promise<string> => {
    term.run('clear');
    term.run(`${command}; echo ${mark}`);
    await term.waitFor(mark, (s) => s.split('\n').some((l) => l.trim() === mark));
    return term.tmux('capture-pane', '-p', '-e', '-t', 'stats:0.0');
  };

  it('draws in colour to the full width, and without colour under NO_COLOR', async () => {
    const color = await draw('node "$LB" stats', 'DONE-1');
    expect(color).toMatch(/\x1b\[[0-9;]*m/);
    const lines = color.replace(ANSI, '').split('\n');
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(160);
    // The agents' sparklines grow with the terminal: 160 columns, not 80.
    const hermes = lines.find((l) => l.startsWith('hermes '))!;
    expect([...hermes].length).toBeGreaterThan(120);
    expect(hermes).toMatch(/12 msgs · 4 conv · 30 min$/);
    const plain = await draw('NO_COLOR=1 node "$LB" stats', 'DONE-2');
    const body = plain.slice(plain.indexOf('lookback stats'), plain.lastIndexOf('DONE-2'));
    expect(body).toContain('Tokens by model');
    expect(body).not.toMatch(/\x1b\[[0-9;]*m/);
  });
});
