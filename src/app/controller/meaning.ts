/**
 * `v`: the search by meaning (issue 22). Cycles lexical → hybrid → semantic
 * when an embedder is configured (--embedder or LOOKBACK_EMBEDDER), else says
 * how to configure one. A hybrid/semantic search runs off the render path:
 * asynchronously, after the same pause in typing as a full-text one, through
 * src/app/data/meaning.ts (src/semantic/answer.ts, as the CLI and MCP).
 */
import { SEARCH_LIMIT } from '../data/queries.js';
import { searchByMeaning } from '../data/meaning.js';
import type { Meaning, ResultItem } from '../model.js';
import type { Ctx } from './ctx.js';

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
  ctx.setStatus(
    next === 'lexical'
      ? 'search: lexical (words)'
      : `search: ${next} (${next === 'hybrid' ? 'words and meaning fused' : 'by meaning alone'}) over this Hermes store, with ${ctx.o.embedder}`,
  );
  searchChanged(ctx);
}

/**
 * What the vector leg cannot apply (filters, a sort, roles, other agents or
 * profiles): one line, as MCP and the command line refuse it; null when none.
 */
function refusal(
  ctx: Ctx,
  mode: Exclude<Meaning, 'lexical'>,
  line: { filtered: boolean; roles: string[] | null | undefined },
): string | null {
  const s = ctx.state;
  const asked = [
    ...(line.filtered ? ['filters'] : []),
    ...(s.search.sort !== 'relevance' ? ['a sort'] : []),
    ...(line.roles || s.search.tools ? ['roles (tool output)'] : []),
    ...(s.everyProfile ? ['the every-profile view'] : []),
  ];
  if (asked.length === 0) return null;
  return `${mode} search does not take ${asked.join(', ')} yet (the vector leg cannot apply ${asked.length === 1 ? 'it' : 'them'}); refused: press v for lexical`;
}

/** The line's free text by meaning: the answer, or a one-line refusal or error, for generation `gen`. */
export function requestMeaning(
  ctx: Ctx,
  gen: number,
  line: { text: string; filtered: boolean; roles: string[] | null | undefined },
): void {
  const mode = ctx.state.search.meaning;
  const spec = ctx.o.embedder;
  const load = ctx.o.semantic;
  if (mode === 'lexical' || !spec || !load) return;
  const forText = ctx.state.search.text;
  const done = (items: ResultItem[], message: string | null): void => {
    if (ctx.stopped || gen !== ctx.search.gen) return;
    ctx.dispatch({ type: 'resultsLoaded', generation: gen, forText, items, path: null, message });
    if (items.length > 0)
      ctx.dispatch({ type: 'resultsTotal', generation: gen, total: items.length, capped: false });
  };
  const refused = refusal(ctx, mode, line);
  if (refused !== null) {
    ctx.setStatus(refused, 'warn');
    return done([], refused);
  }
  searchByMeaning(ctx.data.store, line.text, mode, spec, SEARCH_LIMIT, load).then(
    (a) => {
      if (ctx.stopped || gen !== ctx.search.gen) return;
      ctx.batch(() => {
        const empty = a.items.length === 0 ? 'No conversation found by meaning.' : null;
        done(a.items, empty);
        if (a.note ?? empty) ctx.setStatus((a.note ?? empty)!, 'warn');
      });
    },
    (err: unknown) => {
      if (ctx.stopped || gen !== ctx.search.gen) return;
      const msg = (err as Error)?.message ?? String(err);
      ctx.batch(() => {
        ctx.setStatus(msg.split('\n')[0]!, 'error');
        done([], msg.split('\n')[0]!);
      });
    },
  );
}
