/**
 * The `session_search` tool as an MCP client sees it: name, description,
 * parameters (one zod schema: it validates every call and is turned into the
 * JSON Schema the client lists) and the one-line message a bad call gets.
 * The parameter names and calling shapes are the Hermes agent's own tool's, so
 * an anchor copied from lookback works the same in every agent.
 */
import { z } from 'zod';
import { MAX_EXCLUDED, MAX_QUERY_CHARS } from '../budgets.js';

export const TOOL_NAME = 'session_search';

export const DESCRIPTION = `Recall past AI-agent sessions (the Hermes agent's local session store, read-only) or scroll inside one. Full-text search over every message; no LLM calls, every answer is the stored messages themselves, as JSON.

CALLING SHAPES (chosen by which arguments you pass)

  1) DISCOVER: pass \`query\`.
     session_search(query="billing migration", limit=3)
     Finds the conversations whose messages match, one result per conversation, best first. Each result has session_id, title, when, source, snippet (the match, marked >>> <<<), match_message_id, the messages around the match (the match flagged "anchor": true), the first and last messages of the conversation (bookend_start, bookend_end) and messages_before / messages_after. When fewer than \`limit\` conversations hold every word, the rest are the closest ones holding only some of the words: listed after the exact ones, each marked "match": "relaxed", with relaxed_count and a message saying so.

  2) SCROLL: pass \`session_id\` + \`around_message_id\`.
     session_search(session_id="20260301_120000_ab12cd", around_message_id=4211, window=5)
     The raw messages around one message, \`window\` on each side (1..20, default 5). To page forward pass the last message's id as around_message_id, to page backward the first; the boundary message appears in both pages. messages_before / messages_after below \`window\` mean the start / end of the session.

  3) READ: pass \`session_id\` only.
     session_search(session_id="20260301_120000_ab12cd")
     The whole session (the first 20 and last 10 messages when it is long; scroll for the middle).

  4) BROWSE: pass nothing.
     session_search()
     The most recent conversations: title, preview, when they started and were last active. For "what was I working on?".

ANCHORS PASTED BY THE USER

  The user may paste an anchor copied from lookback or from the agent. Call this tool with it:
  - a scroll call, e.g. session_search(session_id="20260301_120000_ab12cd", around_message_id=4211, window=5): make exactly that call;
  - a link, e.g. @session:work/20260301_120000_ab12cd: pass the whole link as session_id (it names the profile too), or split it into profile="work" and session_id="20260301_120000_ab12cd";
  - a title link, e.g. @session:"Billing migration" (or @session:work/"Billing migration"): pass it whole as session_id; it opens the newest conversation with exactly that title (title_matches lists the others);
  - a list of {"session_id", "around_message_id"} pairs: make one scroll call per pair.

  around_message_id=0 means no anchor in a Hermes session: the call reads the session. An anchor that is not a message of the session (stale, mistyped, from another session) is answered with a bounded read of the session and a scroll_recovery block saying what happened; scroll again with an id from that read.

OTHER AGENTS

  Without agent, every history on this machine answers: the Hermes store and every other agent whose history is here (Claude Code, Codex, Gemini CLI, opencode, PraisonAI, Qwen Code, Kimi CLI, GitHub Copilot CLI, Aider, Crush, Goose, Cursor, Cline, Roo Code, Kilo Code); each result names its agent once others are present. Pass agent="hermes", "claude", "codex", "gemini", "opencode", "praisonai", "qwen", "kimi", "copilot", "aider", "crush", "goose", "cursor", "cline", "roo" or "kilo" to read one history only. Other agents' message ids may be strings: pass them back as around_message_id unchanged.

SEARCH BY MEANING (opt-in)

  mode="semantic" finds conversations by meaning with the embedding model the server was started with (lookback mcp --embedder SPEC, or LOOKBACK_EMBEDDER); mode="hybrid" lists the conversations with every word first, then fuses the closest by words and by meaning. Each result says why it matched: "match" ("semantic", "lex+sem", "relaxed"; absent for every word) and score_parts (lexical_rank, semantic_rank, cosine, quality, fused; in hybrid also semantic_weight, how much meaning counted for this query, and semantic_reserve: true on a hit placed in the last two places kept for the closest by meaning). Both search one Hermes store and take no filters yet; without a model they are refused with a line saying how to configure one. Default: mode="lexical".

QUERY SYNTAX

  Words are ANDed. Use OR for either (\`alpha OR beta\`), quotes for a phrase (\`"connection pool"\`), NOT to exclude (\`python NOT java\`), a trailing * for a prefix (\`deploy*\`). Chinese, Japanese and Korean text is matched as substrings.

Errors come back as {"success": false, "error": "…"} with one line saying what to change.`;

const str = (description: string) => z.string().describe(description);
const int = (description: string) => z.number().int().describe(description);

export const sessionSearchArgs = z
  .object({
    query: str(
      'Discover shape: what to search for (words, "phrases", OR, NOT, prefix*). Omit to browse recent conversations. Ignored when session_id is given.',
    )
      .max(MAX_QUERY_CHARS)
      .optional(),
    session_id: str(
      'Scroll and read shapes: the session to read in, from a discover or browse result, or a pasted anchor (an @session:<profile>/<id> link, an @session:"<title>" link, or a whole session_search(...) scroll call).',
    ).optional(),
    around_message_id: z
      .union([z.number().int(), z.string().min(1)])
      .describe(
        "Scroll shape: the message to centre the window on (a match_message_id, or any id from an earlier window). Needs session_id. A whole number for Hermes sessions; other agents' ids may be strings. 0 means no anchor in a Hermes session (read the session).",
      )
      .optional(),
    window: int(
      'Scroll shape: messages on each side of around_message_id, clamped to 1..20. Default 5.',
    ).optional(),
    limit: int(
      'Discover and browse shapes: how many conversations, clamped to 1..10. Default 3; use 5-10 when a topic spans several sessions.',
    ).optional(),
    sort: z
      .enum(['relevance', 'newest', 'oldest'])
      .describe(
        'Discover shape: relevance (default) ranks by match; newest for "where did we leave X", oldest for "how did X start".',
      )
      .optional(),
    detail: z
      .enum(['adaptive', 'full', 'compact'])
      .describe(
        'Discover shape: adaptive (default) gives the first result its full context and the others only the matching message; full gives every result its context; compact gives none.',
      )
      .optional(),
    role_filter: str(
      'Discover shape: comma-separated roles to search. Default "user,assistant"; add tool ("user,assistant,tool") to search tool output too.',
    ).optional(),
    after: str(
      'Discover and browse shapes: only conversations started at or after this time: a date (2026-03-01, 2026-03-01T14:30), a span back (7d, 24h, 2w), today or yesterday.',
    ).optional(),
    before: str(
      'Discover and browse shapes: only conversations started before this time (same forms as after).',
    ).optional(),
    exclude_session_ids: z
      .array(z.string())
      .max(MAX_EXCLUDED)
      .describe(
        'Discover and browse shapes: sessions to leave out (with their whole conversation), e.g. the current one. At most 20.',
      )
      .optional(),
    profile: str(
      'Any shape, Hermes only: the profile whose store to read (the <profile> of an @session:<profile>/<id> link). Omit for the store lookback was started on.',
    ).optional(),
    host: str(
      "Any shape: another machine, synced with `lookback sync --host NAME` (an ssh destination): read its mirrored histories (Hermes and the other agents) instead of this machine's. An @session:<profile>@<host>/<id> link names its host itself.",
    ).optional(),
    agent: str(
      "Any shape: whose history: hermes, claude (Claude Code), codex, gemini, opencode, praisonai, qwen (Qwen Code), kimi (Kimi CLI), copilot (GitHub Copilot CLI), aider, crush, goose, cursor (Cursor's IDE chats), cline, roo (Roo Code), kilo (Kilo Code) or all; omitted, every history on this machine. Other agents' sessions are found with the same shapes; their message ids may be strings.",
    ).optional(),
    // Appended: the arguments before it keep their order (a client's tool hash, a model's cache).
    mode: z
      .enum(['lexical', 'semantic', 'hybrid'])
      .describe(
        'Discover shape: lexical (default) matches words; semantic and hybrid search by meaning when the server has an embedding model (see SEARCH BY MEANING).',
      )
      .optional(),
  })
  .strict();

export type SessionSearchArgs = z.infer<typeof sessionSearchArgs>;

/** The JSON Schema a client lists: the zod schema's, without the noise clients trip on. */
export function jsonSchemaOf(args: z.ZodType): { type: 'object'; [key: string]: unknown } {
  const schema = z.toJSONSchema(args, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  // `.int()` adds the safe-integer range as bounds; they say nothing to a model.
  for (const p of Object.values(props)) {
    if (p.maximum === Number.MAX_SAFE_INTEGER) delete p.maximum;
    if (p.minimum === Number.MIN_SAFE_INTEGER) delete p.minimum;
  }
  return { ...schema, type: 'object' };
}

export function inputJsonSchema(): { type: 'object'; [key: string]: unknown } {
  return jsonSchemaOf(sessionSearchArgs);
}

export type Parsed<A = SessionSearchArgs> = { ok: true; args: A } | { ok: false; error: string };

/**
 * Validates a call's arguments. A null argument counts as left out (models
 * write `limit: null` for "no preference"); any other mistake is one line
 * naming every bad argument.
 */
export function parseWith<A>(args: z.ZodType<A>, raw: unknown): Parsed<A> {
  const given =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null))
      : raw === undefined || raw === null
        ? {}
        : raw;
  const result = args.safeParse(given);
  if (result.success) return { ok: true, args: result.data };
  const problems = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return `unknown argument${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${where}: ${issue.message}`;
  });
  return { ok: false, error: `bad arguments: ${problems.join('; ')}`.replace(/\s+/g, ' ') };
}

export function parseToolArgs(raw: unknown): Parsed {
  return parseWith(sessionSearchArgs, raw);
}
