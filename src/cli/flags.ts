/** The command line's flags as meow parses them (src/cli.ts), read by the subcommands and the MCP server. */
export interface Flags {
  db?: string | undefined;
  profile?: string | undefined;
  demo: boolean;
  json: boolean;
  /** undefined: not given; "" (bare --print), "anchor", "id" or "link". */
  print?: string | undefined;
  limit?: string | undefined;
  all: boolean;
  allProfiles?: boolean | undefined;
  agent?: string | undefined;
  sourceDir?: string[] | undefined;
  after?: string | undefined;
  /** `stats --since WHEN`: the same as --after. */
  since?: string | undefined;
  before?: string | undefined;
  exclude?: string | undefined;
  detail?: string | undefined;
  source?: string | undefined;
  cwd?: string | undefined;
  /** recent/search/list and the app: conversations run in the current folder or below it. */
  here?: boolean | undefined;
  model?: string | undefined;
  sort?: string | undefined;
  roles?: string | undefined;
  window?: string | undefined;
  /** search `--mode lexical|semantic|hybrid` and its `--embedder SPEC` (src/semantic). */
  mode?: string | undefined;
  embedder?: string | undefined;
  /** list, messages: the next_cursor of the previous page. */
  cursor?: string | undefined;
  /** messages: the range's bounds, as message ids or positions, and the page's text budget. */
  from?: string | undefined;
  to?: string | undefined;
  fromIndex?: string | undefined;
  toIndex?: string | undefined;
  maxChars?: string | undefined;
  /** `--host NAME|all`: a machine synced with `lookback sync --host NAME` (src/hosts). */
  host?: string | undefined;
  /** `mcp --http [ADDR]`: serve Streamable HTTP instead of stdio. */
  http?: boolean | undefined;
}
