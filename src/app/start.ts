import type { Flags } from '../cli/commands.js';

/** Placeholder until the interactive app lands: prints recent sessions as text. */
export async function startApp(flags: Flags): Promise<number> {
  const { runCommand } = await import('../cli/commands.js');
  return runCommand(['recent'], flags);
}
