/**
 * Small files named for what they hold: no source file over MAX_LINES lines
 * unless it is listed here with its reason, and says why at its top ("Why one
 * file of ~N lines: …"). An entry whose file has shrunk under the limit must
 * leave the list, so the list only ever gets shorter.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { sourceFiles } from './sourceFiles.js';

const MAX_LINES = 500;

/** The files allowed over the limit, each with its reason (repeated at the file's top). */
const ALLOWED: Record<string, string> = {
  'src/demo/conversation.ts':
    "one conversation's shape turn by turn, over one seeded random stream; the texts live in corpus.json and tools.ts",
  'src/text/markdown.ts':
    'one block parser and one inline parser sharing the state of a single pass; highlighting and JSON live apart',
  'src/recall/answer.ts':
    'every shape of Call goes through the same admit / ask / tag / merge steps, kept side by side as one rule',
  'src/cli/commands.ts':
    "one door's parsing: the flag readers are shared by every subcommand; printing and sources live apart",
  'src/agents/recall.ts':
    "the index's four operations share one set of row shapes, caps and snippet rules; one caller",
  'src/mirror/hermes.ts':
    "one class owning one mirror file's schema and its writes, which must agree on the column rules",
};

const lines = (f: string) => readFileSync(f, 'utf8').split('\n').length - 1;

describe('file size', () => {
  const all = sourceFiles(['src', 'components', 'scripts'], /\.(ts|tsx|mjs)$/);

  it(`no source file over ${MAX_LINES} lines but the listed ones`, () => {
    expect(all.length).toBeGreaterThan(100);
    const over = all.filter((f) => lines(f) > MAX_LINES && !(f in ALLOWED));
    expect(over.map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
  });

  it('each listed file is still over the limit and says why at its top', () => {
    for (const [f, reason] of Object.entries(ALLOWED)) {
      expect(reason.length, f).toBeGreaterThan(20);
      expect(
        lines(f),
        `${f} is under ${MAX_LINES} lines now: take it off the list`,
      ).toBeGreaterThan(MAX_LINES);
      const top = readFileSync(f, 'utf8').slice(0, 2_000);
      expect(top, `${f} must say at its top why it is one file`).toMatch(
        /Why one file of ~\d+ lines:/,
      );
    }
  });
});
