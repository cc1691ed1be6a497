/**
 * No import circles among the app's own files (static, type-only or lazy
 * imports alike): scripts/importCircles.mjs reads the real sources with the
 * TypeScript parser. A new circle fails here with the arrows that close it.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { circleEdges, circles, importGraph } from '../../scripts/importCircles.mjs';

describe('import circles', () => {
  it('finds none among src/, components/ and the root files', () => {
    const graph = importGraph(process.cwd());
    expect(graph.size).toBeGreaterThan(100);
    // No exceptions: a new circle fails with the arrows that close it.
    expect(circles(graph).map((group) => circleEdges(graph, group).join('\n'))).toEqual([]);
  });

  it('sees static, type-only and lazy arrows (so the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'circles-'));
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src/a.ts'), "import { b } from './b.js';\nexport const a = b;\n");
      writeFileSync(
        join(dir, 'src/b.ts'),
        "import type { C } from './c.js';\nexport const b = 1 as C;\n",
      );
      writeFileSync(
        join(dir, 'src/c.ts'),
        "export type C = number;\nexport const c = () => import('./a.js');\n",
      );
      writeFileSync(join(dir, 'src/d.ts'), "import { a } from './a.js';\nexport const d = a;\n");
      const graph = importGraph(dir);
      expect(circles(graph)).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
      expect(circleEdges(graph, ['src/a.ts', 'src/b.ts', 'src/c.ts'])).toEqual([
        'src/a.ts → src/b.ts',
        'src/b.ts → src/c.ts (type)',
        'src/c.ts → src/a.ts (lazy)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
