/** The progress bar: drawn on a terminal only, cleared at the end, numbers from the pass. */
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../src/agents/progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return {
    stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream,
    writes,
  };
}

describe('progressBar', () => {
  it('draws the agent, percentage and counts on a TTY, then clears its line', () => {
    const { stream, writes } = fakeStream(true);
    const bar = progressBar(stream);
    bar.update({
      agent: 'codex',
      filesDone: 3,
      filesTotal: 4,
      bytesDone: 50,
      bytesTotal: 100,
      messages: 120,
    });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('indexing codex');
    expect(writes[0]).toContain(' 50%  3/4 files  120 messages');
    bar.done();
    expect(writes[1]).toBe('\r\u001b[2K');
  });

  it('writes nothing when stderr is not a terminal', () => {
    const { stream, writes } = fakeStream(false);
    const bar = progressBar(stream);
    bar.update({
      agent: 'claude',
      filesDone: 1,
      filesTotal: 1,
      bytesDone: 1,
      bytesTotal: 1,
      messages: 1,
    });
    bar.done();
    expect(writes).toEqual([]);
  });
});
