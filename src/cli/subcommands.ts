/**
 * The JSON and text subcommands (`mcp` is apart: it serves, it does not print),
 * each with how it prints: `answer`, answered from the recall core and printed
 * whole by writeOut (src/cli/out.ts), never through process.stdout; `print`,
 * the others. One table, so a new subcommand is named once.
 */
const KINDS = {
  recent: 'answer',
  search: 'answer',
  scroll: 'answer',
  read: 'answer',
  list: 'answer',
  overview: 'answer',
  messages: 'answer',
  profiles: 'print',
  index: 'print',
  sources: 'print',
  sync: 'print',
  hosts: 'print',
  stats: 'print',
} as const;

export type Subcommand = keyof typeof KINDS;

export const SUBCOMMANDS = Object.keys(KINDS) as readonly Subcommand[];

/** The subcommands answered from the recall core (see above). */
export const ANSWERS: readonly Subcommand[] = SUBCOMMANDS.filter((c) => KINDS[c] === 'answer');

/** Which kind of run argv asks for, naming its code cache (src/bin.ts): a subcommand, `mcp`, or `app`. */
export function runKind(argv: readonly string[]): string {
  for (const a of argv) {
    if (a === '--') break;
    if (a === 'mcp' || (SUBCOMMANDS as readonly string[]).includes(a)) return a;
  }
  return 'app';
}
