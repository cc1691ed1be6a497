/**
 * SGR mouse reports (`ESC [ < b ; x ; y M|m`, enabled with modes 1000 and
 * 1006 by src/tui/terminal.ts). Ink hands them to useInput as text without
 * the ESC (`[<64;10;5M`), one sequence per event; they are recognised here so
 * they become mouse events and never reach the search line as typed text.
 */

export type MouseEvent =
  | { kind: 'wheel'; dir: 1 | -1; x: number; y: number }
  | { kind: 'press'; button: 'left' | 'middle' | 'right'; x: number; y: number }
  | { kind: 'other' };

const SGR = /\x1b?\[<(\d{1,4});(\d{1,5});(\d{1,5})([Mm])/y;

/**
 * The mouse events in `input` when it is made only of SGR mouse reports
 * (x and y 1-based, as the terminal sends them); null for anything else.
 */
export function parseMouse(input: string): MouseEvent[] | null {
  if (!input.includes('[<')) return null;
  const out: MouseEvent[] = [];
  SGR.lastIndex = 0;
  while (SGR.lastIndex < input.length) {
    const at = SGR.lastIndex;
    const m = SGR.exec(input);
    if (!m || m.index !== at) return null;
    const b = Number(m[1]);
    const x = Number(m[2]);
    const y = Number(m[3]);
    const release = m[4] === 'm';
    if (b & 64) out.push({ kind: 'wheel', dir: (b & 1) === 1 ? 1 : -1, x, y });
    else if (release || b & 32) out.push({ kind: 'other' });
    else
      out.push({
        kind: 'press',
        button: (['left', 'middle', 'right'] as const)[b & 3] ?? 'left',
        x,
        y,
      });
  }
  return out;
}
