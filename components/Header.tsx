import React from 'react';
import { formatCount } from '../src/text/format.js';
import { fitLine, type Span } from '../src/app/geometry/lineLayout.js';
import type { SearchMode, Sort } from '../src/app/model.js';
import { sanitizeLine } from '../src/text/sanitize.js';
import { displayWidth, truncate } from '../src/text/width.js';
import { LineView } from './Line.js';

export interface HeaderProps {
  width: number;
  profile: string;
  /** Store path, already shortened with ~. */
  path: string;
  demo: boolean;
  /** No Hermes store: the header says so instead of a profile and a path. */
  noHermes?: boolean;
  sessions: number;
  complete: boolean;
  mode: SearchMode;
  sort: Sort;
  tools: boolean;
  /** The open conversation hides its tool steps (T). */
  toolStepsHidden?: boolean;
  /** The this-folder view (`.`): the folder, shortened with ~; shown as a chip so the narrowed list is plain. */
  here?: string | null;
}

/** The most of a folder that fits, its end kept (`…/code/app`): the end names it. */
function folderTail(dir: string, max: number): string {
  const w = displayWidth(dir);
  if (w <= max) return dir;
  const chars = Array.from(dir);
  let out = '';
  for (let i = chars.length - 1; i >= 0 && displayWidth(out) + displayWidth(chars[i]!) < max; i--)
    out = chars[i]! + out;
  return `…${out}`;
}

/** `lookback · <profile> · <path> · N sessions` on the left, the search settings on the right. */
export function Header(p: HeaderProps): React.JSX.Element {
  const right =
    p.mode === 'fuzzy'
      ? 'fuzzy · titles, ids, folders'
      : `full-text · ${p.sort} · ${p.tools ? 'user+assistant+tool' : 'user+assistant'}`;
  const count = `${formatCount(p.sessions)}${p.complete ? '' : '+'} ${p.sessions === 1 && p.complete ? 'session' : 'sessions'}`;
  const leftParts: Span[] = [
    { text: ' lookback', bold: true, tone: 'accent' },
    ...(p.noHermes
      ? ([{ text: ' · no Hermes store', tone: 'dim' }] satisfies Span[])
      : ([
          { text: ` · ${p.demo ? 'demo store' : p.profile} · `, tone: p.demo ? 'warn' : 'plain' },
          { text: sanitizeLine(p.path), tone: 'dim' },
        ] satisfies Span[])),
    { text: ` · ${count}` },
  ];
  const rightText = `${p.toolStepsHidden ? 'tool steps hidden · ' : ''}${right} `;
  // The this-folder chip goes first on the right: it must survive a narrow terminal.
  const chip: Span | null =
    p.here != null
      ? {
          text: ` here ${folderTail(sanitizeLine(p.here), Math.max(8, Math.floor(p.width / 4)))} `,
          tone: 'accent',
          inverse: true,
        }
      : null;
  const chipWidth = chip ? displayWidth(chip.text) + 1 : 0;
  const room = Math.max(0, p.width - displayWidth(rightText) - chipWidth - 1);
  const left = fitLine(leftParts, room);
  const spans: Span[] = [
    ...left,
    { text: ' ' },
    ...(chip ? [chip, { text: ' ' }] : []),
    { text: truncate(rightText, Math.max(0, p.width - room - 1 - chipWidth)), tone: 'dim' },
  ];
  return <LineView spans={fitLine(spans, p.width)} />;
}
