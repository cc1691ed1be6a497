import React from 'react';
import { agentTag, profileTag } from '../src/app/tags.js';
import { age, formatCount, plural } from '../src/text/format.js';
import type { Line, Span } from '../src/app/geometry/lineLayout.js';
import { visibleRange, type ListState } from '../src/app/geometry/list.js';
import type { ResultItem, SearchMode, SearchPath } from '../src/app/model.js';
import { RESULT_ROWS } from '../src/app/geometry/screen.js';
import { isLive } from '../src/app/conversationStatus.js';
import { glyph } from '../src/app/theme.js';
import { displayWidth, truncate } from '../src/text/width.js';
import {
  AGE_COL,
  rowColumns,
  shownSource,
  type RowColumns,
} from '../src/app/geometry/rowColumns.js';
import { Pane } from './Pane.js';

export interface ResultsPaneProps {
  items: readonly ResultItem[];
  list: ListState;
  hitCounts: Readonly<Record<string, number>>;
  width: number;
  height: number;
  focused: boolean;
  busy: boolean;
  message: string | null;
  query: string;
  /** The every-profile view (P) is on. */
  everyProfile?: boolean;
  mode: SearchMode;
  path: SearchPath | null;
  /** Conversations the query matches in all (null until counted); capped: at least that many. */
  total: number | null;
  capped: boolean;
  now: number;
}

/** The right-hand count of a result: its hits in the conversation, or how a pasted anchor opens. */
function countText(r: ResultItem, hits: number | undefined): string {
  // `1 hit ` with a trailing blank: numbers line up with `12 hits` when right-aligned.
  // A relaxed row holds no exact hit to count.
  if (r.kind === 'hit' && r.relaxed) return '';
  if (r.kind === 'hit')
    return hits === undefined ? '' : `${plural(hits, 'hit')}${hits === 1 ? ' ' : ''}`;
  return r.kind === 'jump' ? 'open ⏎' : '';
}

/** `text` cut or padded to exactly `width` columns, so the right-hand block lines up across rows. */
function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const t = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(t)));
  return align === 'left' ? t + pad : pad + t;
}

/** The right-hand columns over the listed results: which show, and the count's width. */
export type ResultColumns = RowColumns;

export function resultColumns(
  items: readonly ResultItem[],
  hitCounts: Readonly<Record<string, number>>,
): ResultColumns {
  let countWidth = 0;
  for (const r of items)
    countWidth = Math.max(countWidth, displayWidth(countText(r, hitCounts[r.key])));
  return { ...rowColumns(items, 9), countWidth };
}

export function resultLines(
  r: ResultItem,
  selected: boolean,
  hits: number | undefined,
  width: number,
  now: number,
  cols: ResultColumns,
): [Line, Line] {
  // Fixed cells (age right-aligned, source left, count right): columns line up across rows.
  const right = [
    cell(age(r.when, now), AGE_COL, 'right'),
    ...(cols.sourceWidth > 0 ? [cell(shownSource(r), cols.sourceWidth)] : []),
    ...(cols.countWidth > 0 ? [cell(countText(r, hits), cols.countWidth, 'right')] : []),
  ].join('  ');
  const lead =
    (selected ? `${glyph.selected} ` : '  ') +
    (r.agent !== undefined && cols.agentTag ? `${agentTag(r.agent)} ` : '') +
    (r.profile !== undefined ? `${profileTag(r.profile, width)} ` : '') +
    (r.host !== undefined ? `${profileTag(r.host, width)} ` : '');
  // A fixed cell: titles start at the same column with or without the live marker.
  // A relaxed hit (not every word) is marked in the same cell.
  const live = isLive(r.live, r.when, now)
    ? `${glyph.live} `
    : r.relaxed
      ? `${glyph.relaxed} `
      : '  ';
  const leadW = displayWidth(lead);
  const room = Math.max(1, width - leadW - displayWidth(live) - displayWidth(right) - 1);
  const title = truncate(r.title, room);
  const pad = ' '.repeat(
    Math.max(1, width - leadW - displayWidth(live) - displayWidth(title) - displayWidth(right)),
  );
  const first: Span[] = [
    { text: lead, tone: 'accent' },
    { text: live, tone: r.relaxed && live.startsWith(glyph.relaxed) ? 'dim' : 'live' },
    { text: title, ...(selected ? { tone: 'accent' as const, bold: true } : {}) },
    { text: pad },
    { text: right, tone: 'dim' },
  ];
  // A hit in a message that was taken back (shown only with H) says so before its words.
  // A hit by meaning says why it matched (ranks, similarity) before its words.
  const mark = r.takenBack ? 'taken back · ' : r.why ? `${r.why} · ` : '';
  const second: Span[] = [
    { text: '    ' },
    ...(mark ? [{ text: mark, tone: 'dim' as const }] : []),
  ];
  let used = 4 + mark.length;
  for (const seg of r.snippet) {
    if (used >= width) break;
    const text = truncate(seg.text, width - used);
    second.push(seg.hit ? { text, hit: true } : { text, tone: 'dim' });
    used += displayWidth(text);
  }
  return [first, second];
}

function title(p: ResultsPaneProps): string {
  const what = p.mode === 'fuzzy' ? 'Fuzzy' : 'Results';
  if (p.query.trim() === '') return what;
  if (p.busy && p.items.length === 0) return `${what} · searching…`;
  const hit = p.items[0]?.kind === 'hit';
  const unit = hit ? 'sessions' : 'matches';
  const n =
    p.total !== null && (p.total > p.items.length || p.capped)
      ? `${formatCount(p.items.length)} of ${formatCount(p.total)}${p.capped ? '+' : ''} ${unit}`
      : plural(p.items.length, hit ? 'session' : 'match', unit);
  const every = p.everyProfile ? ' · every profile' : '';
  // Relaxed hits follow the exact ones; the title says what they are (≈ marks each).
  const loose = p.items.filter((r) => r.relaxed).length;
  const relaxed =
    loose === 0
      ? ''
      : loose === p.items.length
        ? ` · ${glyph.relaxed} no conversation has every word; closest first`
        : ` · ${glyph.relaxed} ${formatCount(loose)} without every word, closest first`;
  return `${what}: ${n}${every}${relaxed}${p.busy ? ' · searching…' : ''}${p.path === 'like' ? ' · substring scan' : ''}`;
}

function ResultsPaneView(p: ResultsPaneProps): React.JSX.Element {
  const inner = Math.max(1, p.width - 2);
  const capacity = Math.max(1, Math.floor(p.height / RESULT_ROWS));
  const { start, end } = visibleRange(p.list, p.items.length, capacity);
  const cols = React.useMemo(() => resultColumns(p.items, p.hitCounts), [p.items, p.hitCounts]);
  const lines: Line[] = [];
  for (let i = start; i < end; i++) {
    const r = p.items[i]!;
    lines.push(...resultLines(r, i === p.list.selected, p.hitCounts[r.key], inner, p.now, cols));
  }
  if (p.items.length === 0) {
    const hint =
      p.query.trim() === ''
        ? p.mode === 'fuzzy'
          ? '  / and type part of a title, id, source or folder'
          : '  / and type words, "a phrase", prefix*, OR, NOT'
        : p.busy
          ? '  searching…'
          : `  ${p.message ?? 'no results'}`;
    lines.push([{ text: hint, tone: 'dim' }]);
  }
  const footer =
    p.items.length > 0 ? `${formatCount(p.list.selected + 1)}/${formatCount(p.items.length)}` : '';
  return (
    <Pane
      title={title(p)}
      footer={footer}
      width={p.width}
      height={p.height}
      focused={p.focused}
      lines={lines}
    />
  );
}

/** Memoised: a key in another pane does not redraw this one. */
export const ResultsPane = React.memo(ResultsPaneView);
