/**
 * `lookback search --mode semantic|hybrid` over one Hermes store: the JSON
 * answer with each hit's reasons (`score_parts`: lexical rank, semantic rank,
 * cosine, fused score) and what mode was really served. Semantic asks for a
 * model and fails in one line without it; hybrid falls back to lexical and
 * says so (`mode_realized`, `fallback_reason`), never silently.
 */
import { join } from 'node:path';
import { SEARCH_EMBED_BUDGET_MS } from '../budgets.js';
import { lookbackCacheDir } from '../paths.js';
import { sessionMeta } from '../store/lineage.js';
import type { Json } from '../store/recall.js';
import { discover } from '../store/search.js';
import type { Store } from '../store/store.js';
import { isoTime } from '../store/time.js';
import { sanitize } from '../text/sanitize.js';
import { hybrid, type Fused } from './fuse.js';
import { embedUnits, unitCounts, type UnitSource } from './embedPass.js';
import {
  conversationCosines,
  semanticConversations,
  unitMatrix,
  unitSource,
  type EmbedProgress,
} from './hermes.js';
import { openEmbedder } from './spec.js';
import { EmbedError, type Embedder } from './types.js';
import { VectorDb, type VectorMatrix } from './vectors.js';

export type SearchMode = 'lexical' | 'semantic' | 'hybrid';

export interface SemanticOptions {
  mode: Exclude<SearchMode, 'lexical'>;
  /** A spec (opened once per process) or an embedder already open (the library, the benchmark). */
  embedder: string | Embedder;
  limit: number;
  all?: boolean;
  /** vectors.db; default in lookback's cache folder. */
  vectorsPath?: string;
  onProgress?: (p: EmbedProgress) => void;
  /** How long to embed new messages before answering (default SEARCH_EMBED_BUDGET_MS). */
  embedBudgetMs?: number;
  /**
   * false: embed nothing, answer from the vectors there are (the app, whose
   * background worker embeds; src/app/worker/embedEntry.ts). Default true.
   */
  embed?: boolean;
}

/**
 * Embedders opened in this process, by spec: a long-lived door (the MCP
 * server) loads its model once and keeps it warm; one that failed to open is
 * tried again on the next call.
 */
const opened = new Map<string, Promise<Embedder>>();

export function embedderFor(spec: string): Promise<Embedder> {
  let e = opened.get(spec);
  if (!e) {
    e = openEmbedder(spec);
    opened.set(spec, e);
    e.catch(() => opened.delete(spec));
  }
  return e;
}

/** Conversations each leg hands to the fusion (agentsview: max(4×limit, 200) messages for the vector leg). */
const POOL = 50;
/** Characters of the anchored message shown as a semantic hit's snippet. */
const SNIPPET_CHARS = 200;

/** claude-history's quality words for a cosine. */
export function quality(cos: number): string {
  return cos >= 0.85 ? 'strong' : cos >= 0.65 ? 'good' : cos >= 0.35 ? 'fair' : 'weak';
}

/** LOOKBACK_EMBED_BUDGET_MS: how long a search may embed before it answers; undefined: the default. */
export function embedBudget(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env.LOOKBACK_EMBED_BUDGET_MS?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0)
    throw new EmbedError(`LOOKBACK_EMBED_BUDGET_MS must be a number of milliseconds, not "${v}"`);
  return n;
}

export function vectorsPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LOOKBACK_VECTORS_DB ?? join(lookbackCacheDir(env), 'vectors.db');
}

/** The embedder a search asked for, as its answer names it until the embedder is open. */
export const specOf = (opts: SemanticOptions): string =>
  typeof opts.embedder === 'string' ? opts.embedder : opts.embedder.id;

/** What the semantic leg searches over one source: the query's vector, the source's vectors, how many. */
export interface MeaningLeg {
  qv: Float32Array;
  m: VectorMatrix;
  coverage: Coverage;
}

/**
 * The semantic leg's inputs over any source (a Hermes store, the agents'
 * index): the embedder opened, the source's new messages embedded for a while
 * (nothing with `embed: false`), then the query, and the source's matrix
 * loaded. `said.model` is the embedder's id once it is open, so a hybrid that
 * falls back still names it.
 */
export async function meaningLeg(
  vdb: VectorDb,
  src: UnitSource,
  q: string,
  opts: SemanticOptions,
  said: { model: string },
): Promise<MeaningLeg> {
  const embedder =
    typeof opts.embedder === 'string' ? await embedderFor(opts.embedder) : opts.embedder;
  said.model = embedder.id;
  // Embed what is new for a while, then answer from the vectors there are.
  const budget = opts.embedBudgetMs ?? embedBudget() ?? SEARCH_EMBED_BUDGET_MS;
  const p =
    opts.embed === false
      ? unitCounts(src, vdb)
      : await embedUnits(src, vdb, embedder, opts.onProgress, performance.now() + budget);
  const [qv] = await embedder.embed([q], 'query');
  const m = unitMatrix(vdb, src.key, embedder.fingerprint);
  return { qv: qv!, m, coverage: { embedded: Math.min(m.ids.length, p.total), messages: p.total } };
}

export async function semanticSearch(
  store: Store,
  query: string,
  opts: SemanticOptions,
): Promise<Record<string, Json>> {
  const q = query.trim();
  const lexical = (n: number) => discover(store, q, { limit: n, views: false, relaxed: true });
  let hits: ReturnType<typeof semanticConversations>;
  /** Each candidate conversation's best message by cosine (the blend judges lexical hits on it too). */
  let cosines: (roots: readonly string[]) => ReturnType<typeof conversationCosines> = () =>
    new Map();
  const said = { model: specOf(opts) };
  let coverage: Coverage = { embedded: 0, messages: 0 };
  const vdb = new VectorDb(opts.vectorsPath ?? vectorsPath());
  try {
    const leg = await meaningLeg(vdb, unitSource(store), q, opts, said);
    coverage = leg.coverage;
    cosines = (roots) => conversationCosines(store, leg.m, leg.qv, roots);
    hits = semanticConversations(
      store,
      leg.m,
      leg.qv,
      opts.mode === 'semantic' ? opts.limit : POOL,
      opts.all,
    );
  } catch (err) {
    if (!(err instanceof EmbedError) || opts.mode === 'semantic') throw err;
    // Hybrid without its model: the lexical answer, and the reason, in the answer itself.
    return {
      ...shape(store, q, 'lexical', said.model, coverage, lexicalOnly(lexical(opts.limit))),
      mode_requested: 'hybrid',
      fallback_reason: err.message,
    };
  } finally {
    vdb.close();
  }
  const lex = opts.mode === 'hybrid' ? lexical(POOL).results : [];
  type Item = {
    session_id: string;
    id: number;
    snippet: string | null;
    cos: number | null;
    relaxed: boolean;
  };
  const cos = cosines([
    ...new Set([
      ...lex.map((r) => r.parent_session_id ?? r.session_id),
      ...hits.map((h) => h.root),
    ]),
  ]);
  const fused = hybrid<Item>(
    lex.map((r) => ({
      key: r.parent_session_id ?? r.session_id,
      item: {
        session_id: r.session_id,
        id: r.match_message_id,
        snippet: r.snippet,
        cos: null as number | null,
        relaxed: r.match === 'relaxed',
      },
      exact: r.match !== 'relaxed',
    })),
    hits.map((h) => ({
      key: h.root,
      item: {
        session_id: h.session_id,
        id: h.id,
        snippet: null as string | null,
        cos: h.cos,
        relaxed: true,
      },
      cos: h.cos,
    })),
    opts.limit,
    (key) => {
      const c = cos.get(key);
      return c
        ? {
            cos: c.cos,
            item: { session_id: c.session_id, id: c.id, snippet: null, cos: c.cos, relaxed: true },
          }
        : null;
    },
  );
  const rows: Row[] = fused.map((f) => {
    const from = f.lexical ?? f.semantic!;
    return {
      session_id: from.session_id,
      id: from.id,
      snippet: f.lexical?.snippet ?? null,
      ...whyMatched(f, opts.mode),
    };
  });
  return { ...shape(store, q, opts.mode, said.model, coverage, rows), mode_requested: opts.mode };
}

/**
 * Why a fused hit matched, as every door shows it: `match` (null for an exact
 * hit, else relaxed, semantic, or lex+sem when both legs found it) and
 * `score_parts` (each leg's rank, the cosine and its quality word, the fused
 * score and, in hybrid, how much the semantic side counted for this query, and
 * `semantic_reserve` on a hit placed in the page's last places kept for the
 * semantic leg's best).
 */
export function whyMatched(
  f: Fused<{ cos: number | null; relaxed: boolean }>,
  mode: 'semantic' | 'hybrid',
): { match: 'relaxed' | 'semantic' | 'lex+sem' | null; parts: Record<string, Json> } {
  const cos = f.semantic?.cos ?? null;
  return {
    match:
      f.lexical && !f.lexical.relaxed
        ? null
        : f.lexical && f.semantic_rank !== null
          ? 'lex+sem'
          : f.lexical
            ? 'relaxed'
            : 'semantic',
    parts: {
      lexical_rank: f.lexical_rank,
      semantic_rank: f.semantic_rank,
      cosine: cos !== null ? round(cos) : null,
      ...(cos !== null ? { quality: quality(cos) } : {}),
      fused: round(f.fused),
      ...(mode === 'hybrid' && f.semantic_weight !== undefined
        ? { semantic_weight: round(f.semantic_weight) }
        : {}),
      // Shown where it is for being among the semantic leg's surest, not for its fused score.
      ...(mode === 'hybrid' && f.reserved ? { semantic_reserve: true } : {}),
    },
  };
}

/** The answer around the hits of a search by meaning, over any source. */
export function meaningEnvelope(
  q: string,
  realized: 'lexical' | 'semantic' | 'hybrid',
  model: string,
  coverage: Coverage,
  results: Json[],
): Record<string, Json> {
  return {
    success: true,
    mode: 'discover',
    query: q,
    mode_realized: realized,
    ...(realized !== 'lexical'
      ? {
          embedder: model,
          vectors: coverage.embedded,
          embedded: { messages: coverage.embedded, of: coverage.messages },
          ...(coverage.embedded < coverage.messages
            ? { embedding_note: coverageNote(coverage) }
            : {}),
        }
      : {}),
    results,
    count: results.length,
    ...(results.length === 0 ? { message: 'No matching sessions found.' } : {}),
  };
}

/** How many of the store's messages the semantic leg could search. */
export interface Coverage {
  embedded: number;
  messages: number;
}

/** Said when the semantic leg saw only part of the store: how much, and what happens to the rest. */
export function coverageNote(c: Coverage): string {
  const pct = c.messages > 0 ? Math.floor((100 * c.embedded) / c.messages) : 100;
  return `the semantic leg searched ${c.embedded.toLocaleString('en-US')} of ${c.messages.toLocaleString('en-US')} messages (${pct} %); each search embeds ~${SEARCH_EMBED_BUDGET_MS / 1000} s more; LOOKBACK_EMBED_BUDGET_MS=600000 gives one search ten minutes to embed the rest`;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

interface Row {
  session_id: string;
  id: number;
  snippet: string | null;
  /** null: an exact hit (every word); else how it matched. */
  match: 'relaxed' | 'semantic' | 'lex+sem' | null;
  parts: Record<string, Json> | null;
}

function lexicalOnly(a: ReturnType<typeof discover>): Row[] {
  return a.results.map((r, i) => ({
    session_id: r.session_id,
    id: r.match_message_id,
    snippet: r.snippet,
    match: r.match === 'relaxed' ? 'relaxed' : null,
    parts: { lexical_rank: i + 1, semantic_rank: null, cosine: null },
  }));
}

function shape(
  store: Store,
  q: string,
  realized: SearchMode,
  model: string,
  coverage: Coverage,
  rows: readonly Row[],
): Record<string, Json> {
  const results = store.read(() =>
    rows.map((r) => {
      const meta = sessionMeta(store, r.session_id);
      const msg = store.stmt(`SELECT role, content FROM messages WHERE id = ?`).get(r.id) as
        { role: string; content: string | null } | undefined;
      const entry: Record<string, Json> = {
        session_id: r.session_id,
        when: isoTime(meta?.started_at ?? null),
        source: meta?.source ?? 'unknown',
        model: meta?.model ?? 'unknown',
        title: meta?.title ?? null,
        matched_role: msg?.role ?? 'unknown',
        match_message_id: r.id,
        // A semantic hit has no matched words: the head of the message it anchors to.
        snippet: sanitize(
          r.snippet ?? (msg?.content ?? '').replace(/\s+/g, ' ').slice(0, SNIPPET_CHARS),
        ),
      };
      if (r.match) entry.match = r.match;
      if (r.parts) entry.score_parts = r.parts;
      return entry;
    }),
  );
  return meaningEnvelope(q, realized, model, coverage, results);
}
