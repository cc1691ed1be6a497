/**
 * The README's "Command line" block shows each command's usage as the help
 * does (src/cli/helpTexts.ts, the one usage table): the same options, in the
 * same order. A line wrapped in the README is read as one, its `# comment` aside.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageArgs } from '../../src/cli/helpTexts.js';
import { SUBCOMMANDS, type Subcommand } from '../../src/cli/subcommands.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The README's usage of each subcommand in the block after "## Command line". */
function readmeUsages(): Map<string, string> {
  const section = README.slice(README.indexOf('\n## Command line\n'));
  const start = section.indexOf('```\n') + 4;
  const block = section.slice(start, section.indexOf('\n```', start));
  const out = new Map<string, string>();
  let current: string | null = null;
  for (const line of block.split('\n')) {
    const text = line.replace(/\s+#.*$/, '').trim();
    const head = /^lookback ([a-z]+)\b ?(.*)$/.exec(text);
    if (head && (SUBCOMMANDS as readonly string[]).includes(head[1]!)) {
      current = head[1]!;
      out.set(current, head[2]!);
    } else if (current && /^\s{4,}\S/.test(line)) out.set(current, `${out.get(current)} ${text}`);
    else current = null;
  }
  return out;
}

describe("the README's command line usage", () => {
  it('is the help’s, command by command', () => {
    const usages = readmeUsages();
    expect([...usages.keys()]).toEqual(
      expect.arrayContaining(['recent', 'search', 'scroll', 'read', 'list', 'overview']),
    );
    for (const [name, args] of usages)
      expect(args.replace(/\s+/g, ' ').trim(), name).toBe(usageArgs(name as Subcommand));
  });
});
