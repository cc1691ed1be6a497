import React from 'react';
import { helpLayout } from '../src/app/input/help.js';
import { fitLine, type Line, type Span } from '../src/app/geometry/lineLayout.js';
import { Pane } from './Pane.js';

/** The help, generated from the key map: in columns when they fit, else one scrolling column. */
export function HelpOverlay({
  width,
  height,
  scroll,
}: {
  width: number;
  height: number;
  scroll: number;
}): React.JSX.Element {
  const inner = Math.max(1, width - 2);
  const layout = helpLayout(inner, height);
  const top = Math.min(scroll, layout.maxScroll);
  const rows: Line[] = [];
  for (let r = 0; r < height; r++) {
    const row: Span[] = [];
    // Each column is cut and padded to its width so the next one lines up.
    for (let c = 0; c < layout.columns; c++) {
      const at = top + layout.starts[c]! + r;
      const end = layout.starts[c + 1] ?? layout.lines.length;
      row.push(...fitLine(at < end ? (layout.lines[at] ?? []) : [], layout.colWidth));
    }
    rows.push(row);
  }
  const more =
    layout.maxScroll > 0 ? ` · ↑↓ ${top < layout.maxScroll ? 'more below' : 'top above'}` : '';
  return (
    <Pane
      title={`Keys · ? or Esc closes${more}`}
      width={width}
      height={height}
      focused
      lines={rows}
    />
  );
}
