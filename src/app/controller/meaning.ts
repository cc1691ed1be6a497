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
  if (ctx.o.noHermes)
    return `${mode} search reads a Hermes store and there is none here (the other agents' index has no vectors yet): press v for lexical`;
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
  // One search by meaning at a time (each may embed and write vectors.db): a newer one waits for it, older waiting ones are dropped.
  const run = (): Promise<void> =>
    // Superseded while it waited: nothing to ask.
    gen !== ctx.search.gen || ctx.stopped
      ? Promise.resolve()
      : searchByMeaning(ctx.data.store, line.text, mode, spec, SEARCH_LIMIT, load).then(
          (a) => {
            if (ctx.stopped || gen !== ctx.search.gen) return;
            ctx.batch(() => {
              const empty = a.items.length === 0 ? 'No conversation found by meaning.' : null;
              done(a.items, empty);
              const note = a.note ?? empty;
              if (note !== null) ctx.setStatus(note, 'warn');
            });
          },
          (err: unknown) => {
            if (ctx.stopped || gen !== ctx.search.gen) return;
            const msg = ((err as Error)?.message ?? String(err)).split('\n')[0]!;
            ctx.batch(() => {
              ctx.setStatus(msg, 'error');
              done([], msg);
            });
          },
        );
  const q = queues.get(ctx) ?? { running: false, next: null };
  queues.set(ctx, q);
  const drain = (): void => {
    const job = q.next;
    q.next = null;
    if (!job) {
      q.running = false;
      return;
    }
    q.running = true;
    void job().finally(drain);
  };
  q.next = run;
  if (!q.running) drain();
}

/** The search by meaning running for each app, and the newest one waiting for it. */
const queues = new WeakMap<Ctx, { running: boolean; next: (() => Promise<void>) | null }>();
