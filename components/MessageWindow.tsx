import React from 'react';
import { messageLabel } from '../src/ids/app.js';
import { sanitizeLine } from '../src/text/sanitize.js';
import { age, formatCount, plural } from '../src/text/format.js';
import {
  layoutMessage,
  messageText,
  type Line,
  type Span,
} from '../src/app/geometry/lineLayout.js';
import type { MarkRef, Message } from '../src/app/model.js';
import { measureAt, messageTextWidth } from '../src/app/state/selectors.js';
import type { MessageView } from '../src/app/state/types.js';
import { contextParts } from '../src/app/context.js';
import { isLive } from '../src/app/conversationStatus.js';
import { glyph } from '../src/app/theme.js';
import { messageCount, position, visibleSlice } from '../src/app/geometry/window.js';
import { Pane } from './Pane.js';

export interface MessageWindowProps {
  view: MessageView | null;
  /**
   * The view is the conversation beside the selection (or the one being read).
   * When false the pane shows `target`'s title and "loading…", never the view's text.
   */
  showView: boolean;
  /** The selected row the pane previews (null: nothing selected). */
  target: { title: string; source: string } | null;
  home: string;
  /** Lines of the scrolling area (the pane less the bookend lines). */
  viewHeight: number;
  width: number;
  height: number;
  focused: boolean;
  marks: readonly MarkRef[];
  now: number;
}

function bookend(label: string, m: Message | null, count: number, side: 'earlier' | 'later'): Line {
  const text = m ? sanitizeLine(messageText(m).slice(0, 600)) : '';
  return [
    { text: `┈ ${label} ┈ `, tone: 'dim' },
    { text: `${plural(count, `${side} message`)} ┈ `, tone: 'dim' },
    ...(m
      ? [
          { text: `${sanitizeLine(m.role)}: `, tone: 'dim' as const, bold: true },
          { text, tone: 'dim' as const },
        ]
      : []),
  ];
}

/** The conversation's context: folder, branch, model, source, counts, tokens, cost, status. */
function contextLine(v: MessageView, now: number, home: string): Line {
  if (!v.context) return [{ text: v.source, tone: 'dim' }];
  return [{ text: contextParts(v.context, now, home).join(' · '), tone: 'dim' }];
}

function positionLine(v: MessageView): string {
  const pos = position(v.win);
  if (!pos) return '';
  const parts = [`msg ${messageLabel(pos.messageId)}`];
  if (v.query !== null) {
    const k = v.hits.indexOf(pos.messageId);
    parts.push(
      k >= 0
        ? `hit ${k + 1}/${v.hits.length} in session`
        : `${plural(v.hits.length, 'hit')} in session`,
    );
  } else {
    parts.push(`${formatCount(pos.index)}/${formatCount(pos.total)}`);
  }
  parts.push(`${pos.percent}%`);
  return parts.join(' · ');
}

/** The visible lines of the window: gutter (focus bar, anchor) + the message's laid-out lines. */
export function windowLines(p: MessageWindowProps): Line[] {
  const v = p.view;
  if (!v) return [];
  const inner = Math.max(1, p.width - 2);
  const lines: Line[] = [];
  const { win } = v;
  const loaded = messageCount(win.items);
  lines.push(contextLine(v, p.now, p.home));
  if (!win.atStart) lines.push(bookend('start', v.bookStart, win.before, 'earlier'));
  const marked = new Set(p.marks.map((m) => `${m.sessionId}#${m.messageId}`));
  const width = messageTextWidth(inner);
  const measure = measureAt(width, v);
  for (const row of visibleSlice(win, measure, p.viewHeight)) {
    const it = row.item;
    if (it.kind === 'divider') {
      lines.push([
        { text: `┈┈ continued after compression · ${sanitizeLine(it.sessionId)} ┈┈`, tone: 'dim' },
      ]);
      continue;
    }
    const m = it.msg;
    const focused = row.index === win.focus;
    const layout = layoutMessage(m, {
      width,
      expanded: v.expanded.has(m.id),
      reasoning: v.reasoning,
      terms: v.terms,
      hideTools: v.hideTools,
      codeShift: v.codeShift,
    });
    for (let i = row.skip; i < row.skip + row.take; i++) {
      const body = layout.lines[i] ?? [];
      const header = i === 0;
      const gutter: Span[] = [
        { text: focused ? (header ? glyph.selected : glyph.focusBar) : ' ', tone: 'accent' },
        { text: header && m.id === win.anchorId ? glyph.anchor : ' ', tone: 'anchor' },
      ];
      const tail: Span[] = [
        // Another agent's message the person took back: shown only with H, and said so.
        ...(header && m.taken_back ? [{ text: ' taken back', tone: 'dim' as const }] : []),
        ...(header && marked.has(`${m.session_id}#${m.id}`)
          ? [{ text: ` ${glyph.mark} marked`, tone: 'mark' as const }]
          : []),
      ];
      lines.push([...gutter, ...body, ...tail]);
    }
  }
  if (!win.atEnd) {
    while (lines.length < p.height - 1) lines.push([]);
    lines.push(bookend('end', v.bookEnd, Math.max(0, win.total - win.before - loaded), 'later'));
  }
  return lines;
}

function MessageWindowView(p: MessageWindowProps): React.JSX.Element {
  const v = p.showView ? p.view : null;
  if (!v) {
    // The selection moved and its conversation is not loaded yet: its own title
    // and "loading", never the text of the conversation shown before.
    const t = p.target;
    return (
      <Pane
        title={t ? `${t.title} · ${t.source}` : 'Messages'}
        width={p.width}
        height={p.height}
        focused={p.focused}
        lines={[
          [
            {
              text: t ? '  loading…' : '  Select a conversation to preview it here.',
              tone: 'dim',
            },
          ],
        ]}
      />
    );
  }
  const last = v.win.items[v.win.items.length - 1];
  const lastAt = last && last.kind === 'message' ? last.msg.timestamp : null;
  const ago = lastAt !== null ? age(lastAt, p.now) : '';
  const when = ago === '' ? '' : ago === 'now' ? ' · now' : ` · ${ago} ago`;
  // Live only while the agent is active (an unended session silent for long is interrupted).
  // The context was read at open; a message written since is newer activity.
  const live = isLive(v.live, Math.max(v.context?.lastActive ?? 0, lastAt ?? 0), p.now);
  const title = `${v.title} · ${v.source}${when}${live ? ` · ${glyph.live} live` : ''}`;
  return (
    <Pane
      title={title}
      footer={positionLine(v)}
      width={p.width}
      height={p.height}
      focused={p.focused}
      lines={windowLines(p)}
    />
  );
}

/** Memoised: typing in the search line does not redraw the conversation. */
export const MessageWindow = React.memo(MessageWindowView);
