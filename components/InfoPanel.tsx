import React from 'react';
import type { InfoRow } from '../src/app/context.js';
import type { Line } from '../src/app/geometry/lineLayout.js';
import { sanitizeLine } from '../src/text/sanitize.js';
import { displayWidth, padEnd, wrap } from '../src/text/width.js';
import { Pane } from './Pane.js';

export interface InfoPanelProps {
  rows: readonly InfoRow[];
  width: number;
  height: number;
}

/** `i`: one fact a row, labels in a column, long values (paths, titles) wrapped under themselves. */
export function InfoPanel(p: InfoPanelProps): React.JSX.Element {
  const inner = Math.max(1, p.width - 2);
  const labelWidth = Math.min(
    Math.max(...p.rows.map((r) => displayWidth(r.label)), 0),
    Math.floor(inner / 3),
  );
  const valueWidth = Math.max(1, inner - labelWidth - 3);
  const lines: Line[] = [];
  for (const r of p.rows) {
    // Every value came from a store or a file: one line, no control characters.
    const parts = wrap(sanitizeLine(r.value), valueWidth);
    if (parts.length === 0) parts.push('');
    parts.forEach((part, i) =>
      lines.push([
        { text: ` ${padEnd(i === 0 ? r.label : '', labelWidth)}  `, tone: 'dim' },
        { text: part },
      ]),
    );
  }
  lines.push([]);
  lines.push([{ text: '   i or Esc close', tone: 'dim' }]);
  return <Pane title="Conversation" width={p.width} height={p.height} focused lines={lines} />;
}
