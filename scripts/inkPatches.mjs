import { readFile } from 'node:fs/promises';
import { replaceOnce } from './replaceOnce.mjs';

// Speed patches for ink 6.8's renderer, applied to the bundle (scripts/build.mjs)
// and to the tests (vitest.config.ts, checked by tests/ink/shipped.test.ts), so both run the same ink.
//
// Why: ink redraws the whole frame for every key. Its output pass tokenizes every
// line, measures every character with string-width and re-encodes every cell's
// styles, and its caches live for one frame only. At 200x60 that was 30-45 ms a
// key, most of the key-to-frame budget (npm run bench). The patches keep the
// same work's results across frames; what reaches the terminal is unchanged
// (tests/ink/patches.test.ts compares patched and original frames).
//
// Each hunk must match ink's file exactly once, or the build fails: a newer ink
// needs these re-checked, never silently skipped.

/**
 * Entries per cache generation; two generations are kept. A line's styled cells
 * cost ~80 bytes a character, so those get a bound of about one 200x60 frame's
 * lines (a few MB); strings and numbers are cheap.
 */
const GENERATION = 2000;
const LINE_GENERATION = 300;
/** Distinct styled cells (character and styles) per generation: a screen's worth of distinct ones is a few hundred. */
const CELL_GENERATION = 4000;

const OUTPUT_HELPERS = `
// lookback: caches that outlive a frame, in two generations so they stay bounded.
class LookbackMemo {
    current = new Map();
    previous = new Map();
    constructor(limit) {
        this.limit = limit;
    }
    get(key, make) {
        let value = this.current.get(key);
        if (value !== undefined) return value;
        value = this.previous.get(key);
        if (value === undefined) value = make(key);
        if (this.current.size >= this.limit) {
            this.previous = this.current;
            this.current = new Map();
        }
        this.current.set(key, value);
        return value;
    }
}
const lookbackWidths = new LookbackMemo(${GENERATION});
const lookbackBlockWidths = new LookbackMemo(${GENERATION});
const lookbackStyledChars = new LookbackMemo(${LINE_GENERATION});
// One frozen cell per (character, styles): a cached line holds references, not a
// fresh {type, value, fullWidth, styles} and styles array per character (~80 bytes
// each, the bulk of what a scroll's frames kept alive and the young generation grew for).
const lookbackCells = new LookbackMemo(${CELL_GENERATION});
const lookbackStyleSets = new LookbackMemo(${CELL_GENERATION});
function lookbackStylesKey(styles) {
    let key = '';
    for (const s of styles) key += s.code + '\u0001' + s.endCode + '\u0002';
    return key;
}
function lookbackInternChars(chars) {
    for (let i = 0; i < chars.length; i++) {
        const c = chars[i];
        const stylesKey = lookbackStylesKey(c.styles);
        const styles = c.styles.length === 0 ? LOOKBACK_NO_STYLES : lookbackStyleSets.get(stylesKey, () => Object.freeze(c.styles));
        chars[i] = lookbackCells.get(c.value + '\u0000' + (c.fullWidth ? 1 : 0) + stylesKey, () =>
            Object.freeze({ type: 'char', value: c.value, fullWidth: c.fullWidth, styles }));
    }
    return chars;
}
// The first frame built each of its lines' cells through ansi-tokenize's grapheme
// segmenter, a token object and a copied styles array per character, then a styles
// key per character to intern them: cold code, most of the first render's CPU. A
// line made only of SGR escapes and code points that are their own grapheme and
// (ASCII, Latin, general punctuation, arrows, box drawing, shapes, the symbols the
// app draws, CJK ideographs)
// goes straight to the interned cells instead: each escape is tokenized alone and
// each (styles, escape) step reduced once, as styledCharsFromTokens does, and each
// character is looked up under the same key lookbackInternChars uses, so both paths
// share the very cells. Anything else takes ink's own path.
const lookbackEscapeSteps = new LookbackMemo(${CELL_GENERATION});
// A code point that is its own grapheme here (a character that joins it to the next
// one, a combining mark, ZWJ or VS16, is outside these ranges and so sends the line
// to ink's path): 1 narrow, 2 full-width (as ansi-tokenize decides), 0 not one of them.
function lookbackOwnGraphemeWidth(c) {
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0x2ff) || (c >= 0x2010 && c <= 0x2027) ||
        (c >= 0x2190 && c <= 0x21ff) || (c >= 0x2500 && c <= 0x25ff)) return 1;
    // Technical symbols (⏎), OCR (⑂), miscellaneous symbols (⚑ ⚙), CJK ideographs.
    if ((c >= 0x2300 && c <= 0x23ff) || (c >= 0x2440 && c <= 0x245f) || (c >= 0x2600 && c <= 0x26ff) ||
        (c >= 0x4e00 && c <= 0x9fff)) return isFullwidthCodePoint(c) ? 2 : 1;
    return 0;
}
// The styles after an escape, from the styles before it (by key): [styles, key], or
// null for an escape ansi-tokenize does not read as codes alone.
function lookbackEscapeStep(codes, key, escape) {
    return lookbackEscapeSteps.get(key + '\u0003' + escape, () => {
        const tokens = tokenize(escape);
        if (tokens.some(t => t.type !== 'ansi')) return null;
        const next = reduceAnsiCodesIncremental(codes, tokens);
        const nextKey = lookbackStylesKey(next);
        return [next.length === 0 ? LOOKBACK_NO_STYLES : lookbackStyleSets.get(nextKey, () => Object.freeze(next)), nextKey];
    });
}
function lookbackFastStyledChars(line) {
    const chars = [];
    const n = line.length;
    let codes = LOOKBACK_NO_STYLES;
    let key = '';
    let i = 0;
    while (i < n) {
        const c = line.charCodeAt(i);
        if (c === 27) {
            if (line.charCodeAt(i + 1) !== 91) return null;
            let j = i + 2;
            for (; j < n; j++) {
                const d = line.charCodeAt(j);
                if (d === 109) break;
                if (d !== 59 && (d < 48 || d > 57)) return null;
            }
            if (j >= n) return null;
            const step = lookbackEscapeStep(codes, key, line.slice(i, j + 1));
            if (step === null) return null;
            [codes, key] = step;
            i = j + 1;
            continue;
        }
        const width = lookbackOwnGraphemeWidth(c);
        if (width === 0) return null;
        const value = line[i];
        const styles = codes;
        const fullWidth = width === 2;
        chars.push(lookbackCells.get(value + '\u0000' + (fullWidth ? 1 : 0) + key, () =>
            Object.freeze({ type: 'char', value, fullWidth, styles })));
        i++;
    }
    return chars;
}
const lookbackCellWidths = new WeakMap();
const lookbackContinuations = new WeakMap();
const LOOKBACK_BLANK = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });
const LOOKBACK_NO_STYLES = Object.freeze([]);
let lookbackPreviousRows = [];
function lookbackSameStyles(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i].code !== b[i].code) return false;
    return true;
}
// styledCharsToString, but equal neighbouring styles (most cells) skip diffAnsiCodes,
// which builds three Sets per cell; the result is the same string.
function lookbackRowToString(chars) {
    let ret = '';
    let prev = LOOKBACK_NO_STYLES;
    for (const char of chars) {
        if (!lookbackSameStyles(prev, char.styles)) ret += ansiCodesToString(diffAnsiCodes(prev, char.styles));
        ret += char.value;
        prev = char.styles;
    }
    if (prev.length > 0) ret += ansiCodesToString(diffAnsiCodes(prev, LOOKBACK_NO_STYLES));
    return ret;
}
`;

/** @type {{ file: string, hunks: { find: string, replace: string }[] }[]} */
export const INK_PATCHES = [
  {
    file: 'output.js',
    hunks: [
      {
        find: "import { styledCharsFromTokens, styledCharsToString, tokenize, } from '@alcalzone/ansi-tokenize';\n",
        replace:
          "import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, styledCharsFromTokens, tokenize, } from '@alcalzone/ansi-tokenize';\n" +
          "import isFullwidthCodePoint from 'is-fullwidth-code-point';\n" +
          OUTPUT_HELPERS,
      },
      {
        // The three per-frame caches become the shared, bounded ones.
        find: `    getStyledChars(line) {
        let cached = this.styledChars.get(line);
        if (cached === undefined) {
            cached = styledCharsFromTokens(tokenize(line));
            this.styledChars.set(line, cached);
        }
        return cached;
    }
    getStringWidth(text) {
        let cached = this.widths.get(text);
        if (cached === undefined) {
            cached = stringWidth(text);
            this.widths.set(text, cached);
        }
        return cached;
    }
    getWidestLine(text) {
        let cached = this.blockWidths.get(text);
        if (cached === undefined) {
            let lineWidth = 0;
            for (const line of text.split('\\n')) {
                lineWidth = Math.max(lineWidth, this.getStringWidth(line));
            }
            cached = lineWidth;
            this.blockWidths.set(text, cached);
        }
        return cached;
    }`,
        replace: `    getStyledChars(line) {
        return lookbackStyledChars.get(line, l => lookbackFastStyledChars(l) ?? lookbackInternChars(styledCharsFromTokens(tokenize(l))));
    }
    getStringWidth(text) {
        return lookbackWidths.get(text, stringWidth);
    }
    getWidestLine(text) {
        return lookbackBlockWidths.get(text, t => {
            let lineWidth = 0;
            for (const line of t.split('\\n')) {
                lineWidth = Math.max(lineWidth, this.getStringWidth(line));
            }
            return lineWidth;
        });
    }
    // Each cell's printed width, measured once per cached line.
    getCellWidths(characters) {
        let widths = lookbackCellWidths.get(characters);
        if (widths === undefined) {
            widths = characters.map(c => Math.max(1, this.getStringWidth(c.value)));
            lookbackCellWidths.set(characters, widths);
        }
        return widths;
    }`,
      },
      {
        // One shared blank cell: rows left unchanged keep identical cells frame to frame.
        find: `            const row = [];
            for (let x = 0; x < this.width; x++) {
                row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });
            }
            output.push(row);`,
        replace: `            output.push(new Array(this.width).fill(LOOKBACK_BLANK));`,
      },
      {
        find: `                    const characters = this.caches.getStyledChars(line);
                    let offsetX = x;
                    for (const character of characters) {
                        currentLine[offsetX] = character;
                        // Determine printed width using string-width to align with measurement
                        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
                        // For multi-column characters, clear following cells to avoid stray spaces/artifacts
                        if (characterWidth > 1) {
                            for (let index = 1; index < characterWidth; index++) {
                                currentLine[offsetX + index] = {
                                    type: 'char',
                                    value: '',
                                    fullWidth: false,
                                    styles: character.styles,
                                };
                            }
                        }`,
        replace: `                    const characters = this.caches.getStyledChars(line);
                    const widths = this.caches.getCellWidths(characters);
                    let offsetX = x;
                    for (let index = 0; index < characters.length; index++) {
                        const character = characters[index];
                        currentLine[offsetX] = character;
                        const characterWidth = widths[index];
                        // For multi-column characters, clear following cells to avoid stray spaces/artifacts
                        if (characterWidth > 1) {
                            let continuation = lookbackContinuations.get(character);
                            if (continuation === undefined) {
                                continuation = Object.freeze({ type: 'char', value: '', fullWidth: false, styles: character.styles });
                                lookbackContinuations.set(character, continuation);
                            }
                            for (let index = 1; index < characterWidth; index++) {
                                currentLine[offsetX + index] = continuation;
                            }
                        }`,
      },
      {
        // A row whose cells are the very cells of the previous frame's row is the same string.
        find: `        const generatedOutput = output
            .map(line => {
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return styledCharsToString(lineWithoutEmptyItems).trimEnd();
        })
            .join('\\n');`,
        replace: `        const rows = output.map((line, y) => {
            const previous = lookbackPreviousRows[y];
            if (previous !== undefined && previous.cells.length === line.length) {
                let same = true;
                for (let x = 0; x < line.length; x++) {
                    if (previous.cells[x] !== line[x]) {
                        same = false;
                        break;
                    }
                }
                if (same) return previous;
            }
            // See https://github.com/vadimdemedes/ink/pull/564#issuecomment-1637022742
            const lineWithoutEmptyItems = line.filter(item => item !== undefined);
            return { cells: line, text: lookbackRowToString(lineWithoutEmptyItems).trimEnd() };
        });
        lookbackPreviousRows = rows;
        const generatedOutput = rows.map(row => row.text).join('\\n');`,
      },
    ],
  },
  {
    // Measured every text node of every frame with string-width; the cached measure is ink's own.
    file: 'render-node-to-output.js',
    hunks: [
      {
        find: 'const currentWidth = widestLine(text);',
        replace: 'const currentWidth = output.caches.getWidestLine(text);',
      },
    ],
  },
  {
    // Re-tokenized every coloured text node of every frame; the result depends on the text alone.
    file: 'sanitize-ansi.js',
    hunks: [
      {
        find: `const sanitizeAnsi = (text) => {
    if (!hasAnsiControlCharacters(text)) {
        return text;
    }`,
        replace: `const lookbackSanitized = new Map();
const sanitizeAnsi = (text) => {
    if (!hasAnsiControlCharacters(text)) {
        return text;
    }
    let cached = lookbackSanitized.get(text);
    if (cached === undefined) {
        if (lookbackSanitized.size >= ${GENERATION}) lookbackSanitized.clear();
        cached = sanitizeAnsiUncached(text);
        lookbackSanitized.set(text, cached);
    }
    return cached;
};
const sanitizeAnsiUncached = (text) => {`,
      },
    ],
  },
  {
    // ink keeps the size of every text it ever measured: a day of scrolling is a leak.
    file: 'measure-text.js',
    hunks: [
      {
        find: '    cache.set(text, dimensions);',
        replace: `    if (cache.size >= ${GENERATION}) cache.clear();
    cache.set(text, dimensions);`,
      },
    ],
  },
  {
    // The same for every text it ever wrapped or truncated.
    file: 'wrap-text.js',
    hunks: [
      {
        find: 'const cache = {};',
        replace: 'let cache = {};\nlet lookbackCached = 0;',
      },
      {
        find: '    cache[cacheKey] = wrappedText;',
        replace: `    if (++lookbackCached > ${GENERATION}) {
        cache = {};
        lookbackCached = 1;
    }
    cache[cacheKey] = wrappedText;`,
      },
    ],
  },
];

const FILE = /[\\/]node_modules[\\/]ink[\\/]build[\\/]([\w-]+\.js)$/;

/** The patched source of ink's `build/<file>`, or null for a file left alone. Throws when ink changed. */
export function patchInkSource(path, source) {
  const file = FILE.exec(path)?.[1];
  const patch = INK_PATCHES.find((p) => p.file === file);
  if (!patch) return null;
  let out = source;
  for (const { find, replace } of patch.hunks) {
    const next = replaceOnce(out, find, replace);
    if (next === null)
      throw new Error(
        `ink's build/${file} is not the one scripts/inkPatches.mjs was written for ` +
          `(a hunk matches ${out.includes(find) ? 'twice' : 'nowhere'}): re-check the patches against this ink`,
      );
    out = next;
  }
  return out;
}

/** The esbuild plugin that applies the patches. */
export function inkPatchPlugin() {
  return {
    name: 'lookback-ink-patches',
    setup(build) {
      build.onLoad({ filter: FILE }, async ({ path }) => {
        const contents = patchInkSource(path, await readFile(path, 'utf8'));
        return contents === null ? undefined : { contents, loader: 'js' };
      });
    },
  };
}
