import type { StartOptions } from './options.js';

/**
 * `CI=false` (or `0`) tells ink it is not in CI, but chalk's colour detection
 * sees only that CI is set and turns colours off; on a terminal, say what was meant.
 */
export function colourEnv(env: NodeJS.ProcessEnv, isTTY: boolean): void {
  if (
    isTTY &&
    (env.CI === 'false' || env.CI === '0') &&
    env.FORCE_COLOR === undefined &&
    env.NO_COLOR === undefined
  )
    env.FORCE_COLOR = '1';
}

/** The interactive app (the CLI imports this lazily, so subcommands never load React or Ink). */
export async function startApp(flags: StartOptions): Promise<number> {
  // Before ink (and chalk) load: they read the environment once.
  colourEnv(process.env, process.stdout.isTTY === true || process.stderr.isTTY === true);
  const { runApp } = await import('./run.js');
  return runApp(flags);
}
