/**
 * Semantic search over a Hermes store: the embed pass (incremental, resumable,
 * with progress) and the semantic leg (nearest messages, best per
 * conversation). One unit per user or assistant message, as cass does; tool
 * output is not embedded.
 */
import { hermesUnits } from '../ids/units.js';
import { rootResolver } from '../store/lineage.js';
import { HIDDEN_SOURCES_SQL } from '../store/sqlParts.js';
import type { Store } from '../store/store.js';
import type { Embedder } from './types.js';
import { fileStamp, nearest, rowCosine, type VectorDb, type VectorMatrix } from './vectors.js';
import {
  embedUnits,
  unitCounts,
  type EmbedProgress,
  type UnitRow,
  type UnitSource,
} from './embedPass.js';

export type { EmbedProgress } from './embedPass.js';

/** The key vectors.db files a store under: its absolute path. */
export function storeKey(store: Store): string {
  return hermesUnits(store.path);
}

const ROLE_SQL = `role IN ('user', 'assistant') AND content IS NOT NULL AND content <> ''`;

/** What the embed pass reads from a Hermes store: its user and assistant messages, by id. */
export function unitSource(store: Store): UnitSource {
  return {
    key: storeKey(store),
    page: (after, n) =>
      store
        .stmt(
          `SELECT id, session_id, content FROM messages WHERE ${ROLE_SQL} AND id > ? ORDER BY id LIMIT ?`,
        )
        .all(after, n) as UnitRow[],
    byIds: (ids) =>
      store
        .stmt(
          `SELECT id, session_id, content FROM messages WHERE id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(ids)) as UnitRow[],
    countAfter: (after) =>
      store
        .stmt(`SELECT count(*) FROM messages WHERE ${ROLE_SQL} AND id > ?`)
        .pluck()
        .get(after) as number,
  };
}

/**
 * How many of the store's messages are linked to a vector (`done`) of how many
 * are embedded at all (`total`), counted without reading every message: the
 * units linked (one per message embedded, in id order) and the messages after
 * the last of them. Counting the store's messages by role and content read
 * every row, most of a warm search at 100k messages.
 */
export function embedCounts(store: Store, vdb: VectorDb): { done: number; total: number } {
  return unitCounts(unitSource(store), vdb);
}

/** Embeds the store's messages that have no vector yet (src/semantic/embedPass.ts). */
export function embedStore(
  store: Store,
  vdb: VectorDb,
  embedder: Embedder,
  onProgress: (p: EmbedProgress) => void = () => {},
  until = Infinity,
): Promise<EmbedProgress> {
  return embedUnits(unitSource(store), vdb, embedder, onProgress, until);
}

const matrices = new Map<string, { stamp: string; m: VectorMatrix }>();

/**
 * The store's vectors as one matrix, read once per process while vectors.db
 * is unchanged (its stamp, not a count: counting units against vectors is a
 * join over all of them, most of a warm search's time at 100k messages).
 */
export function storeMatrix(store: Store, vdb: VectorDb, fingerprint: string): VectorMatrix {
  return unitMatrix(vdb, storeKey(store), fingerprint);
}

/** The matrix of one units namespace (a store, the agents' index), kept while vectors.db is unchanged. */
export function unitMatrix(vdb: VectorDb, key: string, fingerprint: string): VectorMatrix {
  const k = `${vdb.path}\n${key}\n${fingerprint}`;
  const stamp = fileStamp(vdb.path);
  const hit = matrices.get(k);
  if (hit && hit.stamp === stamp) return hit.m;
  const m = vdb.matrix(key, fingerprint);
  matrices.set(k, { stamp, m });
  return m;
}

export interface SemanticHit {
  root: string;
  session_id: string;
  id: number;
  cos: number;
}

/** Messages the vector leg looks at before keeping the best per conversation (agentsview: max(4×limit, 200)). */
export const SEMANTIC_POOL = 200;

/** The conversations nearest to `q`, best message first, hidden sources out unless `all`. */
export function semanticConversations(
  store: Store,
  m: VectorMatrix,
  q: Float32Array,
  limit: number,
  all = false,
  /** Score every row in int8 (no binary prefilter): for measuring the prefilter. */
  exactScan = false,
): SemanticHit[] {
  const pool = nearest(m, q, Math.max(4 * limit, SEMANTIC_POOL), exactScan);
  const rootOf = rootResolver(store);
  const ids = pool.map((p) => m.ids[p.row]!);
  // Messages still there (a store may drop rows) and in a visible session.
  const live = new Set(
    store
      .stmt(
        `SELECT m.id FROM messages m JOIN sessions s ON s.id = m.session_id
         WHERE m.id IN (SELECT value FROM json_each(?)) ${all ? '' : `AND s.source NOT IN ${HIDDEN_SOURCES_SQL}`}`,
      )
      .pluck()
      .all(JSON.stringify(ids)) as number[],
  );
  const out = new Map<string, SemanticHit>();
  for (const p of pool) {
    const id = m.ids[p.row]!;
    if (!live.has(id)) continue;
    const sid = m.sessions[p.row]!;
    const root = rootOf(sid);
    if (!out.has(root)) out.set(root, { root, session_id: sid, id, cos: p.cos });
    if (out.size >= limit) break;
  }
  return [...out.values()];
}

/**
 * Each matrix's rows by conversation, built on first use and kept with it. A
 * matrix is one source's (a Hermes store, the agents' index), so it is
 * grouped one way only.
 */
const rowsByConversation = new WeakMap<VectorMatrix, Map<string, number[]>>();

/**
 * The best row by cosine to `q` of each of `convs` (every message of the
 * conversation the matrix holds, not only those in the nearest pool): the
 * semantic side of a conversation the lexical leg found. A few hundred dot
 * products for a page of candidates; the matrix is walked once, to group its
 * rows, with `conversationOf()` saying which conversation a row's session is.
 */
export function bestRows(
  m: VectorMatrix,
  q: Float32Array,
  convs: readonly string[],
  conversationOf: () => (session: string) => string,
): Map<string, { r: number; cos: number }> {
  let by = rowsByConversation.get(m);
  if (!by) {
    by = new Map();
    const of = conversationOf();
    const bySession = new Map<string, string>();
    for (let r = 0; r < m.sessions.length; r++) {
      const sid = m.sessions[r]!;
      let conv = bySession.get(sid);
      if (conv === undefined) bySession.set(sid, (conv = of(sid)));
      let rows = by.get(conv);
      if (!rows) by.set(conv, (rows = []));
      rows.push(r);
    }
    rowsByConversation.set(m, by);
  }
  const out = new Map<string, { r: number; cos: number }>();
  if (q.length !== m.dims) return out;
  for (const conv of convs) {
    let best: { r: number; cos: number } | null = null;
    for (const r of by.get(conv) ?? []) {
      const cos = rowCosine(m, r, q);
      if (!best || cos > best.cos) best = { r, cos };
    }
    if (best) out.set(conv, best);
  }
  return out;
}

/** The best message of each of `roots` (root sessions) by cosine to `q`: bestRows over a Hermes store. */
export function conversationCosines(
  store: Store,
  m: VectorMatrix,
  q: Float32Array,
  roots: readonly string[],
): Map<string, SemanticHit> {
  const out = new Map<string, SemanticHit>();
  for (const [root, { r, cos }] of bestRows(m, q, roots, () => rootResolver(store)))
    out.set(root, { root, session_id: m.sessions[r]!, id: m.ids[r]!, cos });
  return out;
}
