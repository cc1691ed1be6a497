/**
 * One file holds the budgets (src/budgets.ts): timeouts, debounces, caps, TTLs
 * and batch sizes, each with its reason. A new one declared elsewhere fails
 * here; the few constants that look like budgets but are facts of a format
 * are listed with why.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './sourceFiles.js';

/** A top-level numeric constant named as a budget. */
const BUDGET =
  /^(?:export )?const ([A-Z][A-Z0-9_]*_(?:MS|TIMEOUT|DEBOUNCE|CAP|BATCH|TTL))\b\s*(?::\s*number\s*)?=\s*[0-9]/;

/** Constants of that shape that are not budgets, with the reason. */
const NOT_BUDGETS: Record<string, string> = {
  // The largest time a JavaScript Date holds (ECMA-262): a fact, not a choice.
  'src/anchors/format.ts:MAX_DATE_MS': 'Date range',
  // How Codex writes a fork: lines within 2 s of the fork's own start are its parent's copy (a reading of the format).
  'src/agents/parsers/codex.ts:FORK_COPY_MS': 'Codex format',
};

/** The budget-shaped constants a file declares. */
export function budgetsIn(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const m = BUDGET.exec(line);
    return m ? [m[1]!] : [];
  });
}

describe('one file of budgets', () => {
  it('no budget is declared outside src/budgets.ts', () => {
    const all = sourceFiles(['src', 'components']).filter((f) => f !== join('src', 'budgets.ts'));
    expect(all.length).toBeGreaterThan(100);
    const found = all.flatMap((f) =>
      budgetsIn(readFileSync(f, 'utf8'))
        .map((name) => `${f.split('\\').join('/')}:${name}`)
        .filter((k) => !(k in NOT_BUDGETS)),
    );
    expect(found).toEqual([]);
  });

  it('src/budgets.ts holds them (so the check looks for the right thing)', () => {
    expect(budgetsIn(readFileSync(join('src', 'budgets.ts'), 'utf8')).length).toBeGreaterThan(10);
  });

  it('finds a budget declared by hand', () => {
    expect(budgetsIn('const POLL_MS = 250;')).toEqual(['POLL_MS']);
    expect(budgetsIn('export const ROW_CAP: number = 5000;')).toEqual(['ROW_CAP']);
    expect(budgetsIn("const LABEL_MS = 'ms';")).toEqual([]);
    expect(budgetsIn('  const local_ms = 3;')).toEqual([]);
  });
});
