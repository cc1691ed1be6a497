import { brandOf } from '../store/errors.js';

const USAGE_ERROR = brandOf('UsageError');

/** A mistake in how lookback was called: exit code 2, with a pointer to --help. */
export class UsageError extends Error {
  /** Across copies of this module (see brandOf). */
  static override [Symbol.hasInstance](x: unknown): boolean {
    return USAGE_ERROR.has(x);
  }

  constructor(message: string) {
    super(message);
    USAGE_ERROR.mark(this);
  }
}
