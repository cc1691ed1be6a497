/**
 * A grapheme segmenter made when first needed, that does not need it for the
 * common case (issue 20, the first frame).
 *
 * `new Intl.Segmenter()` loads ICU's break-iterator data: the first one in a
 * process costs more than a whole `lookback search --json` answer (tests/bench:
 * `node -e` with one segmenter vs none), and ink's dependencies make five at
 * module load (string-width twice, slice-ansi, ansi-tokenize), all on the app's
 * path to its first frame. Every line of every frame then goes through one
 * (ansi-tokenize), a few microseconds a character while the code is cold.
 *
 * Most of what a frame holds needs no segmenter: a string made only of
 * controls and "simple" characters (grapheme break property Control or Other,
 * no emoji modifier, no joiner; SIMPLE_RANGES, the class scripts/widthPatch.mjs
 * uses, with its test that none joins a neighbour of the class) is one grapheme
 * per code point, apart from CR LF (UAX #29 GB3-GB5, GB999). Such a string is
 * segmented here; anything else goes to a real Intl.Segmenter, made on first use.
 * tests/unit/segmenter.test.ts checks the answers equal Intl.Segmenter's.
 *
 * scripts/segmenterPatch.mjs puts `lookbackSegmenter(...)` in place of `new
 * Intl.Segmenter(...)` in the bundled dependencies that make one at load.
 */

/** Code points that are a grapheme of their own beside any other of the class (see the header). */
export const SIMPLE_RANGES: readonly (readonly [number, number])[] = [
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

function isSimple(code: number): boolean {
  if (code <= 0x7e) return code >= 0x20;
  for (const [lo, hi] of SIMPLE_RANGES) {
    if (code < lo) return false;
    if (code <= hi) return true;
  }
  return false;
}

/** Controls (GCB Control) other than CR and LF: always a grapheme of their own. */
const isLoneControl = (code: number): boolean =>
  (code < 0x20 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);

/** The code point starts of `s` when each code point is a grapheme of its own, else null. */
export function singletonStarts(s: string): number[] | null {
  const starts: number[] = [];
  for (let i = 0; i < s.length;) {
    const code = s.codePointAt(i)!;
    // CR and LF are graphemes of their own beside anything but each other.
    const crlf =
      (code === 0x0d && s.charCodeAt(i + 1) !== 0x0a) ||
      (code === 0x0a && s.charCodeAt(i - 1) !== 0x0d);
    if (!crlf && !isSimple(code) && !isLoneControl(code)) return null;
    starts.push(i);
    i += code > 0xffff ? 2 : 1;
  }
  return starts;
}

type Segment = Intl.SegmentData;

/** What Intl.Segmenter's segment() gives for a string of singletons: iterable, and containing(). */
function singletonSegments(input: string, starts: number[]): Intl.Segments {
  const data = (k: number): Segment => {
    const index = starts[k]!;
    const end = k + 1 < starts.length ? starts[k + 1]! : input.length;
    return { segment: input.slice(index, end), index, input };
  };
  return {
    containing(at = 0): Segment | undefined {
      const i = Math.trunc(Number(at)) || 0;
      if (i < 0 || i >= input.length) return undefined;
      // The start of the code point holding i: one back when i is a low surrogate of a pair.
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= i) lo = mid;
        else hi = mid - 1;
      }
      return data(lo);
    },
    *[Symbol.iterator](): IterableIterator<Segment> {
      for (let k = 0; k < starts.length; k++) yield data(k);
    },
  } as Intl.Segments;
}

/** A grapheme segmenter (the only granularity the dependencies ask for), made on first need. */
export function lookbackSegmenter(
  locales?: string | string[],
  options?: Intl.SegmenterOptions,
): Pick<Intl.Segmenter, 'segment'> {
  const granularity = options?.granularity ?? 'grapheme';
  let real: Intl.Segmenter | undefined;
  const make = (): Intl.Segmenter => (real ??= new Intl.Segmenter(locales, options));
  // Words and sentences: no shortcut, only the lazy making.
  if (granularity !== 'grapheme') return { segment: (s: string) => make().segment(s) };
  return {
    segment(input: string): Intl.Segments {
      const s = String(input);
      const starts = singletonStarts(s);
      return starts === null ? make().segment(s) : singletonSegments(s, starts);
    },
  };
}
