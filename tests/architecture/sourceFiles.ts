/**
 * The architecture tests' one walk over the source tree, and the one way they
 * blank comments before matching code, so each check reads the same files the
 * same way (budgets, ids, dispatch, file size).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dirs` (recursively) whose name matches `ext`, as a relative path. */
export function sourceFiles(dirs: readonly string[], ext: RegExp = /\.tsx?$/): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (ext.test(name)) out.push(p);
    }
  };
  for (const d of dirs) walk(d);
  return out;
}

/** The lines of `text` with comments blanked (`//…`, `/* … *\/` on one line, a JSDoc line's `* …`), numbered from 0. */
export function codeLines(text: string): { line: string; i: number }[] {
  return text
    .split('\n')
    .map((line, i) => ({ line: line.replace(/\/\/.*$|^\s*\*.*$|\/\*.*?\*\//g, ''), i }));
}
