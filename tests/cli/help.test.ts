/**
 * `lookback <subcommand> --help` prints that subcommand's own help (issue 20),
 * not the global one; `lookback --help` still prints the global help.
 */
import { describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { subcommandHelp } from '../../src/cli/helpTexts.js';
import { SUBCOMMANDS } from '../../src/cli/subcommands.js';

describe('help', () => {
  it('each subcommand prints its own usage, and only its own', () => {
    for (const cmd of [...SUBCOMMANDS, 'mcp']) {
      for (const flag of ['--help', '-h']) {
        const r = lookback([cmd, flag]);
        expect(r.code, `${cmd} ${flag}`).toBe(0);
        expect(r.stdout).toContain(`$ lookback ${cmd}`);
        const others = [...SUBCOMMANDS, 'mcp'].filter((c) => c !== cmd);
        for (const o of others) expect(r.stdout, `${cmd}: ${o}`).not.toContain(`$ lookback ${o} `);
        expect(r.stderr).toBe('');
      }
    }
    const search = lookback(['search', '--help']).stdout;
    expect(search).toContain('--sort ORDER');
    expect(search).toContain('--roles LIST');
    expect(lookback(['scroll', '--help']).stdout).toContain('--window N');
    expect(lookback(['messages', '--help']).stdout).toContain('--max-chars N');
    expect(lookback(['list', '--help']).stdout).toContain('--cursor C');
    // Two processes per subcommand: slow on a loaded machine.
  }, 120_000);

  it('the global help lists every subcommand', () => {
    const r = lookback(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of [...SUBCOMMANDS, 'mcp']) expect(r.stdout).toContain(`$ lookback ${cmd}`);
  });
});

describe('one usage per command', () => {
  it("each subcommand's usage in its own help is, line for line, the one the global help lists", () => {
    const global = lookback(['--help']).stdout.split('\n');
    for (const cmd of [...SUBCOMMANDS, 'mcp']) {
      const own = subcommandHelp(cmd)!;
      const lines = /\n {2}Usage\n((?: {4}.*\n)+)\n/.exec(own)![1]!.trimEnd().split('\n');
      expect(lines[0]).toMatch(new RegExp(`^ {4}\\$ lookback ${cmd} `));
      // The global help has the same lines in the same order, what the command does beside the last.
      const at = global.findIndex((l) => l.startsWith(lines[0]!));
      expect(at, `${cmd} in the global help`).toBeGreaterThan(0);
      lines.forEach((l, i) => {
        const g = global[at + i]!;
        expect(i === lines.length - 1 ? g.slice(0, l.length) : g, `${cmd} line ${i + 1}`).toBe(l);
        if (i === lines.length - 1) expect(g.slice(l.length)).toMatch(/^(\s+\S.*)?$/);
      });
    }
  });

  it("every flag a subcommand's help names, the global help names too", () => {
    const taken = lookback(['--help']).stdout;
    for (const cmd of [...SUBCOMMANDS, 'mcp'])
      for (const flag of subcommandHelp(cmd)!.match(/--[a-z][a-z-]*/g) ?? [])
        expect(taken, `${cmd}: ${flag}`).toContain(flag);
  });
});
