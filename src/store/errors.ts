/**
 * `x instanceof C` for an error class that holds across copies of its module:
 * the command line (dist/cli.cjs) and what it loads on demand (ES chunks: the
 * other agents' commands, the app) each bundle one, and an error thrown by one
 * copy is caught by the other. The instance carries a registered symbol.
 */
export function brandOf(name: string): {
  mark(e: Error): void;
  has(x: unknown): boolean;
} {
  const brand = Symbol.for(`lookback.${name}`);
  return {
    mark: (e) => Object.defineProperty(e, brand, { value: true }),
    has: (x) =>
      typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[brand] === true,
  };
}

const STORE_ERROR = brandOf('StoreError');

/** A failure the user can act on, with a one-line message that names the problem. */
export class StoreError extends Error {
  static override [Symbol.hasInstance](x: unknown): boolean {
    return STORE_ERROR.has(x);
  }

  constructor(
    message: string,
    readonly code: StoreErrorCode,
  ) {
    super(message);
    this.name = 'StoreError';
    STORE_ERROR.mark(this);
  }
}

export type StoreErrorCode =
  | 'not-found'
  | 'not-a-file'
  | 'not-sqlite'
  | 'corrupt'
  | 'schema'
  | 'busy'
  | 'io'
  | 'no-session'
  | 'no-message'
  | 'lineage'
  | 'query';

interface SqliteLikeError {
  code?: string;
  message?: string;
}

/** Maps a SQLite error to one line a person can act on; keeps the SQLite wording as detail. */
export function explainSqliteError(err: unknown, path: string): StoreError {
  if (err instanceof StoreError) return err;
  const e = (err ?? {}) as SqliteLikeError;
  const code = e.code ?? '';
  const detail = oneLine(e.message ?? String(err));
  if (code === 'SQLITE_NOTADB')
    return new StoreError(`${path} is not a SQLite database`, 'not-sqlite');
  if (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT'))
    return new StoreError(`${path} is corrupt (${detail})`, 'corrupt');
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new StoreError(`store busy: the agent is holding a lock on ${path}; try again`, 'busy');
  if (code.startsWith('SQLITE_CANTOPEN'))
    return new StoreError(`cannot open ${path} (${detail})`, 'io');
  if (code.startsWith('SQLITE_IOERR'))
    return new StoreError(`I/O error reading ${path} (${detail})`, 'io');
  return new StoreError(`cannot read ${path}: ${detail}`, 'io');
}

export function isTransient(err: unknown): boolean {
  const code = ((err ?? {}) as SqliteLikeError).code ?? '';
  return (
    code.startsWith('SQLITE_BUSY') ||
    code.startsWith('SQLITE_LOCKED') ||
    code.startsWith('SQLITE_IOERR') ||
    code === 'SQLITE_PROTOCOL'
  );
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
