/**
 * Errors caught across copies of their module (dist/cli.cjs and the ES chunks it
 * loads each bundle one): a StoreError or UsageError from another copy must still
 * be one, or `--agent all` without a Hermes store said "unexpected error".
 */
import { describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../src/store/errors.js';
import { UsageError } from '../../src/recall/usage.js';

/** Second copies of the modules, as the other bundle would load them. */
async function copies() {
  vi.resetModules();
  const store = (await import('../../src/store/errors.js')) as { StoreError: typeof StoreError };
  const usage = (await import('../../src/recall/usage.js')) as { UsageError: typeof UsageError };
  return { StoreError: store.StoreError, UsageError: usage.UsageError };
}

describe('error classes across module copies', () => {
  it('recognises a StoreError and a UsageError made by another copy, and nothing else', async () => {
    const other = await copies();
    const otherUsage = other;
    expect(other.StoreError).not.toBe(StoreError);
    const e = new other.StoreError('no store at x', 'not-found');
    expect(e instanceof StoreError).toBe(true);
    expect(e.code).toBe('not-found');
    expect(new StoreError('y', 'io') instanceof other.StoreError).toBe(true);
    expect(new otherUsage.UsageError('bad flag') instanceof UsageError).toBe(true);
    expect(new UsageError('u') instanceof StoreError).toBe(false);
    expect(new Error('plain') instanceof StoreError).toBe(false);
    expect(UsageError[Symbol.hasInstance](null)).toBe(false);
    expect(new StoreError('m', 'io')).toBeInstanceOf(Error);
  });
});
