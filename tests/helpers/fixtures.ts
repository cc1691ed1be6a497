import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The real-schema stores committed in tests/fixtures (read-only inputs: always copied before opening). */
export const FIXTURE_DIR = resolve(import.meta.dirname, '../fixtures');
export const FIXTURE_LAYOUTS = [6, 16, 26, 30, '30-compacted'] as const;
export type FixtureLayout = (typeof FIXTURE_LAYOUTS)[number];

/** The schema version a fixture's `schema_version` table holds. */
export function schemaOf(layout: FixtureLayout): number {
  return typeof layout === 'number' ? layout : 30;
}

export function tempDir(prefix = 'lookback-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A private copy of a shared fixture store. */
export function fixtureCopy(layout: FixtureLayout): string {
  const dir = tempDir();
  const path = join(dir, `hermes-v${layout}.db`);
  copyFileSync(join(FIXTURE_DIR, `hermes-v${layout}.db`), path);
  return path;
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}
