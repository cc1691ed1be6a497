import { readFile } from 'node:fs/promises';

// string-width 8 measures any string with a character outside printable ASCII
// by running Intl.Segmenter over all of it and testing each grapheme against
// several /v regexes: microseconds per grapheme on Node 20. A frame of the app
// at 160x48 measures ~300 strings, many of them whole rows holding one "·",
// "…", "│", "⚑" or a CJK character, which cost the first frame tens of
// milliseconds (a --cpu-prof of the app: string-width the largest self time).
//
// The patch measures "simple" characters without the segmenter: BMP
// characters whose grapheme break property is Other and that are no emoji,
// mark or zero-width character (SIMPLE_RANGES). Between two simple characters
// there is always a grapheme boundary, so the string is cut there; a simple
// character alone is as wide as its East Asian width (what the slow path
// gives it), and every other piece goes through string-width unchanged.
// tests/unit/widthPatch.test.ts checks each character of the class and random
// mixed strings against the unpatched function. The hunk must match exactly
// once or the build fails: a newer string-width needs a look.

const FILE = /[\\/]node_modules[\\/]string-width[\\/]index\.js$/;

/** The simple characters, as inclusive code point ranges (see tests/unit/widthPatch.test.ts). */
export const SIMPLE_RANGES = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x2ff],
  [0x370, 0x377],
  [0x37a, 0x37f],
  [0x384, 0x38a],
  [0x38c, 0x38c],
  [0x38e, 0x3a1],
  [0x3a3, 0x482],
  [0x48a, 0x52f],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x20a0, 0x20c0],
  [0x2190, 0x22ff],
  [0x2300, 0x23ff],
  [0x2440, 0x24ff],
  [0x2500, 0x27bf],
  [0x2b00, 0x2bff],
  [0x3000, 0x3029],
  [0x3041, 0x3096],
  [0x309b, 0x30ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xac00, 0xd7a3],
  [0xff01, 0xff60],
  [0x1f300, 0x1f3fa],
  [0x1f400, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
];

const FIND = 'export default function stringWidth(input, options = {}) {\n';

const isSimpleSource = () =>
  'function lookbackIsSimple(code) {\n' +
  '\treturn ' +
  SIMPLE_RANGES.map(([lo, hi]) =>
    lo === hi ? `code === ${lo}` : `(code >= ${lo} && code <= ${hi})`,
  ).join('\n\t\t|| ') +
  ';\n}\n';

const WRAPPER = `
// lookback (scripts/widthPatch.mjs): simple characters measured one by one.
${isSimpleSource()}
export default function stringWidth(input, options = {}) {
	if (typeof input !== 'string' || input.length === 0) {
		return 0;
	}

	const {ambiguousIsNarrow = true, countAnsiEscapeCodes = false} = options;
	let string = input;
	if (!countAnsiEscapeCodes && (string.includes('\\u001B') || string.includes('\\u009B'))) {
		string = stripAnsi(string);
	}

	if (/^[\\u0020-\\u007E]*$/.test(string)) {
		return string.length;
	}

	const eastAsianWidthOptions = {ambiguousAsWide: !ambiguousIsNarrow};
	const pieceOptions = {ambiguousIsNarrow, countAnsiEscapeCodes: true};
	let width = 0;
	let start = 0;
	let previousSimple = false;
	const flush = end => {
		const code = string.codePointAt(start);
		if (end - start === (code > 0xFF_FF ? 2 : 1) && lookbackIsSimple(code)) {
			width += eastAsianWidth(code, eastAsianWidthOptions);
		} else if (end > start) {
			width += stringWidthOfPiece(string.slice(start, end), pieceOptions);
		}
	};

	for (let index = 0; index < string.length;) {
		const code = string.codePointAt(index);
		const simple = lookbackIsSimple(code);
		// A grapheme boundary for certain: cut.
		if (simple && previousSimple) {
			flush(index);
			start = index;
		}

		previousSimple = simple;
		index += code > 0xFF_FF ? 2 : 1;
	}

	flush(string.length);
	return width;
}
`;

// Building /^\p{RGI_Emoji}$/v expands every emoji sequence: ~14 ms on Node 20, paid
// at module load, on the first frame's path, though only a grapheme that is not
// simple (an emoji, a mark) is ever tested against it. Built on first use instead.
const RGI_FIND = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;\n';
const RGI_LAZY =
  'let lookbackRgiEmojiRegex;\n' +
  "const rgiEmojiRegex = {test: segment => (lookbackRgiEmojiRegex ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(segment)};\n";

/** string-width's `index.js` with the simple characters measured apart. Throws when string-width changed. */
export function patchWidthSource(source) {
  const at = source.indexOf(FIND);
  const rgi = source.indexOf(RGI_FIND);
  if (
    at === -1 ||
    source.indexOf(FIND, at + 1) !== -1 ||
    rgi === -1 ||
    rgi > at ||
    source.indexOf(RGI_FIND, rgi + 1) !== -1 ||
    source.split('rgiEmojiRegex').length !== 3 ||
    !source.includes("import {eastAsianWidth} from 'get-east-asian-width';") ||
    !source.includes("import stripAnsi from 'strip-ansi';")
  )
    throw new Error(
      "string-width's index.js is not the one scripts/widthPatch.mjs was written for: re-check the patch",
    );
  return (
    source.slice(0, rgi) +
    RGI_LAZY +
    source.slice(rgi + RGI_FIND.length, at) +
    'function stringWidthOfPiece(input, options = {}) {\n' +
    source.slice(at + FIND.length) +
    WRAPPER
  );
}

/** The esbuild plugin that applies the patch (to string-width 8; wrap-ansi's own 7.x is left alone). */
export function widthPatchPlugin() {
  return {
    name: 'lookback-string-width-simple-characters',
    setup(build) {
      build.onLoad({ filter: FILE }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        // wrap-ansi's nested string-width 7 is another function: left as it is.
        if (!source.includes('Fast path: printable ASCII')) return undefined;
        return { contents: patchWidthSource(source), loader: 'js' };
      });
    },
  };
}
