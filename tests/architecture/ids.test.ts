/**
 * One module owns ids (src/ids/): no other file does arithmetic on the app's
 * id ranges or splits a session id at its owner's separator. Geometry and views
 * decode nothing: they ask src/ids for a label (eslint.config.js also keeps
 * them from importing a data module).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeLines, sourceFiles } from './sourceFiles.js';

/** What decoding an id by hand looks like: the ranges' sizes and names, and the owner separators. */
const RANGE = [
  /\b2\s*\*\*\s*(24|40|50)\b/, // the spans and bases themselves
  /\b(1099511627776|1125899906842624|16777216)\b/, // the same, written out
  /\b(PROFILE_ID_SPAN|PROFILE_SPAN|AGENT_ID_BASE|AGENT_BASE|ORDINAL_SPAN)\b/,
];
/** Splitting a session id at ':' (agent) or '/' (profile): only src/ids may, in the app and the views. */
const SPLIT = /\b(indexOf|split|lastIndexOf)\(\s*['"`][:/]['"`]\s*\)/;

/** Lines of `text` (not comments) that decode an id by hand. */
export function decodeSites(text: string, app: boolean): string[] {
  return codeLines(text)
    .filter(({ line }) => RANGE.some((re) => re.test(line)) || (app && SPLIT.test(line)))
    .map(({ i }) => `line ${i + 1}`);
}

describe('one module owns ids', () => {
  it('no file outside src/ids does arithmetic on the id ranges', () => {
    const all = sourceFiles(['src', 'components']).filter((f) => !f.startsWith(join('src', 'ids')));
    expect(all.length).toBeGreaterThan(100);
    const found = all.flatMap((f) => {
      const app = f.startsWith(join('src', 'app')) || f.startsWith('components');
      return decodeSites(readFileSync(f, 'utf8'), app).map((s) => `${f}: ${s}`);
    });
    expect(found).toEqual([]);
  });

  it('src/ids does them (so the check looks for the right thing)', () => {
    expect(decodeSites(readFileSync('src/ids/app.ts', 'utf8'), true).length).toBeGreaterThan(3);
  });

  it('finds a decode by hand, in code and not in a comment', () => {
    expect(decodeSites('const slot = Math.floor(id / 2 ** 40);', false)).toEqual(['line 1']);
    expect(decodeSites('if (id >= AGENT_ID_BASE) x();', false)).toEqual(['line 1']);
    expect(decodeSites("const at = sid.indexOf(':');", true)).toEqual(['line 1']);
    expect(decodeSites("const at = sid.indexOf(':');", false)).toEqual([]);
    expect(decodeSites(' * ids above AGENT_BASE = 2^50', false)).toEqual([]);
    expect(decodeSites('x(); // 2 ** 40 per store', false)).toEqual([]);
  });
});
