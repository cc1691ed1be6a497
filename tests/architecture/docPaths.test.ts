/**
 * The maps a newcomer reads cite only paths that exist: every `backticked`
 * path in docs/ARCHITECTURE.md and src/tui/README.md, taken from the
 * repository root or from the document's own folder.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// src/app/README.md names files by their folder's row (a table), so only these two are checked.
const DOCS = ['docs/ARCHITECTURE.md', 'src/tui/README.md'];

/** Backticked tokens that look like a repository path (a file with an extension, or a folder ending in /). */
export function citedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const t = m[1]!;
    if (t.startsWith('dist/') || t.startsWith('~') || t.includes('<') || t.includes('*')) continue;
    if (
      /^[\w.-]+(\/[\w.-]+)*\.(ts|tsx|mjs|cjs|js|json|md)$/.test(t) ||
      /^[\w.-]+(\/[\w.-]+)*\/$/.test(t)
    )
      out.add(t);
  }
  return [...out];
}

describe('paths cited by the architecture docs', () => {
  for (const doc of DOCS)
    it(`${doc} cites only paths that exist`, () => {
      const cited = citedPaths(readFileSync(doc, 'utf8'));
      expect(cited.length).toBeGreaterThan(5);
      const missing = cited.filter((p) => !existsSync(p) && !existsSync(join(dirname(doc), p)));
      expect(missing).toEqual([]);
    });

  it('notices a path that does not exist', () => {
    const cited = citedPaths('see `src/store/nope.ts` and `src/app/` but not `dist/x.js`');
    expect(cited).toEqual(['src/store/nope.ts', 'src/app/']);
    expect(cited.filter((p) => !existsSync(p))).toEqual(['src/store/nope.ts']);
  });
});
