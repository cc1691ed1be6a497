/**
 * The semantic and hybrid modes of the recall benchmark, over the real embed
 * pass and vector store (src/semantic): every embedder runnable on this
 * machine. Embedding runs once before the questions (docs/s reported).
 */
import { join } from 'node:path';
import {
  blend,
  hybrid,
  hybridRrf,
  HYBRID_K,
  SEMANTIC_WEIGHT,
  semanticStandout,
} from '../../../src/semantic/fuse.js';
import {
  conversationCosines,
  embedStore,
  semanticConversations,
  storeMatrix,
} from '../../../src/semantic/hermes.js';
import type { Embedder } from '../../../src/semantic/types.js';
import { VectorDb } from '../../../src/semantic/vectors.js';
import { discover } from '../../../src/store/search.js';
import type { Store } from '../../../src/store/store.js';
import { K, type Ranked } from './metrics.js';
import type { Mode } from './modes.js';

/** Conversations each leg hands to the fusion. */
const POOL = 50;

/**
 * The RRF fusions measured: the one shipped before the confident blend, and
 * LOOKBACK_RECALL_FUSE="k,w;k,w" (RRF k, semantic weight) to compare others on the tune half.
 */
function fusions(): [number, number][] {
  const extra = (process.env.LOOKBACK_RECALL_FUSE ?? '')
    .split(';')
    .filter(Boolean)
    .map((p) => p.split(',').map(Number) as [number, number]);
  return [[HYBRID_K, SEMANTIC_WEIGHT], ...extra];
}

/**
 * LOOKBACK_RECALL_BLEND="alpha,k;alpha,k,from,to;alpha,k,from,to,slots,within;…" (from "x": no ramp): score fusions (fuse.ts `blend`) to compare
 * on the tune half; with from,to the semantic weight is scaled by the leg's standout (confident blend).
 */
function blends(): number[][] {
  return (process.env.LOOKBACK_RECALL_BLEND ?? '')
    .split(';')
    .filter(Boolean)
    .map((p) => p.split(',').map(Number));
}

export interface SemanticSetup {
  modes: Mode[];
  /** One line per embedder: texts, seconds, docs/s. */
  notes: string[];
  /** One line per embedder: how far its best candidate stands out, over the given questions (after prepare). */
  standouts: (queries: readonly { query: string; stratum: string }[]) => string[];
  close: () => void;
}

export async function semanticModes(
  store: Store,
  dir: string,
  embedders: readonly { name: string; make: () => Embedder | Promise<Embedder> }[],
): Promise<SemanticSetup> {
  const vdb = new VectorDb(join(dir, 'vectors.db'));
  const notes: string[] = [];
  const modes: Mode[] = [];
  const standoutOf: ((q: string) => number)[] = [];
  // Queries are embedded before the timed runs (the modes are synchronous).
  for (const e of embedders) {
    const t0 = performance.now();
    const embedder = await e.make();
    const trained = (performance.now() - t0) / 1000;
    const p = await embedStore(store, vdb, embedder);
    notes.push(
      `${e.name}: ${p.embedded.toLocaleString()} texts embedded for ${p.total.toLocaleString()} messages in ${((performance.now() - t0) / 1000 - trained).toFixed(1)} s (${Math.round(p.docsPerSecond).toLocaleString()} docs/s; built in ${trained.toFixed(1)} s)`,
    );
    const m = storeMatrix(store, vdb, embedder.fingerprint);
    const cache = new Map<string, Float32Array>();
    const qvec = (q: string): Float32Array => cache.get(q)!;
    // LOOKBACK_RECALL_EXACT_SCAN=1: every vector scored (no sign-bit prefilter), to compare.
    const exactScan = process.env.LOOKBACK_RECALL_EXACT_SCAN === '1';
    const semantic = (q: string, n: number): Ranked[] =>
      semanticConversations(store, m, qvec(q), n, false, exactScan).map((h) => ({
        root: h.root,
        message: h.id,
        relaxed: true,
      }));
    const lexical = (q: string, n: number): Ranked[] =>
      discover(store, q, { limit: n, views: false, relaxed: true }).results.map((r) => ({
        root: r.parent_session_id ?? r.session_id,
        message: r.match_message_id,
        relaxed: r.match === 'relaxed',
      }));
    const prepare = async (qs: readonly string[]): Promise<void> => {
      const vs = await embedder.embed(qs, 'query');
      qs.forEach((q, i) => cache.set(q, vs[i]!));
    };
    type Cand = { key: string; item: Ranked };
    /** Both legs and every candidate's best cosine, handed to a score fusion. */
    const scored = (
      q: string,
      fuse: (
        lex: (Cand & { exact: boolean })[],
        sem: (Cand & { cos: number })[],
        cosOf: (key: string) => { cos: number; item: Ranked } | null,
      ) => { lexical: Ranked | null; semantic: Ranked | null }[],
    ): Ranked[] => {
      const lex = lexical(q, POOL);
      const hits = semanticConversations(store, m, qvec(q), POOL, false, exactScan);
      const sem = hits.map((h) => ({ root: h.root, message: h.id, relaxed: true }));
      const cos = conversationCosines(store, m, qvec(q), [
        ...new Set([...lex, ...sem].map((r) => r.root)),
      ]);
      return fuse(
        lex.map((r) => ({ key: r.root, item: r, exact: !r.relaxed })),
        sem.map((r, i) => ({ key: r.root, item: r, cos: hits[i]!.cos })),
        (key) => {
          const c = cos.get(key);
          return c ? { cos: c.cos, item: { root: key, message: c.id, relaxed: true } } : null;
        },
      ).map((f) => ({ ...(f.lexical ?? f.semantic)!, relaxed: f.lexical?.relaxed ?? true }));
    };
    standoutOf.push((q) => {
      const roots = new Set([
        ...lexical(q, POOL).map((r) => r.root),
        ...semantic(q, POOL).map((r) => r.root),
      ]);
      return semanticStandout(
        [...conversationCosines(store, m, qvec(q), [...roots]).values()].map((h) => h.cos),
      );
    });
    modes.push(
      {
        name: `semantic:${e.name}`,
        about: `nearest messages by ${e.name}, best per conversation`,
        prepare,
        search: (q) => semantic(q, K),
        deep: semantic,
      },
      {
        name: `hybrid:${e.name}`,
        about: `shipped: exact hits first, then the confident blend (fuse.ts \`hybrid\`) of relaxed lexical and ${e.name}, ${POOL} conversations a leg`,
        prepare,
        search: (q: string) => scored(q, (lex, sem, cosOf) => hybrid(lex, sem, K, cosOf)),
        note: (q: string) => {
          let w = '';
          scored(q, (lex, sem, cosOf) => {
            const f = hybrid(lex, sem, K, cosOf);
            w = f[0] ? `z ${f[0].standout?.toFixed(1)} w ${f[0].semantic_weight?.toFixed(2)}` : '';
            return f;
          });
          return w;
        },
      },
      ...fusions().map(([k, w]) => ({
        name: `rrf:${e.name}${k === HYBRID_K && w === SEMANTIC_WEIGHT ? '' : `:k${k}w${w}`}`,
        about: `exact hits first, then RRF (k ${k}, semantic weight ${w}) of relaxed lexical and ${e.name}, ${POOL} conversations a leg${k === HYBRID_K && w === SEMANTIC_WEIGHT ? ' (hybrid as shipped before the confident blend)' : ''}`,
        prepare,
        search: (q: string) =>
          hybridRrf(
            lexical(q, POOL).map((r) => ({ key: r.root, item: r, exact: !r.relaxed })),
            semantic(q, POOL).map((r) => ({ key: r.root, item: r })),
            K,
            k,
            w,
          ).map((f) => ({ ...(f.lexical ?? f.semantic)!, relaxed: f.lexical?.relaxed ?? true })),
      })),
      ...blends().map(([alpha, k, from, to, slots, within]) => ({
        name: `blend:${e.name}:a${alpha}k${k}${from === undefined || Number.isNaN(from) ? '' : `z${from}-${to}`}${slots === undefined ? '' : `r${slots}w${within}`}`,
        about: `exact hits first, then${slots === undefined ? '' : ` (the last ${slots} places kept for the semantic leg's best within its top ${within})`} (1−${alpha}${from === undefined ? '' : ` × c`}) × lexical rank score (k ${k}) + ${alpha}${from === undefined ? '' : ` × c`} × normalised best cosine of each candidate conversation (${POOL} a leg)${from === undefined ? '' : `; c = the leg's standout ramped from ${from} to ${to} sd`}`,
        prepare,
        search: (q: string) =>
          scored(q, (lex, sem, cosOf) =>
            blend(
              lex,
              sem,
              cosOf,
              K,
              alpha!,
              k!,
              from === undefined || Number.isNaN(from) ? undefined : { from, to: to! },
              slots === undefined ? undefined : { slots, within: within! },
            ),
          ),
      })),
    );
  }
  const standouts = (qs: readonly { query: string; stratum: string }[]): string[] =>
    embedders.map((e, i) => {
      const by = new Map<string, number[]>();
      for (const q of qs) {
        const z = standoutOf[i]!(q.query);
        by.set(q.stratum, [...(by.get(q.stratum) ?? []), z]);
      }
      const med = (xs: number[]): string =>
        [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2);
      return `${e.name}: median standout (sd) ${[...by].map(([s, zs]) => `${s} ${med(zs)}`).join(', ')}`;
    });
  return { modes, notes, standouts, close: () => vdb.close() };
}
