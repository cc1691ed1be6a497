/** The global symbol src/bin.ts hands src/cli/lazy.ts's functions over on (scripts/appBundle.mjs reads it too). */
export const LAZY_KEY = 'lookback.lazy';
