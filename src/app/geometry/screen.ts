/**
 * Where everything goes on screen for a terminal size: one pure function the
 * reducers (for scrolling arithmetic) and the views (for drawing) share.
 */

/** At this width and above the three panes sit side by side. */
export const WIDE_MIN_COLS = 120;
/** Below this the app shows a "terminal too small" note instead of panes. */
export const MIN_COLS = 40;
export const MIN_ROWS = 10;
/** Header, search line, status line. */
const CHROME_ROWS = 3;
/** Top and bottom border of the panes. */
const BORDER_ROWS = 2;

export type PaneId = 'recent' | 'results' | 'messages';
export const PANES: readonly PaneId[] = ['recent', 'results', 'messages'];

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
  /** Outer width of each pane (0 when not shown side by side; narrow mode shows one at full width). */
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
    const recent = Math.floor(cols * 0.22);
    const results = Math.floor(cols * 0.31);
    widths = { recent, results, messages: cols - recent - results };
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
