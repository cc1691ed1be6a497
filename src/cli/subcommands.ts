/** The JSON and text subcommands (`mcp` is apart: it serves, it does not print). */
export const SUBCOMMANDS = [
  'recent',
  'search',
  'scroll',
  'read',
  'list',
  'overview',
  'messages',
  'profiles',
  'index',
  'sources',
  'sync',
  'hosts',
  'stats',
] as const;

export type Subcommand = (typeof SUBCOMMANDS)[number];

/** Which kind of run argv asks for, naming its code cache (src/bin.ts): a subcommand, `mcp`, or `app`. */
export function runKind(argv: readonly string[]): string {
  for (const a of argv) {
    if (a === '--') break;
    if (a === 'mcp' || (SUBCOMMANDS as readonly string[]).includes(a)) return a;
  }
  return 'app';
}
