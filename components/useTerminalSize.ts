import { useEffect, useState } from 'react';
import { useStdout } from 'ink';
import type { Size } from '../src/app/geometry/screen.js';

/** Used when the output is not a terminal (never drawn then, but the layout needs numbers). */
const FALLBACK: Size = { cols: 80, rows: 24 };

function read(stdout: NodeJS.WriteStream): Size {
  return { cols: stdout.columns || FALLBACK.cols, rows: stdout.rows || FALLBACK.rows };
}

/**
 * The terminal size, updated on `resize`. Ink re-lays out on resize but does
 * not re-render components, so everything sized derives from this one hook.
 * `override` fixes the size (tests: ink-testing-library has 100 columns and no rows).
 */
export function useTerminalSize(override?: Size): Size {
  const { stdout } = useStdout();
  const [size, setSize] = useState<Size>(() => override ?? read(stdout));
  useEffect(() => {
    if (override) return;
    const onResize = (): void => {
      const next = read(stdout);
      setSize((cur) => (cur.cols === next.cols && cur.rows === next.rows ? cur : next));
    };
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, override]);
  return override ?? size;
}
