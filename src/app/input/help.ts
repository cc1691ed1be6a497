/**
 * The help overlay's lines, generated from the key map, and how they are
 * arranged: side by side in columns when every column stays readable, else
 * one column that scrolls. Pure (the view draws, the controller clamps).
 */
import { helpSections } from './hints.js';
import type { Line } from '../geometry/lineLayout.js';
import { displayWidth, wrap } from '../../text/width.js';
import type { Screen } from '../geometry/screen.js';

/** Descriptions narrower than this wrap into too many lines: use fewer columns (and scroll) instead. */
const MIN_DESCRIPTION = 34;

function keysWidth(): number {
  let w = 0;
  for (const s of helpSections()) for (const r of s.rows) w = Math.max(w, displayWidth(r.keys));
  return w;
}

function helpLines(width: number): Line[] {
  const kw = keysWidth();
  const lines: Line[] = [];
  for (const section of helpSections()) {
    if (lines.length > 0) lines.push([]);
    lines.push([{ text: ` ${section.title}`, bold: true, tone: 'accent' }]);
    for (const row of section.rows) {
      // Wrapped under itself, never cut: a description is read whole.
      const parts = wrap(row.description, Math.max(1, width - kw - 4));
      parts.forEach((text, i) =>
        lines.push([
          { text: i === 0 ? `  ${row.keys.padEnd(kw)}  ` : ' '.repeat(kw + 4) },
          { text, tone: 'dim' },
        ]),
      );
    }
  }
  return lines;
}

export interface HelpLayout {
  columns: number;
  colWidth: number;
  /** The first line of each column: columns balanced, not one full and one half empty. */
  starts: number[];
  lines: Line[];
  /** Lines that do not fit (0 when everything shows). */
  maxScroll: number;
}

export function helpLayout(inner: number, height: number): HelpLayout {
  const kw = keysWidth();
  for (let columns = 1; columns <= 3; columns++) {
    const colWidth = Math.floor(inner / columns);
    if (columns > 1 && colWidth - kw - 4 < MIN_DESCRIPTION) break;
    const lines = helpLines(colWidth - 1);
    if (lines.length <= height * columns)
      return {
        columns,
        colWidth,
        starts: columnStarts(lines, columns, height),
        lines,
        maxScroll: 0,
      };
  }
  const lines = helpLines(inner);
  return {
    columns: 1,
    colWidth: inner,
    starts: [0],
    lines,
    maxScroll: Math.max(0, lines.length - height),
  };
}

/**
 * Where each column starts when the help fits in `columns` of `height`: about
 * an equal share each, moved to the nearest section break, so a section is
 * not split between columns where that can be helped.
 */
function columnStarts(lines: readonly Line[], columns: number, height: number): number[] {
  const even = Array.from({ length: columns }, (_, c) => c * Math.ceil(lines.length / columns));
  const starts = [0];
  for (let c = 1; c < columns; c++) {
    const target = Math.round((lines.length * c) / columns);
    let best = target;
    for (let d = 0; d <= 8; d++) {
      const at = [target - d, target + d].find((n) => lines[n - 1]?.length === 0);
      if (at !== undefined) {
        best = at;
        break;
      }
    }
    starts.push(best);
  }
  const fits = starts.every((s, c) => (starts[c + 1] ?? lines.length) - s <= height);
  return fits ? starts : even;
}

export function helpMaxScroll(screen: Screen): number {
  return helpLayout(Math.max(1, screen.cols - 2), screen.innerHeight).maxScroll;
}
