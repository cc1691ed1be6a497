import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchMeowSource } from '../../scripts/meowPatch.mjs';
import pkg from '../../package.json' with { type: 'json' };
import { lookback } from '../helpers/cli.js';

const source = readFileSync(resolve('node_modules/meow/build/dependencies.js'), 'utf8');

describe('the meow patch (scripts/meowPatch.mjs)', () => {
  it('leaves no eager normalize-package-data load in the installed meow', () => {
    expect(source).toMatch(/^var normalizeExports = requireNormalize\(\);$/m);
    const patched = patchMeowSource(source);
    expect(patched).not.toMatch(/^var normalizeExports = requireNormalize\(\);$/m);
    expect(patched).toContain('requireNormalize()');
    // The dead `promisify(execFile);` (child_process at every start) is gone, and nothing else uses execFile.
    expect(source).toMatch(/^promisify\(execFile\);$/m);
    expect(patched).not.toMatch(/^promisify\(execFile\);$/m);
    const uses = patched
      .split('\n')
      .filter((l) => /\bexecFile\b/.test(l) && !/^(import|\/\/) /.test(l));
    expect(uses).toEqual([]);
    // @babel/code-frame is loaded where meow frames an error, not at import.
    expect(source).toMatch(/^var libExports = requireLib\$1\(\);$/m);
    expect(patched).not.toMatch(/^var libExports = requireLib\$1\(\);$/m);
    expect(patched).not.toContain('libExports');
    expect(patched).toContain('return requireLib$1().codeFrameColumns(');
  });

  it('refuses a meow it was not written for instead of skipping silently', () => {
    expect(() => patchMeowSource(source.replace('requireNormalize();', 'other();'))).toThrow(
      /re-check the patch/,
    );
  });

  it('keeps --version and --help working in the bundle that carries it', () => {
    const version = lookback(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = lookback(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(pkg.description);
    expect(help.stdout).toContain('$ lookback search QUERY');
  });
});
