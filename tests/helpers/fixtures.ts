import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The real-schema stores committed in tests/fixtures (read-only inputs: always copied before opening). */
export const FIXTURE_DIR = resolve(import.meta.dirname, '../fixtures');
export const FIXTURE_LAYOUTS = [6, 16, 30] as const;

export function tempDir(prefix = 'lookback-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A private copy of a shared fixture store. */
export function fixtureCopy(layout: (typeof FIXTURE_LAYOUTS)[number]): string {
  const dir = tempDir();
  const path = join(dir, `hermes-v${layout}.db`);
  copyFileSync(join(FIXTURE_DIR, `hermes-v${layout}.db`), path);
  return path;
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
