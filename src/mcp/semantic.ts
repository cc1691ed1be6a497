/**
 * `session_search(query=…, mode="semantic"|"hybrid")`: the search by meaning,
 * answered by the same function as `lookback search --mode … --json`
 * (src/semantic/answer.ts), so one question gets one answer at both doors.
 * The model is the one the server was started with (--embedder or
 * LOOKBACK_EMBEDDER) and stays loaded between calls; without one the call is
 * refused in one line that says how to configure it, never answered
 * lexically in silence.
 */
import { MCP_LIMIT_DEFAULT, MCP_LIMIT_MAX } from '../budgets.js';
import type { Json } from '../store/recall.js';
import { semanticSearch } from '../semantic/answer.js';
import { semanticAgentsSearch } from '../semantic/agents.js';
import { StoreError } from '../store/errors.js';
import { AGENTS } from '../agents/model.js';
import { EMBEDDER_HELP } from '../semantic/spec.js';
import { agentOf, NATIVE_AGENT, ToolError, type Sources } from './call.js';
import type { SessionSearchArgs } from './tool.js';

export function searchByMeaning(
  args: SessionSearchArgs,
  from: Sources,
): Promise<Record<string, Json>> {
  const mode = args.mode as 'semantic' | 'hybrid';
  const spec = from.embedder?.trim();
  if (!spec)
    throw new ToolError(
      `mode "${mode}" needs an embedding model: start lookback mcp with --embedder SPEC (or LOOKBACK_EMBEDDER=SPEC), SPEC one of ${EMBEDDER_HELP}; mode "lexical" needs none`,
    );
  const query = args.query?.trim() ?? '';
  if (query === '' || args.session_id !== undefined || args.around_message_id !== undefined)
    throw new ToolError(`mode "${mode}" is for the discover shape: pass query (and no session_id)`);
  // The filters the vector leg cannot apply yet, in the tool's own words (the CLI refuses the same).
  const asked = [
    ...(args.after !== undefined ? ['after'] : []),
    ...(args.before !== undefined ? ['before'] : []),
    ...((args.exclude_session_ids?.length ?? 0) > 0 ? ['exclude_session_ids'] : []),
    ...(args.sort !== undefined && args.sort !== 'relevance' ? ['sort'] : []),
    ...(args.role_filter !== undefined ? ['role_filter'] : []),
    ...(args.detail !== undefined ? ['detail'] : []),
    ...(args.host !== undefined ? ['host'] : []),
  ];
  if (asked.length > 0)
    throw new ToolError(
      `mode "${mode}" does not take ${asked.join(', ')} yet (the vector leg cannot apply ${asked.length === 1 ? 'it' : 'them'}); refused`,
    );
  const agent = agentOf(args.agent);
  const profile = args.profile?.trim() || undefined;
  const opts = {
    mode,
    embedder: spec,
    limit: Math.max(1, Math.min(args.limit ?? MCP_LIMIT_DEFAULT, MCP_LIMIT_MAX)),
  };
  const oneSource = new ToolError(
    `mode "${mode}" searches one source: pass agent="hermes" (or profile=), or agent="AGENT" for another agent's history`,
  );
  // One source, as on the command line: another agent's history (lookback's index), or one Hermes store.
  if (agent !== undefined && agent !== NATIVE_AGENT && agent !== 'all') {
    if (profile) throw oneSource;
    const src = from.agents.source([agent]);
    return semanticAgentsSearch(src.indexDb(), src.agents, query, opts);
  }
  const others =
    agent === 'all'
      ? [...AGENTS]
      : agent === undefined && !profile && !from.narrowed
        ? from.agents.found()
        : [];
  let store;
  try {
    store = from.stores.get(profile);
  } catch (err) {
    // No Hermes store here: the other agents' histories are the one source, as on the command line.
    if (!(err instanceof StoreError) || others.length === 0) throw err;
    const src = from.agents.source(others);
    return semanticAgentsSearch(src.indexDb(), src.agents, query, opts);
  }
  if (others.length > 0) throw oneSource;
  return semanticSearch(store, query, opts);
}
