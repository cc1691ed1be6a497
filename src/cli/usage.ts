/** A mistake in how lookback was called: exit code 2, with a pointer to --help. */
export class UsageError extends Error {}
