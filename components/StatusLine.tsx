import React from 'react';
import { formatCount, plural } from '../src/text/format.js';
import { fitLine, type Span } from '../src/app/geometry/lineLayout.js';
import type { HiddenCounts, StatusMessage } from '../src/app/model.js';
import type { Tone } from '../src/app/theme.js';
import { displayWidth, truncate } from '../src/text/width.js';
import { LineView } from './Line.js';

export interface StatusLineProps {
  width: number;
  /** Key hints for the focused pane. */
  hints: readonly string[];
  status: StatusMessage | null;
  hidden: HiddenCounts | null;
  showHidden: boolean;
  /** The every-profile view (P) is on: said on the right, beside what is hidden. */
  everyProfile?: boolean;
  marks: number;
}

const TONE: Record<StatusMessage['tone'], Tone> = {
  info: 'plain',
  ok: 'ok',
  warn: 'warn',
  error: 'error',
};

/** What is hidden, as long as the room allows: so no conversation is ever silently missing. */
export function hiddenText(hidden: HiddenCounts | null, showHidden: boolean, room: number): string {
  if (showHidden) return 'showing hidden · H hides them';
  if (!hidden || hidden.total === 0) return '';
  const parts = (
    [
      ['subagent', hidden.subagent],
      ['archived', hidden.archived],
      ['hidden', hidden.hidden],
      ['kanban', hidden.kanban],
      ['tool', hidden.tool],
      ['delegate', hidden.delegate],
      ['orphaned', hidden.orphaned],
    ] as const
  )
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${formatCount(n)} ${k}`);
  const long = `${formatCount(hidden.total)} hidden: ${parts.join(', ')} · H shows them`;
  if (displayWidth(long) <= room) return long;
  return `${formatCount(hidden.total)} hidden · H show`;
}

export function StatusLine(p: StatusLineProps): React.JSX.Element {
  const marks = p.marks > 0 ? `${plural(p.marks, 'mark')} · ` : '';
  const rightWith = (hidden: string): string => {
    const every = p.everyProfile ? `every profile · P${hidden ? ' · ' : ''}` : '';
    return `${marks}${every}${hidden} `;
  };
  let right = rightWith(hiddenText(p.hidden, p.showHidden, Math.floor(p.width / 2)));
  if (p.status) {
    // A message is read whole: the hidden count shortens, then yields, until it fits (it is back when the message goes).
    const need = displayWidth(p.status.text) + 3;
    for (const hidden of [hiddenText(p.hidden, p.showHidden, 0), '']) {
      if (displayWidth(right) + need <= p.width) break;
      right = rightWith(hidden);
    }
    if (displayWidth(right) + need > p.width) right = '';
  }
  const room = Math.max(1, p.width - displayWidth(right) - 2);
  let left: Span;
  if (p.status) left = { text: truncate(p.status.text, room), tone: TONE[p.status.tone] };
  else {
    const parts: string[] = [];
    for (const h of p.hints) {
      const next = [...parts, h].join(' · ');
      if (displayWidth(next) > room) break;
      parts.push(h);
    }
    left = { text: parts.join(' · '), tone: 'dim' };
  }
  const gap = ' '.repeat(Math.max(1, p.width - 1 - displayWidth(left.text) - displayWidth(right)));
  return (
    <LineView
      spans={fitLine([{ text: ' ' }, left, { text: gap }, { text: right, tone: 'dim' }], p.width)}
    />
  );
}
