/**
 * The command line (src/bin.ts runs it). Parses arguments with meow, runs the
 * JSON/text subcommands over the store layer, and loads the interactive app
 * lazily, so `lookback search … --json` never pays for React or Ink.
 */
import meow from 'meow';
import { inertJson, runCommand, UsageError } from './cli/commands.js';
import { subcommandHelp, usageBlock } from './cli/helpTexts.js';
import { SUBCOMMANDS } from './cli/subcommands.js';
import pkg from '../package.json' with { type: 'json' };
import { startMark } from './cli/startMarks.js';

const HELP = `
  Usage
    $ lookback [--db PATH | --profile NAME | --demo] [--here] [--print[=id|link|anchor]]
                                                                        the app
${usageBlock([...SUBCOMMANDS, 'mcp'])}

  SESSION_ID may be a link (@session:PROFILE/ID, read from that profile's
  store); read also takes a unique prefix of an id.

  Options
    --db PATH        read this state.db
    --profile NAME   read the named Hermes profile's store (default: the
                     profile in $HERMES_HOME, else ~/.hermes/active_profile)
    --all-profiles   recent/search: every profile's store, merged
    --mode MODE      search: lexical (default), semantic or hybrid, with
                     --embedder model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or
                     openai:MODEL@BASE_URL (or LOOKBACK_EMBEDDER); see README
    --agent NAME     recent/search/scroll/read over hermes (the default), claude,
                     codex, gemini, opencode, praisonai, qwen, kimi, copilot,
                     aider, crush, goose, cursor, cline, roo, kilo, or all;
                     anchors of other agents are their own ids:
                     lookback scroll --agent codex SID ANCHOR
    --source-dir AGENT=PATH   read AGENT's files from PATH (repeatable)
    --http [ADDR]    mcp: Streamable HTTP at ADDR instead of stdio (default
                     127.0.0.1:7337; an address beyond loopback needs a token)
    --host NAME|all  recent/search/scroll/read over a machine synced with
                     lookback sync --host NAME (an ssh destination, e.g. an alias
                     from ~/.ssh/config), or over every synced machine
    --demo           open (creating it if needed) a generated demo store
    --json           print the agent's session_search JSON shapes
    --print[=WHAT]   (app) at exit print on stdout the last copied anchor (anchor,
                     the default), or the conversation's session id (id) or link
                     (link); the app then draws on stderr, so $(lookback --print=id)
                     works. R in the app resumes a conversation (LOOKBACK_RESUME)
    FILTERS          --after WHEN --before WHEN (2026-08-01, 7d, 24h, 2w, today,
                     yesterday; after inclusive, before exclusive, on the
                     conversation's start), --source cli,tui  --cwd PREFIX  --model TEXT,
                     --here (run in this folder or below it; the app starts in
                     its this-folder view, \`.\` in the app; LOOKBACK_HERE=1)
    -h, --help       this help
    --               ends the options (queries may start with "-")

  The store is opened read-only and never changed. Other agents' files are only
  read; lookback keeps its own index of them in ~/.cache/lookback (LOOKBACK_INDEX).
`;

const FLAGS = {
  db: { type: 'string' },
  profile: { type: 'string' },
  demo: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  // A string so that --print=id works; a bare --print is "" (the anchor).
  print: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean', default: false },
  allProfiles: { type: 'boolean', default: false },
  sort: { type: 'string' },
  roles: { type: 'string' },
  window: { type: 'string' },
  cursor: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  fromIndex: { type: 'string' },
  toIndex: { type: 'string' },
  maxChars: { type: 'string' },
  agent: { type: 'string' },
  sourceDir: { type: 'string', isMultiple: true },
  after: { type: 'string' },
  since: { type: 'string' },
  before: { type: 'string' },
  exclude: { type: 'string' },
  detail: { type: 'string' },
  source: { type: 'string' },
  cwd: { type: 'string' },
  here: { type: 'boolean' },
  model: { type: 'string' },
  host: { type: 'string' },
  mode: { type: 'string' },
  embedder: { type: 'string' },
  // A boolean: `--http` alone serves on loopback; an address after it is mcp's argument.
  http: { type: 'boolean', default: false },
  help: { type: 'boolean', shortFlag: 'h', default: false },
} as const;

const cli = meow(HELP, {
  // Only its url: CommonJS has no import.meta (scripts/build.mjs defines the url).
  importMeta: { url: import.meta.url } as ImportMeta,
  // Handing meow the manifest spares it a walk up the file system for package.json.
  pkg: { name: pkg.name, version: pkg.version, description: pkg.description },
  // Unknown flags and missing values are reported here, in lookback's words.
  allowUnknownFlags: true,
  autoHelp: false,
  flags: FLAGS,
});

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The usage mistakes meow lets through: unknown flags, string flags given no value. */
function checkFlags(flags: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(flags)) {
    const spec = (FLAGS as Record<string, { type: string }>)[name];
    const shown = name.length === 1 ? `-${name}` : `--${kebab(name)}`;
    if (!spec) throw new UsageError(`unknown option ${shown}`);
    // --print alone is allowed: it means --print=anchor.
    if (spec.type === 'string' && (value === '' || value === true) && name !== 'print')
      throw new UsageError(`${shown} needs a value`);
  }
}

/**
 * Runs the command line (src/bin.ts calls it); never throws: one line and an
 * exit code instead. True when a command ran and succeeded. No top-level await:
 * dist/cli.cjs is CommonJS.
 */
export async function main(): Promise<boolean> {
  startMark('cli: main');
  const json = cli.flags.json;
  try {
    if (cli.flags.help) {
      // `lookback search --help`: that subcommand's own help; the global one otherwise.
      const own = subcommandHelp(String(cli.input[0] ?? ''));
      if (own === null) cli.showHelp(0);
      process.stdout.write(`${own}\n`);
      return true;
    }
    checkFlags(cli.flags);
    process.exitCode = await runCommand(cli.input.map(String), cli.flags);
    return process.exitCode === 0;
  } catch (err) {
    if (err instanceof UsageError) {
      // With --json a program reads stdout: the error is JSON there too.
      if (json)
        process.stdout.write(inertJson({ success: false, error: err.message, usage: true }) + '\n');
      process.stderr.write(`lookback: ${err.message}\nRun "lookback --help" for usage.\n`);
      process.exitCode = 2;
    } else {
      // Never a stack trace: one line that names the problem.
      const message = (err as Error)?.message ?? String(err);
      if (json) process.stdout.write(inertJson({ success: false, error: message }) + '\n');
      else process.stderr.write(`lookback: ${message}\n`);
      process.exitCode = 1;
    }
    return false;
  }
}
