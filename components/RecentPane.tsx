import React from 'react';
import { agentTag, profileTag } from '../src/app/tags.js';
import { age, formatCount } from '../src/text/format.js';
import type { Line, Span } from '../src/app/geometry/lineLayout.js';
import { visibleRange, type ListState } from '../src/app/geometry/list.js';
import type { SessionRow } from '../src/app/model.js';
import { isLive, isUnread } from '../src/app/conversationStatus.js';
import { glyph } from '../src/app/theme.js';
import { displayWidth, truncate } from '../src/text/width.js';
import {
  AGE_COL,
  rowColumns,
  shortCount,
  shownSource,
  type RowColumns,
} from '../src/app/geometry/rowColumns.js';
import { Pane } from './Pane.js';

export interface RecentPaneProps {
  entries: readonly SessionRow[];
  list: ListState;
  width: number;
  height: number;
  focused: boolean;
  complete: boolean;
  showHidden: boolean;
  /** The every-profile view (P) is on. */
  everyProfile?: boolean;
  /** The this-folder view (`.`) narrows the list. */
  here?: boolean;
  expanded: Readonly<Record<string, unknown>>;
  /** Conversations that appeared above the view while scrolled ("↑ N new"). */
  newAbove: number;
  now: number;
}

/** `text` cut or padded to exactly `width` columns (fixed columns line up whatever a row carries). */
function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const t = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(t)));
  return align === 'left' ? t + pad : pad + t;
}

/** Width of the lineage columns: `⛓12 ⑂3` each in a fixed cell, blank when the row has none. */
const CHAIN_COL = 3;
const BRANCH_COL = 3;

/**
 * One conversation row in fixed columns: selection, flags (live ●, pinned ⚑,
 * unread •, one cell each, blank when not), the title, then age, source,
 * messages and lineage (chain ⛓N, branches ⑂N) at the same positions on every
 * row, so a marker never pushes a column sideways.
 */
export function recentLine(
  r: SessionRow,
  selected: boolean,
  width: number,
  now: number,
  expanded: boolean,
  showHidden: boolean,
  cols: RowColumns,
): Line {
  const wideRow = width >= 56;
  const live = isLive(r.open, r.lastActive, now);
  const unread = isUnread(r.lastReadAt, r.lastActive);
  const chain = r.chainLength > 1 ? `${glyph.chain}${r.chainLength}` : '';
  const branch = r.branches > 0 ? `${expanded ? glyph.expanded : glyph.branch}${r.branches}` : '';
  const right = [
    cell(age(r.lastActive, now), AGE_COL, 'right'),
    ...(wideRow && cols.sourceWidth > 0 ? [cell(shownSource(r), cols.sourceWidth)] : []),
    cell(shortCount(r.messageCount), cols.countWidth, 'right'),
    ...(cols.chain ? [cell(chain, CHAIN_COL)] : []),
    ...(cols.branch ? [cell(branch, BRANCH_COL)] : []),
  ].join(' ');
  const indent = r.depth > 0 ? `${'  '.repeat(r.depth - 1)}└ ` : '';
  const tag = showHidden && r.hiddenReason ? ` [${r.hiddenReason}]` : '';
  const lead: Span[] = [
    { text: selected ? `${glyph.selected} ` : '  ', tone: 'accent' },
    { text: live ? glyph.live : ' ', tone: 'live' },
    { text: r.pinned ? glyph.pinned : ' ', tone: 'accent' },
    { text: unread ? `${glyph.unread} ` : '  ', tone: 'warn' },
    // The agent's tag after the fixed marker cells, so titles still start in one column.
    ...(r.agent !== undefined && cols.agentTag
      ? [{ text: `${agentTag(r.agent)} `, tone: 'dim' as const }]
      : []),
    // The profile's tag in the every-profile view (P), the same way.
    ...(r.profile !== undefined
      ? [{ text: `${profileTag(r.profile ?? '', width)} `, tone: 'accent' as const }]
      : []),
    // The machine's tag when a synced host's conversations are listed too.
    ...(r.host !== undefined
      ? [{ text: `${profileTag(r.host, width)} `, tone: 'dim' as const }]
      : []),
    { text: indent, tone: 'dim' },
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
  const cols = React.useMemo(() => rowColumns(p.entries), [p.entries]);
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
        cols,
      ),
    );
  }
  if (p.entries.length === 0)
    lines.push([
      {
        text: p.here
          ? '  none run in this folder or below: . shows every folder'
          : '  no conversations yet',
        tone: 'dim',
      },
    ]);
  const count = `${formatCount(p.entries.length)}${p.complete ? '' : '+'}`;
  const fresh = p.newAbove > 0 ? ` · ${glyph.newAbove} ${formatCount(p.newAbove)} new` : '';
  const every = `${p.everyProfile ? ' · every profile' : ''}${p.here ? ' · this folder' : ''}`;
  const title = `Recent · ${count}${every}${p.showHidden ? ' · with hidden' : ''}${fresh}`;
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
