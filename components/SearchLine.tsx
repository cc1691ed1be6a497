import React from 'react';
import { fitLine, type Span } from '../src/app/geometry/lineLayout.js';
import type { SearchMode } from '../src/app/model.js';
import { glyph } from '../src/app/theme.js';
import { sanitizeLine } from '../src/text/sanitize.js';
import { displayWidth, truncate } from '../src/text/width.js';
import { LineView } from './Line.js';

export interface SearchLineProps {
  width: number;
  text: string;
  typing: boolean;
  mode: SearchMode;
  /** Right-aligned note, e.g. "searching…". */
  note: string;
}

/** ` / query▌`: the end of a long query stays visible while typing. */
export function SearchLine(p: SearchLineProps): React.JSX.Element {
  const noteText = p.note ? ` ${p.note} ` : '';
  const room = Math.max(1, p.width - 4 - displayWidth(noteText) - 1);
  const clean = sanitizeLine(p.text);
  let shown = clean;
  if (displayWidth(shown) > room) {
    // Keep the tail (where the cursor is): cut graphemes from the front.
    const chars = Array.from(shown);
    while (chars.length > 0 && displayWidth(chars.join('')) > room - 1) chars.shift();
    shown = `…${chars.join('')}`;
  }
  const placeholder =
    p.mode === 'fuzzy' ? 'fuzzy: titles, ids, sources, folders' : 'search messages (full-text)';
  const spans: Span[] = [
    { text: ' / ', tone: p.typing ? 'accent' : 'dim', bold: p.typing },
    clean === '' && !p.typing
      ? { text: truncate(`${placeholder}`, room), tone: 'dim' }
      : { text: shown },
    { text: p.typing ? glyph.cursor : ' ', tone: 'accent' },
  ];
  const used = spans.reduce((n, s) => n + displayWidth(s.text), 0);
  spans.push(
    { text: ' '.repeat(Math.max(1, p.width - used - displayWidth(noteText))) },
    { text: noteText, tone: 'dim' },
  );
  return <LineView spans={fitLine(spans, p.width)} />;
}
