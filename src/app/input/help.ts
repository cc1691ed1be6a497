/**
 * The help overlay's lines, generated from the key map, and how they are
 * arranged: side by side in columns when every column stays readable, else
 * one column that scrolls. Pure (the view draws, the controller clamps).
 */
import { helpSections } from './hints.js';
import type { Line } from '../geometry/lineLayout.js';
import { displayWidth, truncate } from '../../text/width.js';
import type { Screen } from '../geometry/screen.js';

/** Descriptions narrower than this are cut mid-sentence: use fewer columns (and scroll) instead. */
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
    for (const row of section.rows)
      lines.push([
        { text: `  ${row.keys.padEnd(kw)}  ` },
        { text: truncate(row.description, Math.max(1, width - kw - 4)), tone: 'dim' },
      ]);
  }
  return lines;
}

export interface HelpLayout {
  columns: number;
  colWidth: number;
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
    if (lines.length <= height * columns) return { columns, colWidth, lines, maxScroll: 0 };
  }
  const lines = helpLines(inner);
  return { columns: 1, colWidth: inner, lines, maxScroll: Math.max(0, lines.length - height) };
}

export function helpMaxScroll(screen: Screen): number {
  return helpLayout(Math.max(1, screen.cols - 2), screen.innerHeight).maxScroll;
}
