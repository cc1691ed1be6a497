import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/text/format.js';

describe('formatCount', () => {
  it('groups thousands exactly as en-US number formatting does', () => {
    const intl = new Intl.NumberFormat('en-US');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.maxSafeInteger(),
          fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        ),
        (n) => {
          const whole = Math.trunc(n) || 0; // Intl writes -0 as "-0"; a count never is
          expect(formatCount(n)).toBe(intl.format(whole));
        },
      ),
      { numRuns: 2_000 },
    );
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(-1234567.9)).toBe('-1,234,567');
  });
});
