import React from 'react';
import { fitLine, type Span } from '../src/app/geometry/lineLayout.js';
import { visibleLine } from '../src/app/input/lineEditor.js';
import type { SearchMode } from '../src/app/model.js';
import { glyph } from '../src/app/theme.js';
import { displayWidth, truncate } from '../src/text/width.js';
import { LineView } from './Line.js';

/** A `key:value` filter in the line, by code-unit offsets (src/query/filters.ts Chip). */
export interface ChipRange {
  start: number;
  end: number;
  known: boolean;
}

export interface SearchLineProps {
  width: number;
  /** Sanitized by the line editor. */
  text: string;
  cursor: number;
  /** The query is selected: typing replaces it. */
  selected: boolean;
  chips: readonly ChipRange[];
  typing: boolean;
  mode: SearchMode;
  /** Right-aligned note, e.g. "searching…". */
  note: string;
  /** Shown in place of the search (the find line in a conversation: `find: `). */
  prompt?: string;
  /** A completion offered at the cursor (src/query/complete.ts): drawn after it, Tab takes it. */
  offer?: SearchOffer | null;
}

export interface SearchOffer {
  /** What Tab adds to the word (the first choice's rest), drawn dim after the cursor. */
  rest: string;
  /** The choices, sanitized by the sources' values (shown in place of the note). */
  labels: readonly string[];
}

/** `⇥ gpt-5 · gpt-4o · …`: the choices, the first one Tab takes. */
function offerNote(o: SearchOffer): string {
  return `⇥ ${o.labels.join(' · ')}`;
}

/** Spans of text[from, to) with the chips styled: a known filter accented, an unknown one in the warning colour. */
function styled(
  text: string,
  from: number,
  to: number,
  chips: readonly ChipRange[],
  extra: Partial<Span>,
): Span[] {
  const out: Span[] = [];
  let at = from;
  while (at < to) {
    const chip = chips.find((c) => c.start <= at && at < c.end);
    const next = chip
      ? Math.min(to, chip.end)
      : Math.min(to, ...chips.filter((c) => c.start > at).map((c) => c.start), to);
    const piece = text.slice(at, next);
    out.push(
      chip
        ? { text: piece, tone: chip.known ? 'accent' : 'warn', bold: true, ...extra }
        : { text: piece, ...extra },
    );
    at = next;
  }
  return out;
}

/** ` / query▌` with the cursor where it is, the part around it visible, and filters as chips. */
export function SearchLine(p: SearchLineProps): React.JSX.Element {
  const offer = p.typing && p.offer ? p.offer : null;
  const note = offer ? truncate(offerNote(offer), Math.max(8, Math.floor(p.width / 2))) : p.note;
  const noteText = note ? ` ${note} ` : '';
  const lead = p.prompt ?? ' / ';
  const room = Math.max(1, p.width - displayWidth(lead) - 1 - displayWidth(noteText) - 1);
  const placeholder =
    p.mode === 'fuzzy' ? 'fuzzy: titles, ids, sources, folders' : 'search messages (full-text)';
  const spans: Span[] = [{ text: lead, tone: p.typing ? 'accent' : 'dim', bold: p.typing }];
  if (p.text === '' && !p.typing) spans.push({ text: truncate(placeholder, room), tone: 'dim' });
  else {
    const cursor = p.typing ? p.cursor : p.text.length;
    // A line longer than the room is clipped around the cursor, with room kept for the … marks.
    const fits = displayWidth(p.text) + 1 <= room;
    const v = visibleLine({ text: p.text, cursor }, fits ? room : Math.max(1, room - 2));
    const start = cursor - v.before.length;
    const atEnd = cursor >= p.text.length;
    const sel = p.selected ? { inverse: true } : {};
    if (v.clippedLeft) spans.push({ text: '…', tone: 'dim' });
    spans.push(...styled(p.text, start, cursor, p.chips, sel));
    if (atEnd) {
      spans.push({ text: p.typing ? glyph.cursor : ' ', tone: 'accent' });
      if (offer && offer.rest !== '') spans.push({ text: offer.rest, tone: 'dim' });
    } else {
      spans.push(
        ...styled(
          p.text,
          cursor,
          cursor + v.at.length,
          p.chips,
          p.typing ? { inverse: true } : sel,
        ),
      );
      const afterEnd = cursor + v.at.length + v.after.length;
      spans.push(...styled(p.text, cursor + v.at.length, afterEnd, p.chips, sel));
      if (v.clippedRight) spans.push({ text: '…', tone: 'dim' });
    }
  }
  const used = spans.reduce((n, s) => n + displayWidth(s.text), 0);
  spans.push(
    { text: ' '.repeat(Math.max(1, p.width - used - displayWidth(noteText))) },
    { text: noteText, tone: 'dim' },
  );
  return <LineView spans={fitLine(spans, p.width)} />;
}
