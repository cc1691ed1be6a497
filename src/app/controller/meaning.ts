/**
 * `v`: the search by meaning (issue 22). Cycles lexical → hybrid → semantic
 * when an embedder is configured (--embedder or LOOKBACK_EMBEDDER), else says
 * how to configure one. A hybrid/semantic search runs in the query worker, as
 * a full-text one does, after the same pause in typing, through
 * src/app/data/meaning.ts (src/semantic/answer.ts, as the CLI and MCP); the
 * embedding of new messages runs in its own worker (src/app/worker/embedEntry.ts).
 */
import { SEARCH_LIMIT } from '../data/queries.js';
import type { QueryResponse } from '../data/queries.js';
import { formatCount } from '../../text/format.js';
import type { Meaning, ResultItem } from '../model.js';
import type { Ctx } from './ctx.js';
import type { AppFilters } from '../data/filters.js';

const NEXT: Record<Meaning, Meaning> = {
  lexical: 'hybrid',
  hybrid: 'semantic',
  semantic: 'lexical',
};

export const NO_EMBEDDER =
  'search by meaning needs an embedding model: start lookback with --embedder SPEC or set LOOKBACK_EMBEDDER (model2vec:DIR, onnx:DIR, ollama:MODEL[@URL], openai:MODEL@BASE_URL)';

export function cycleMeaning(ctx: Ctx, searchChanged: (ctx: Ctx) => void): void {
  if (!ctx.o.embedder || !ctx.o.semantic) return ctx.setStatus(NO_EMBEDDER, 'warn');
  const next = NEXT[ctx.state.search.meaning];
  ctx.dispatch({ type: 'setMeaning', meaning: next });
  if (ctx.state.search.mode === 'fuzzy') ctx.dispatch({ type: 'setMode', mode: 'fulltext' });
  const e = ctx.state.embedding;
  const part =
    e && e.total > 0 && e.done < e.total
      ? `; ${formatCount(e.done)} of ${formatCount(e.total)} messages embedded so far, the rest in the background`
      : '';
  ctx.setStatus(
    next === 'lexical'
      ? 'search: lexical (words)'
      : `search: ${next} (${next === 'hybrid' ? 'words and meaning fused' : 'by meaning alone'}) over ${ctx.o.noHermes ? "the other agents' histories" : 'this Hermes store, or the other agents an agent: chip names'}, with ${ctx.o.embedder}${part}`,
  );
  searchChanged(ctx);
}

/**
 * The other agents a search by meaning reads instead of the Hermes store: the
 * ones the `agent:` chip names when it names no Hermes, every one shown when
 * there is no Hermes store ([]: the worker's list); null: the Hermes store.
 */
function agentsAsked(ctx: Ctx, line: { store: AppFilters }): string[] | null {
  const named = line.store.agents ?? [];
  if (named.length > 0 && !named.includes('hermes')) return [...named];
  if (ctx.o.noHermes) return [];
  return null;
}

/**
 * What the vector leg cannot apply (filters, a sort, roles, Hermes and other
 * agents at once, the every-profile view): one line, as MCP and the command
 * line refuse it; null when none.
 */
function refusal(
  ctx: Ctx,
  mode: Exclude<Meaning, 'lexical'>,
  line: { filtered: boolean; roles: string[] | null | undefined; store: AppFilters },
): string | null {
  const s = ctx.state;
  // The `agent:` chip alone is no filter here: it picks the source (agentsAsked).
  const { agents: named, ...rest } = line.store;
  const otherChips = Object.values(rest).some(
    (v) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0),
  );
  const asked = [
    ...(line.filtered && (otherChips || named === undefined) ? ['filters'] : []),
    ...(named?.includes('hermes') && named.length > 1 ? ['Hermes and other agents at once'] : []),
    ...(s.search.sort !== 'relevance' ? ['a sort'] : []),
    ...(line.roles || s.search.tools ? ['roles (tool output)'] : []),
    ...(s.everyProfile ? ['the every-profile view'] : []),
  ];
  if (asked.length === 0) return null;
  return `${mode} search does not take ${asked.join(', ')} yet (the vector leg cannot apply ${asked.length === 1 ? 'it' : 'them'}); refused: press v for lexical`;
}

/** The line's free text by meaning, asked of the query worker (as a lexical search is): its answer comes to meaningLoaded. */
export function requestMeaning(
  ctx: Ctx,
  gen: number,
  line: { text: string; filtered: boolean; roles: string[] | null | undefined; store: AppFilters },
): void {
  const mode = ctx.state.search.meaning;
  const spec = ctx.o.embedder;
  if (mode === 'lexical' || !spec || !ctx.o.semantic) return;
  const refused = refusal(ctx, mode, line);
  if (refused !== null) {
    ctx.setStatus(refused, 'warn');
    return loaded(ctx, gen, ctx.state.search.text, [], refused);
  }
  const e = ctx.state.embedding;
  const agents = agentsAsked(ctx, line);
  ctx.client.request({
    kind: 'meaning',
    generation: gen,
    query: line.text,
    forText: ctx.state.search.text,
    mode,
    embedder: spec,
    limit: SEARCH_LIMIT,
    // The background worker embeds: the search only reads the vectors there are.
    background: e !== null && e.failed === undefined,
    ...(agents !== null ? { agents } : {}),
  });
}

/** The query worker's answer by meaning, if still the one wanted. */
export function meaningLoaded(ctx: Ctx, r: Extract<QueryResponse, { kind: 'meaning' }>): void {
  if (r.generation !== ctx.search.gen) return;
  const empty = r.items.length === 0 ? 'No conversation found by meaning.' : null;
  loaded(ctx, r.generation, r.forText, r.items, empty);
  const note = r.note ?? empty;
  if (note !== null) ctx.setStatus(note, 'warn');
}

function loaded(
  ctx: Ctx,
  gen: number,
  forText: string,
  items: ResultItem[],
  message: string | null,
): void {
  ctx.dispatch({ type: 'resultsLoaded', generation: gen, forText, items, path: null, message });
  if (items.length > 0)
    ctx.dispatch({ type: 'resultsTotal', generation: gen, total: items.length, capped: false });
}
