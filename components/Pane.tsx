import React from 'react';
import { Box } from 'ink';
import { fitLine, type Line, type Span } from '../src/app/geometry/lineLayout.js';
import { toneColor, type Tone } from '../src/app/theme.js';
import { displayWidth, frameSafe, truncate } from '../src/text/width.js';
import { LineView } from './Line.js';

export interface PaneProps {
  title: string;
  /** Shown in the bottom border (e.g. the message position). */
  footer?: string;
  /** Outer width, borders included. */
  width: number;
  /** Lines inside the borders. */
  height: number;
  focused: boolean;
  /** At most `height` lines; missing ones are blank. */
  lines: readonly Line[];
}

function borderLine(
  left: string,
  right: string,
  label: string,
  width: number,
  tone: Tone,
  focused: boolean,
): Span[] {
  const inner = Math.max(0, width - 2);
  // Titles are store text: frame safe, like every line fitLine draws.
  const text = label ? ` ${truncate(frameSafe(label), Math.max(0, inner - 3))} ` : '';
  const fill = Math.max(0, inner - displayWidth(text));
  const color: Tone = focused ? 'accent' : tone;
  return [
    { text: left + '─'.repeat(text ? 1 : 0), tone: color },
    { text, tone: focused ? 'accent' : 'plain', bold: focused },
    { text: '─'.repeat(Math.max(0, fill - (text ? 1 : 0))) + right, tone: color },
  ];
}

/** A bordered pane with a title in its top border, drawn line by line at an exact size. */
export function Pane({
  title,
  footer,
  width,
  height,
  focused,
  lines,
}: PaneProps): React.JSX.Element {
  const inner = Math.max(1, width - 2);
  const rows: React.JSX.Element[] = [];
  for (let i = 0; i < height; i++)
    rows.push(<LineView key={i} spans={fitLine(lines[i] ?? [], inner)} />);
  // The side borders are ink's own (drawn without measuring text); the content
  // lines stay free of box-drawing characters, so most take string-width's ASCII fast path.
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <LineView spans={borderLine('┌', '┐', title, width, 'dim', focused)} />
      <Box
        flexDirection="column"
        width={width}
        height={height}
        borderStyle="single"
        borderTop={false}
        borderBottom={false}
        borderColor={toneColor(focused ? 'accent' : 'dim')}
      >
        {rows}
      </Box>
      <LineView spans={borderLine('└', '┘', footer ?? '', width, 'dim', focused)} />
    </Box>
  );
}
