import React from 'react';
import { Text } from 'ink';
import type { Span } from '../src/app/geometry/lineLayout.js';
import { theme, toneColor } from '../src/app/theme.js';

interface Run {
  text: string;
  color: string | undefined;
  bold: boolean;
  italic: boolean;
  inverse: boolean;
}

/** Adjacent spans of the same style become one run: fewer nodes, a cheaper frame. */
export function runsOf(spans: readonly Span[]): Run[] {
  const runs: Run[] = [];
  for (const s of spans) {
    if (s.text === '') continue;
    const color = s.hit ? theme.hit : toneColor(s.tone);
    const bold = s.hit ? true : (s.bold ?? false);
    const italic = s.italic ?? false;
    const inverse = s.inverse ?? false;
    const last = runs[runs.length - 1];
    if (
      last &&
      last.color === color &&
      last.bold === bold &&
      last.italic === italic &&
      last.inverse === inverse
    )
      last.text += s.text;
    else runs.push({ text: s.text, color, bold, italic, inverse });
  }
  return runs;
}

/** One display line: styled spans already cut to width (strings here are sanitized upstream). */
export function LineView({ spans }: { spans: readonly Span[] }): React.JSX.Element {
  return (
    <Text wrap="truncate-end">
      {runsOf(spans).map((r, i) =>
        r.color === undefined && !r.bold && !r.italic && !r.inverse ? (
          r.text
        ) : (
          <Text key={i} color={r.color} bold={r.bold} italic={r.italic} inverse={r.inverse}>
            {r.text}
          </Text>
        ),
      )}
    </Text>
  );
}
