import React from 'react';
import { agentTag } from '../src/app/data/agentIds.js';
import { age, formatCount } from '../src/text/format.js';
import type { Line, Span } from '../src/app/geometry/lineLayout.js';
import { visibleRange, type ListState } from '../src/app/geometry/list.js';
import type { SessionRow } from '../src/app/model.js';
import { glyph } from '../src/app/theme.js';
import { displayWidth, truncate } from '../src/text/width.js';
import { Pane } from './Pane.js';

export interface RecentPaneProps {
  entries: readonly SessionRow[];
  list: ListState;
  width: number;
  height: number;
  focused: boolean;
  complete: boolean;
  showHidden: boolean;
  expanded: Readonly<Record<string, unknown>>;
  now: number;
}

/** One conversation row: selection glyph, live marker, title, then age, source, size and lineage markers. */
export function recentLine(
  r: SessionRow,
  selected: boolean,
  width: number,
  now: number,
  expanded: boolean,
  showHidden: boolean,
): Line {
  const wideRow = width >= 56;
  const markers: string[] = [];
  if (r.chainLength > 1) markers.push(`${glyph.chain}${r.chainLength}`);
  if (r.branches > 0) markers.push(`${expanded ? glyph.expanded : glyph.branch}${r.branches}`);
  const right = [
    age(r.lastActive, now).padStart(3),
    ...(wideRow ? [truncate(r.source, 9).padEnd(9)] : []),
    formatCount(r.messageCount).padStart(5),
    ...(markers.length > 0 ? [markers.join(' ')] : []),
  ].join(' ');
  const indent = r.depth > 0 ? `${'  '.repeat(r.depth - 1)}└ ` : '';
  const tag = showHidden && r.hiddenReason ? ` [${r.hiddenReason}]` : '';
  const lead: Span[] = [
    { text: selected ? `${glyph.selected} ` : '  ', tone: 'accent' },
    ...(r.agent !== undefined ? [{ text: `${agentTag(r.agent)} `, tone: 'dim' as const }] : []),
    { text: indent, tone: 'dim' },
    { text: r.live ? `${glyph.live} ` : '', tone: 'live' },
  ];
  const leadWidth = lead.reduce((n, s) => n + displayWidth(s.text), 0);
  const room = Math.max(1, width - leadWidth - displayWidth(right) - 1);
  const title = truncate(r.title + tag, room);
  const pad = ' '.repeat(
    Math.max(1, width - leadWidth - displayWidth(title) - displayWidth(right)),
  );
  return [
    ...lead,
    {
      text: title,
      ...(selected
        ? { tone: 'accent' as const, bold: true }
        : r.hasTitle
          ? {}
          : { tone: 'dim' as const }),
    },
    { text: pad },
    { text: right, tone: 'dim' },
  ];
}

function RecentPaneView(p: RecentPaneProps): React.JSX.Element {
  const inner = Math.max(1, p.width - 2);
  const { start, end } = visibleRange(p.list, p.entries.length, p.height);
  const lines: Line[] = [];
  for (let i = start; i < end; i++) {
    const r = p.entries[i]!;
    lines.push(
      recentLine(
        r,
        i === p.list.selected,
        inner,
        p.now,
        r.depth === 0 && p.expanded[r.rootId] !== undefined,
        p.showHidden,
      ),
    );
  }
  if (p.entries.length === 0) lines.push([{ text: '  no conversations yet', tone: 'dim' }]);
  const count = `${formatCount(p.entries.length)}${p.complete ? '' : '+'}`;
  const title = `Recent · ${count}${p.showHidden ? ' · with hidden' : ''}`;
  const pos = p.entries.length > 0 ? `${formatCount(p.list.selected + 1)}/${count}` : '';
  return (
    <Pane
      title={title}
      footer={pos}
      width={p.width}
      height={p.height}
      focused={p.focused}
      lines={lines}
    />
  );
}

/** Memoised: a key in another pane does not redraw this one. */
export const RecentPane = React.memo(RecentPaneView);
