import { execFileSync } from 'node:child_process';

/** The CLI tests run the real bundle, so build it once from the current sources. */
export default function setup(): void {
  if (process.env.LOOKBACK_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
