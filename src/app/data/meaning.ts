/**
 * Search by meaning in the app (`v`, issue 22): the answer of
 * src/semantic/answer.ts `semanticSearch`, the one the command line's
 * `search --mode hybrid|semantic --json` and MCP's `session_search(mode=…)`
 * give, as result rows; each row says why it matched (its lexical rank, its
 * semantic rank, the cosine similarity and its quality word), read from the
 * answer's score_parts and nothing else.
 */
import Database from 'better-sqlite3';
import { IndexReader } from '../../agents/appReads.js';
import { isAgent, type Agent } from '../../agents/model.js';
import type { semanticAgentsSearch } from '../../semantic/agents.js';
import type { semanticSearch } from '../../semantic/answer.js';
import { hitItem } from './agentSource.js';
import type { Store } from '../../store/store.js';
import { rootResolver } from '../../store/lineage.js';
import type { Json } from '../../store/recall.js';
import { AGENT_MARKERS } from '../../store/search/snippets.js';
import { parseSnippetMarkers, splitHighlights, termsFromQuery } from '../../text/highlight.js';
import { sanitizeLine } from '../../text/sanitize.js';
import type { Meaning, ResultItem } from '../model.js';
import { clean } from './rows.js';
import type { QueryRequest, QueryResponse } from './queries.js';
import { formatCount } from '../../text/format.js';

/**
 * Loads src/semantic/answer.ts when first asked: handed in by the command line
 * (src/cli/lazy.ts), since the app's CommonJS bundle may hold no import() and
 * the model code stays out of the app's start.
 */
export type LoadSemantic = () => Promise<{
  semanticSearch: typeof semanticSearch;
  semanticAgentsSearch: typeof semanticAgentsSearch;
}>;

export interface MeaningAnswer {
  items: ResultItem[];
  /** Said on the status line: a fallback, a part-embedded store, an empty answer. */
  note: string | null;
}

type Entry = Record<string, Json>;

/** `lexical #2 · semantic #1 · similarity 0.93 (strong)`: the score parts as the answer has them. */
export function whyMatched(parts: Entry | undefined): string {
  if (!parts) return '';
  const out: string[] = [];
  if (typeof parts.lexical_rank === 'number') out.push(`lexical #${parts.lexical_rank}`);
  if (typeof parts.semantic_rank === 'number') out.push(`semantic #${parts.semantic_rank}`);
  if (typeof parts.cosine === 'number')
    out.push(
      `similarity ${parts.cosine.toFixed(2)}${typeof parts.quality === 'string' ? ` (${parts.quality})` : ''}`,
    );
  return out.join(' · ');
}

/** The answer's rows as the results pane's. */
export function meaningItems(store: Store, query: string, answer: Entry): ResultItem[] {
  const terms = termsFromQuery(query);
  const results = (answer.results ?? []) as Entry[];
  const rootOf = store.read(() => rootResolver(store));
  return results.map((r): ResultItem => {
    const sid = String(r.session_id);
    const id = Number(r.match_message_id);
    const at = typeof r.when === 'string' ? Date.parse(r.when) / 1000 : 0;
    const raw = typeof r.snippet === 'string' ? r.snippet : '';
    const marked = parseSnippetMarkers(raw, AGENT_MARKERS[0], AGENT_MARKERS[1], sanitizeLine);
    const why = whyMatched(r.score_parts as Entry | undefined);
    return {
      key: `${sid}#${id}`,
      kind: 'hit',
      sessionId: sid,
      rootId: store.read(() => rootOf(sid)),
      title: clean(typeof r.title === 'string' ? r.title : '') || '(untitled)',
      source: clean(typeof r.source === 'string' ? r.source : '') || 'unknown',
      startedAt: Number.isFinite(at) ? at : 0,
      when: Number.isFinite(at) ? at : 0,
      messageId: id,
      matchedRole: clean(typeof r.matched_role === 'string' ? r.matched_role : ''),
      snippet: marked.some((s) => s.hit)
        ? marked
        : splitHighlights(marked.map((s) => s.text).join(''), terms),
      live: false,
      // Not every word (relaxed BM25 or by meaning alone): marked ≈ as the lexical relaxed rows are.
      ...(r.match !== undefined ? { relaxed: true } : {}),
      ...(why ? { why } : {}),
    };
  });
}

/**
 * The hybrid/semantic answer for the search line's text over this Hermes store.
 * `background`: the app's embed worker embeds (src/app/worker/embedEntry.ts), so
 * the search embeds nothing and says how much of the store it could search.
 */
export async function searchByMeaning(
  store: Store,
  query: string,
  mode: Exclude<Meaning, 'lexical'>,
  embedder: string,
  limit: number,
  load: LoadSemantic,
  background = false,
): Promise<MeaningAnswer> {
  const answer = await (
    await load()
  ).semanticSearch(store, query, {
    mode,
    embedder,
    limit,
    ...(background ? { embed: false } : {}),
  });
  const notes = [
    typeof answer.fallback_reason === 'string'
      ? `hybrid fell back to lexical: ${answer.fallback_reason}`
      : null,
    background
      ? partNote(answer.embedded)
      : typeof answer.embedding_note === 'string'
        ? answer.embedding_note
        : null,
  ].filter((x): x is string => x !== null);
  return {
    items: meaningItems(store, query, answer),
    note: notes.length > 0 ? clean(notes.join('; ')) : null,
  };
}

/** A store the background worker has not finished: how much the semantic leg saw (null: all of it). */
function partNote(embedded: Json | undefined): string | null {
  const e = embedded as { messages?: number; of?: number } | undefined;
  if (!e || typeof e.messages !== 'number' || typeof e.of !== 'number' || e.messages >= e.of)
    return null;
  const pct = e.of > 0 ? Math.floor((100 * e.messages) / e.of) : 100;
  return `the semantic leg searched ${formatCount(e.messages)} of ${formatCount(e.of)} messages (${pct} %); the rest are being embedded in the background`;
}

/** One request of the query worker's protocol by meaning: the answer or its one-line error, then done. */
export async function answerMeaning(
  store: Store,
  req: Extract<QueryRequest, { kind: 'meaning' }>,
  post: (r: QueryResponse) => void,
  load: LoadSemantic,
  /** The other agents' index and the agents shown, when the app shows them (a request with `agents` reads it). */
  index?: { file: string; agents: readonly Agent[] },
): Promise<void> {
  try {
    const a =
      req.agents && index
        ? await agentsByMeaning(index, req, load)
        : await searchByMeaning(
            store,
            req.query,
            req.mode,
            req.embedder,
            req.limit,
            load,
            req.background,
          );
    post({ kind: 'meaning', generation: req.generation, forText: req.forText, ...a });
  } catch (err) {
    post({
      kind: 'error',
      generation: req.generation,
      request: 'meaning',
      message: clean(((err as Error)?.message ?? String(err)).split('\n')[0]!),
    });
  } finally {
    post({ kind: 'done', generation: req.generation, request: 'meaning' });
  }
}

/**
 * The hybrid/semantic answer over the other agents' index (src/semantic/agents.ts,
 * as `lookback search --agent AGENT --mode …`), its rows as the agents' rows of
 * the results pane (their ids from src/ids/app.ts), each saying why it matched.
 * The index is opened for this answer and closed after it.
 */
async function agentsByMeaning(
  { file, agents: shown }: { file: string; agents: readonly Agent[] },
  req: Extract<QueryRequest, { kind: 'meaning' }>,
  load: LoadSemantic,
): Promise<MeaningAnswer> {
  // The agents the `agent:` chip names, else every one the app shows.
  const named = (req.agents ?? []).filter(isAgent);
  const agents: Agent[] = named.length > 0 ? named : [...shown];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  let answer: Record<string, Json>;
  try {
    answer = await (
      await load()
    ).semanticAgentsSearch(db, agents, req.query, {
      mode: req.mode,
      embedder: req.embedder,
      limit: req.limit,
      ...(req.background ? { embed: false } : {}),
    });
  } finally {
    db.close();
  }
  const reader = new IndexReader(file, agents);
  const terms = termsFromQuery(req.query);
  try {
    const items: ResultItem[] = [];
    for (const r of (answer.results ?? []) as Entry[]) {
      const conv = reader.conversation(String(r.agent), String(r.session_id));
      const msg = conv ? reader.messageByAnchor(conv.id, String(r.match_message_id)) : null;
      if (!conv || !msg) continue;
      const item = hitItem({ conv, msg, snippet: '' }, []);
      const raw = typeof r.snippet === 'string' ? r.snippet : '';
      const marked = parseSnippetMarkers(raw, '>>>', '<<<', sanitizeLine);
      const why = whyMatched(r.score_parts as Entry | undefined);
      items.push({
        ...item,
        snippet: marked.some((x) => x.hit)
          ? marked
          : splitHighlights(marked.map((x) => x.text).join(''), terms),
        ...(r.match !== undefined ? { relaxed: true } : {}),
        ...(r.taken_back === true ? { takenBack: true } : {}),
        ...(why ? { why } : {}),
      });
    }
    const notes = [
      typeof answer.fallback_reason === 'string'
        ? `hybrid fell back to lexical: ${answer.fallback_reason}`
        : null,
      req.background
        ? partNote(answer.embedded)
        : typeof answer.embedding_note === 'string'
          ? answer.embedding_note
          : null,
    ].filter((x): x is string => x !== null);
    return { items, note: notes.length > 0 ? clean(notes.join('; ')) : null };
  } finally {
    reader.close();
  }
}
