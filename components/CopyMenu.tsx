import React from 'react';
import type { Line } from '../src/app/geometry/lineLayout.js';
import type { CopyOption } from '../src/app/model.js';
import { glyph } from '../src/app/theme.js';
import { sanitizeLine } from '../src/text/sanitize.js';
import { truncate } from '../src/text/width.js';
import { Pane } from './Pane.js';

export interface CopyMenuProps {
  options: readonly CopyOption[];
  selected: number;
  width: number;
  height: number;
  /** The export menu shows the same list under its own title. */
  menu?: 'copy' | 'export';
}

/** The copy forms with a preview of each; Enter or a digit copies, Esc closes. */
export function CopyMenu(p: CopyMenuProps): React.JSX.Element {
  const inner = Math.max(1, p.width - 2);
  const lines: Line[] = [];
  p.options.forEach((o, i) => {
    const sel = i === p.selected;
    lines.push([
      { text: sel ? ` ${glyph.selected} ` : '   ', tone: 'accent' },
      { text: `${i + 1}  ${o.label}`, bold: sel, ...(sel ? { tone: 'accent' as const } : {}) },
    ]);
    lines.push([{ text: `      ${truncate(sanitizeLine(o.text), inner - 7)}`, tone: 'dim' }]);
  });
  lines.push([]);
  const verb = p.menu === 'export' ? 'write' : 'copy';
  lines.push([{ text: `   ↑↓ choose · ⏎ or 1–9 ${verb} · Esc close`, tone: 'dim' }]);
  return (
    <Pane
      title={p.menu === 'export' ? 'Export' : 'Copy'}
      width={p.width}
      height={p.height}
      focused
      lines={lines}
    />
  );
}
