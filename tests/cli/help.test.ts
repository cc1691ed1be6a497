/**
 * `lookback <subcommand> --help` prints that subcommand's own help (issue 20),
 * not the global one; `lookback --help` still prints the global help.
 */
import { describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
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
