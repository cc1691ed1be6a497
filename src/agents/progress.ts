/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
import type { Progress } from './indexer.js';

export function progressBar(stream: NodeJS.WriteStream = process.stderr): {
  update: (p: Progress) => void;
  done: () => void;
} {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100 && p.filesDone < p.filesTotal) return;
      last = now;
      const frac =
        p.bytesTotal > 0
          ? Math.min(1, p.bytesDone / p.bytesTotal)
          : p.filesTotal > 0
            ? p.filesDone / p.filesTotal
            : 1;
      const width = 24;
      const full = Math.round(frac * width);
      const bar = '█'.repeat(full) + '░'.repeat(width - full);
      stream.write(
        `\r\u001b[2Kindexing ${p.agent.padEnd(9)} ${bar} ${String(Math.round(frac * 100)).padStart(3)}%  ${p.filesDone}/${p.filesTotal} files  ${p.messages} messages`,
      );
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
