/**
 * Each subcommand's own help (`lookback search --help`): its usage, what it
 * prints and the options it takes, in the words of the global help (src/cli.ts).
 */
import type { Subcommand } from './subcommands.js';

const STORE = `    --db PATH        read this state.db
    --profile NAME   read the named Hermes profile's store
    --demo           a generated demo store`;

const FILTERS = `    --after WHEN     on or after (2026-08-01, 7d, 24h, 2w, today, yesterday)
    --before WHEN    before (the conversation's start)
    --source LIST    cli,tui,…   --cwd PREFIX   --model TEXT
    --here           run in this folder or below it (--cwd "$PWD/")`;

const AGENT = `    --agent NAME     hermes (the default), claude, codex, gemini, opencode,
                     praisonai, or all`;

/**
 * Each command's usage, the one source of both helps: its argument lines (after
 * `lookback NAME`) and what it does (the global help's right column). The
 * global help (src/cli.ts) lists them all; each subcommand's help opens with its own.
 */
const USAGE: Record<Subcommand | 'mcp', { args: readonly string[]; does: string }> = {
  recent: {
    args: ['[--limit N] [--all] [--all-profiles] [FILTERS] [--json]'],
    does: 'recent conversations',
  },
  search: {
    args: [
      'QUERY [--limit N] [--sort relevance|newest|oldest]',
      '[--roles user,assistant,tool,system] [--all]',
      '[--detail adaptive|full|compact] [--exclude ID,…]',
      '[--all-profiles] [FILTERS] [--json]',
      '[--mode lexical|semantic|hybrid] [--embedder SPEC]',
    ],
    does: 'full-text search, or by meaning (opt-in)',
  },
  scroll: {
    args: ['SESSION_ID MESSAGE_ID [--window N] [--agent NAME] [--host NAME] [--json]'],
    does: 'messages around one',
  },
  read: {
    args: ['SESSION_ID [--agent NAME] [--host NAME] [--json]'],
    does: 'a whole session',
  },
  list: {
    args: [
      '[--limit N] [--cursor C] [--all] [--all-profiles] [--agent NAME]',
      '[--host NAME] [FILTERS] [--json]',
    ],
    does: 'conversations, a page at a time',
  },
  overview: {
    args: ['SESSION_ID [--agent NAME] [--host NAME] [--json]'],
    does: "one conversation's facts",
  },
  messages: {
    args: [
      'SESSION_ID [--from ID] [--to ID] [--from-index N]',
      '[--to-index N] [--roles LIST] [--limit N]',
      '[--max-chars N] [--cursor C] [--agent NAME] [--json]',
    ],
    does: 'its messages by range, paged',
  },
  profiles: {
    args: ['[--json]'],
    does: 'profiles with a store',
  },
  index: {
    args: ['[--agent NAME] [--source-dir AGENT=PATH] [--json]'],
    does: "index other agents' histories",
  },
  sources: {
    args: ['[--json]'],
    does: 'what was found, indexed, unreadable',
  },
  sync: {
    args: ['--host NAME|all [--json]'],
    does: "read another machine's histories over ssh",
  },
  hosts: {
    args: ['[--json]'],
    does: 'the machines synced, what each holds',
  },
  stats: {
    args: [
      '[--agent NAME] [--profile NAME] [--host NAME|all]',
      '[--since WHEN] [--before WHEN] [--cwd PREFIX]',
      '[--limit N] [--db PATH | --demo] [--json]',
    ],
    does: 'activity, tokens and cost by day, agent, model',
  },
  mcp: {
    args: ['[--db PATH | --profile NAME | --demo] [--embedder SPEC]', '[--http [ADDR]]'],
    does: 'recall tools for any agent (MCP on stdio or HTTP)',
  },
};

/** Where the global help's right column starts; a usage too long for it has its line below, at OVERFLOW. */
const COLUMN = 72;
const OVERFLOW = 34;
const WIDTH = 115;

function usageLines(name: Subcommand | 'mcp'): string[] {
  const head = `    $ lookback ${name} `;
  const pad = ' '.repeat(head.length);
  return USAGE[name].args.map((a, i) => (i === 0 ? head : pad) + a);
}

/** A command's usage after `lookback NAME`, on one line (the README's "Command line" is checked against it). */
export function usageArgs(name: Subcommand | 'mcp'): string {
  return USAGE[name].args.join(' ');
}

/** A subcommand's help opens with this. */
function usage(name: Subcommand | 'mcp'): string {
  return `  Usage\n${usageLines(name).join('\n')}`;
}

/** The global help's usage lines of `names`, each with what it does in the right column. */
export function usageBlock(names: readonly (Subcommand | 'mcp')[]): string {
  return names
    .flatMap((n) => {
      const lines = usageLines(n);
      const last = lines.length - 1;
      const fits = lines[last]!.length < COLUMN && COLUMN + USAGE[n].does.length <= WIDTH;
      if (fits) lines[last] = lines[last]!.padEnd(COLUMN) + USAGE[n].does;
      else lines.push(' '.repeat(OVERFLOW) + USAGE[n].does);
      return lines;
    })
    .join('\n');
}

const TEXTS: Record<Subcommand | 'mcp', string> = {
  recent: `
${usage('recent')}

  The most recently active conversations, newest first.

  Options
    --limit N        how many (default 20)
    --all            also subagent, archived and other hidden conversations
    --all-profiles   every Hermes profile's store, merged
${AGENT}
${FILTERS}
${STORE}
    --json           the agent's session_search JSON shape
`,
  search: `
${usage('search')}

  Full-text search: words, "a phrase", prefix*, OR, NOT. One result a
  conversation, with its best hit.

  Options
    --limit N        how many results
    --sort ORDER     relevance (the default), newest, oldest
    --roles LIST     whose messages to search (default user,assistant)
    --all            also hidden conversations
    --detail LEVEL   adaptive, full or compact snippets
    --exclude IDS    leave these sessions out
    --all-profiles   every Hermes profile's store, merged
    --mode MODE      lexical (the default), semantic or hybrid (one Hermes
                     store; embeds what is new first, progress on stderr)
    --embedder SPEC  model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or
                     openai:MODEL@BASE_URL (or LOOKBACK_EMBEDDER)
${AGENT}
${FILTERS}
${STORE}
    --json           the agent's session_search JSON shape
    --               ends the options (queries may start with "-")
`,
  scroll: `
${usage('scroll')}

  The messages around one message of a conversation. SESSION_ID may be a link
  (@session:PROFILE/ID); anchors of other agents are their own ids.

  Options
    --window N       messages on each side
${AGENT}
    --host NAME      a machine synced with lookback sync --host NAME (its mirror)
${STORE}
    --json           JSON instead of text
`,
  read: `
${usage('read')}

  A whole conversation, its compression chain followed. SESSION_ID may be a
  link (@session:PROFILE/ID) or a unique prefix of an id.

  Options
${AGENT}
    --host NAME      a machine synced with lookback sync --host NAME (its mirror)
${STORE}
    --json           JSON instead of text
`,
  list: `
${usage('list')}

  Conversations, most recently active first, a page at a time (the MCP tool
  list_sessions gives the same answer). Without --agent, every history found
  here; --agent, --profile and --host narrow it. When more match, the answer
  ends with next_cursor: pass it as --cursor (with the same filters) for the
  next page.

  Options
    --limit N        conversations per page, 1..100 (default 20)
    --cursor C       the next_cursor of the previous page
    --all            also subagent, archived and other hidden conversations
    --all-profiles   every Hermes profile's store, merged
${AGENT}
${FILTERS}
${STORE}
    --json           JSON instead of text
`,
  overview: `
${usage('overview')}

  One conversation's facts without its messages (the MCP tool
  session_overview): title, folder, model, when it started, ended and was last
  active, messages per role, the first prompt, its parent and children, the
  command that resumes it in its own agent, and the session_search call that
  reads it. SESSION_ID may be a link (@session:PROFILE/ID), a unique prefix,
  or another agent's resume command.

  Options
    --all            count what was taken back (rewound, abandoned) too
${AGENT}
${STORE}
    --json           JSON instead of text
`,
  messages: `
${usage('messages')}

  A conversation's messages in order, whole, by range and a page at a time
  (the MCP tool session_messages). Positions count from 0; bounds are
  inclusive. A page holds at most --limit messages and --max-chars characters
  of text; a longer message is cut and continued on the next page. When the
  range goes on, the answer has next_cursor: pass it as --cursor (with the
  same arguments).

  Options
    --from ID, --to ID          bounds by message id (another agent's anchor)
    --from-index N, --to-index N  bounds by position
    --roles LIST     only these roles (user,assistant,tool,system)
    --limit N        messages per page, 1..500 (default 50)
    --max-chars N    characters of text per page, 200..500000 (default 20000)
    --cursor C       the next_cursor of the previous page
    --all            include what was taken back (rewound, abandoned)
${AGENT}
${STORE}
    --json           JSON instead of text
`,
  profiles: `
${usage('profiles')}

  The Hermes profiles that have a store, and which one is active.

  Options
    --json           JSON instead of text
`,
  index: `
${usage('index')}

  Reads other agents' histories (Claude Code, Codex, Gemini CLI, opencode,
  PraisonAI) into lookback's own index in ~/.cache/lookback (LOOKBACK_INDEX).
  Their files are only read.

  Options
    --agent NAME     one agent (default: all)
    --source-dir AGENT=PATH   read AGENT's files from PATH (repeatable)
    --json           JSON instead of text
`,
  sources: `
${usage('sources')}

  What was found of each agent's history: indexed, unreadable, missing.

  Options
    --source-dir AGENT=PATH   read AGENT's files from PATH (repeatable)
    --json           JSON instead of text
`,
  sync: `
${usage('sync')}

  Reads another machine's histories over your own ssh into lookback's mirror:
  its Hermes stores (every profile) and the other agents' files. NAME is an ssh
  destination (an alias from ~/.ssh/config works). A second sync moves only what
  changed. Nothing is written on the remote machine.

  Options
    --host NAME|all  the machine to read, or every machine synced before
    --json           JSON instead of text
`,
  hosts: `
${usage('hosts')}

  The machines synced with lookback sync --host: when each was last read, the
  last error, and what each holds (conversations and messages per agent and
  profile).

  Options
    --json           JSON instead of text
`,
  stats: `
${usage('stats')}

  What your agents did and what it cost: conversations, messages, tool calls
  and active time by day, week (Monday first) and month, per agent, Hermes
  profile and host; tokens (input, output, cache read and write, reasoning)
  and cost by model where the sources record them; the busiest folders. On a
  terminal: a calendar heat map, a sparkline per agent, bars per model.

  Reads every Hermes profile and every agent whose history is here. Tokens:
  Hermes session counters, Claude Code usage (one per message id and request
  across files), Codex token_count totals (differences, re-emits skipped),
  Gemini CLI message tokens (.json/.jsonl twins once). A source that records
  no tokens says so in one line. Cost: recorded by the agent, else its
  estimate, else priced from lookback's dated table (LOOKBACK_PRICES=FILE
  adds or replaces prices); a model without a price shows "no price", never
  $0. Active time: five-minute slots with a message.

  Options
    --agent NAME     hermes, claude, codex, gemini, opencode, praisonai, …, or all
    --profile NAME   one Hermes profile (default: every profile)
    --host NAME|all  a machine synced with lookback sync, or this one and all
    --since WHEN     on or after (2026-08-01, 7d, 2w, today); --after is the same
    --before WHEN    before
    --cwd PREFIX     conversations run in this folder or below it
    --limit N        busiest folders listed (default 10)
    --db PATH        one Hermes store file instead of the profiles (--demo: the demo)
    --json           {success, filters, time_zone, week_starts, totals, days[],
                     weeks[], months[], agents[], profiles[], hosts[], models[],
                     folders[], token_notes[], pricing, refused[], notes[]}
`,
  mcp: `
${usage('mcp')}

  Serves recall tools to any agent over MCP on stdio (or Streamable HTTP
  with --http): session_search (the Hermes agent's own tool), list_sessions,
  session_overview and session_messages; each answers as lookback search/
  recent/scroll/read, list, overview and messages --json do.

  Options
${STORE}
    --http [ADDR]    Streamable HTTP at ADDR instead of stdio (default
                     127.0.0.1:7337; an address beyond loopback needs a token)
    --embedder SPEC  the model for session_search mode="semantic"|"hybrid"
                     (or LOOKBACK_EMBEDDER): model2vec:DIR, onnx:DIR,
                     ollama:MODEL[@URL] or openai:MODEL@BASE_URL
`,
};

/** The help of `name` (a subcommand or mcp), or null for the app's (the global help). */
export function subcommandHelp(name: string): string | null {
  return Object.hasOwn(TEXTS, name) ? TEXTS[name as Subcommand | 'mcp'] : null;
}
