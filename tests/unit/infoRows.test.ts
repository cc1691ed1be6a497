import { describe, expect, it } from 'vitest';
import { infoRows } from '../../src/app/context.js';
import type { ConversationContext } from '../../src/store/facts.js';

const now = Date.parse('2026-11-23T12:00:00Z') / 1000;
const context: ConversationContext = {
  cwd: '/home/ana/shop',
  gitBranch: null,
  model: 'm',
  source: 'cli',
  messages: 1234,
  inputTokens: null,
  outputTokens: null,
  costUsd: null,
  costEstimated: false,
  startedAt: now - 7200,
  lastActive: now - 20,
  endedAt: null,
  endReason: null,
  lastReadAt: null,
  pinned: false,
};
const value = (rows: { label: string; value: string }[], label: string): string | undefined =>
  rows.find((r) => r.label === label)?.value;

describe('infoRows (the i panel)', () => {
  it('says how long ago in words, "just now" under a minute, and leaves out facts the store lacks', () => {
    const rows = infoRows({ title: 'T', chain: ['S1', 'S2'], context }, 'work', now);
    expect(value(rows, 'started')).toMatch(/ \(2h ago\)$/);
    expect(value(rows, 'last active')).toMatch(/ \(just now\)$/);
    expect(value(rows, 'messages')).toBe('1,234');
    expect(value(rows, 'newest segment')).toBe('S2 (2 segments)');
    expect(value(rows, 'link')).toBe('@session:work/S1');
    expect(value(rows, 'status')).toBe('live');
    for (const absent of ['branch', 'tokens', 'cost', 'pinned', 'last read', 'ended'])
      expect(value(rows, absent)).toBeUndefined();
  });

  it("claims no status for a history that records no end, and names another agent's own id", () => {
    const rows = infoRows(
      { title: 'T', chain: ['claude:abc'], context: { ...context, endKnown: false } },
      'default',
      now,
    );
    expect(value(rows, 'agent')).toBe('claude');
    expect(value(rows, 'session')).toBe('abc');
    expect(value(rows, 'resume')).toBe('claude --resume abc');
    expect(value(rows, 'status')).toBeUndefined();
    expect(value(rows, 'link')).toBeUndefined();
  });
});
