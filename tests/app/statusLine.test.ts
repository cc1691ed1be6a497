import { describe, expect, it } from 'vitest';
import { hiddenText } from '../../components/StatusLine.js';

describe('the status line says what is hidden', () => {
  const counts = {
    total: 28,
    archived: 1,
    hidden: 2,
    kanban: 3,
    subagent: 4,
    tool: 5,
    delegate: 6,
    orphaned: 7,
  };

  it('names every kind of hidden conversation the store counts', () => {
    expect(hiddenText(counts, false, 200)).toBe(
      '28 hidden: 4 subagent, 1 archived, 2 hidden, 3 kanban, 5 tool, 6 delegate, 7 orphaned · H shows them',
    );
  });

  it('leaves out the kinds with none, and shortens to the total when there is no room', () => {
    expect(
      hiddenText(
        {
          ...counts,
          total: 3,
          kanban: 3,
          archived: 0,
          hidden: 0,
          subagent: 0,
          tool: 0,
          delegate: 0,
          orphaned: 0,
        },
        false,
        200,
      ),
    ).toBe('3 hidden: 3 kanban · H shows them');
    expect(hiddenText(counts, false, 20)).toBe('28 hidden · H show');
  });
});
