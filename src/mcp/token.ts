/**
 * The bearer token `lookback mcp --http` asks for on an address beyond
 * loopback: generated once (256 random bits), kept in lookback's config
 * directory with user-only permissions (0600, directory 0700), shown to the
 * user once when it is made and never again (nor logged: later starts print
 * only where it is). A token file others can read is refused, as ssh refuses
 * a readable key.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from '../recall/usage.js';

/** $XDG_CONFIG_HOME/lookback/mcp-http-token, else ~/.config/lookback/mcp-http-token. */
export function tokenPath(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'lookback', 'mcp-http-token');
}

export interface Token {
  value: string;
  path: string;
  /** Made by this run: the one time it is shown. */
  created: boolean;
}

const TOKEN_FORM = /^[A-Za-z0-9_-]{32,256}$/;

/** The stored token, or a new one stored with user-only permissions. */
export function loadOrCreateToken(path = tokenPath()): Token {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`cannot read the token file ${path}: ${(err as Error).message}`);
  }
  if (stat) {
    if (!stat.isFile()) throw new UsageError(`the token file ${path} is not a regular file`);
    if ((stat.mode & 0o077) !== 0)
      throw new UsageError(
        `the token file ${path} is readable by others (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it or delete it for a new token`,
      );
    const value = readFileSync(path, 'utf8').trim();
    if (!TOKEN_FORM.test(value))
      throw new UsageError(`the token file ${path} holds no token; delete it for a new one`);
    return { value, path, created: false };
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('base64url');
  // O_EXCL: two servers starting at once never overwrite each other's token.
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${value}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, 0o600);
  return { value, path, created: true };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of an Authorization header with the token. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}
