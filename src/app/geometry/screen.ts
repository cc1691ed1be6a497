/**
 * Where everything goes on screen for a terminal size: one pure function the
 * reducers (for scrolling arithmetic) and the views (for drawing) share.
 */

/**
 * At this width and above the list (Recent, or Results while there is a query)
 * and the message pane sit side by side, fzf style: the list on the left, the
 * preview of its selection on the right. Below it one pane is shown at a time.
 */
export const WIDE_MIN_COLS = 100;
/** The list's share of a wide screen, and its bounds: titles need the room, the preview more. */
const LIST_SHARE = 0.5;
const LIST_MIN = 48;
const LIST_MAX = 90;
/** Below this the app shows a "terminal too small" note instead of panes. */
export const MIN_COLS = 40;
export const MIN_ROWS = 10;
/** Header, search line, status line. */
const CHROME_ROWS = 3;
/** Top and bottom border of the panes. */
const BORDER_ROWS = 2;

export type PaneId = 'recent' | 'results' | 'messages';

export interface Size {
  cols: number;
  rows: number;
}

export interface Screen {
  cols: number;
  /** The frame is one line shorter than the terminal: a frame exactly `rows` tall makes ink clear the scrollback. */
  height: number;
  wide: boolean;
  tooSmall: boolean;
  /** Outer width of each pane; Recent and Results share the list's place. Narrow mode shows one at full width. */
  widths: Record<PaneId, number>;
  /** Lines inside a pane's borders. */
  innerHeight: number;
}

export function screenFor(size: Size): Screen {
  const cols = Math.max(1, Math.floor(size.cols));
  const rows = Math.max(1, Math.floor(size.rows));
  const height = Math.max(1, rows - 1);
  const wide = cols >= WIDE_MIN_COLS;
  const tooSmall = cols < MIN_COLS || rows < MIN_ROWS;
  let widths: Record<PaneId, number>;
  if (wide) {
    const list = Math.max(LIST_MIN, Math.min(LIST_MAX, Math.floor(cols * LIST_SHARE)));
    widths = { recent: list, results: list, messages: cols - list };
  } else {
    widths = { recent: cols, results: cols, messages: cols };
  }
  const innerHeight = Math.max(1, height - CHROME_ROWS - BORDER_ROWS);
  return { cols, height, wide, tooSmall, widths, innerHeight };
}

export function innerWidth(screen: Screen, pane: PaneId): number {
  return Math.max(1, screen.widths[pane] - 2);
}

/** Each result takes a title line and a snippet line. */
export const RESULT_ROWS = 2;

export function listCapacity(screen: Screen, pane: 'recent' | 'results'): number {
  return pane === 'results'
    ? Math.max(1, Math.floor(screen.innerHeight / RESULT_ROWS))
    : screen.innerHeight;
}
