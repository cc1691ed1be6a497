/**
 * What the interactive app is started with. The command line's Flags satisfy it
 * (src/cli/commands.ts passes them); the app side never imports the command line.
 */
export interface StartOptions {
  db?: string | undefined;
  profile?: string | undefined;
  demo: boolean;
  /** Print the last copied text on stdout at exit. */
  print: boolean;
}
