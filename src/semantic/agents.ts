/**
 * Search by meaning over lookback's index of the other agents' histories
 * (src/agents): the embed pass reads the index's user and assistant messages
 * into vectors.db under the index's own units namespace (src/ids/units.ts),
 * and the answer is the Hermes one's (src/semantic/answer.ts): the same scan,
 * the same fusion (`hybrid()`) with the agents' relaxed lexical leg, the same
 * `score_parts`, in the agents' answer shape (`agent`, anchors as message ids).
 *
 * The index numbers its messages itself and may renumber them (a rebuild, a
 * conversation read again): a unit is used only while its message still holds
 * the text it was embedded from (its hash), and when the last linked message
 * no longer does, the units are linked again from the start; vectors are
 * keyed by text, so nothing is embedded twice.
 */
import type Database from 'better-sqlite3';
import { agentsUnits } from '../ids/units.js';
import { FLAG, OUT_OF_TRANSCRIPT, TAKEN_BACK, type Agent } from '../agents/model.js';
import { inList } from '../agents/queries.js';
import { searchAgentsJson } from '../agents/recall.js';
import type { Json } from '../store/recall.js';
import { isoTime } from '../store/time.js';
import { sanitize } from '../text/sanitize.js';
import { embedUnits, type EmbedProgress, type UnitRow, type UnitSource } from './embedPass.js';
import { hybrid } from './fuse.js';
import { bestRows, SEMANTIC_POOL } from './hermes.js';
import {
  meaningEnvelope,
  meaningLeg,
  specOf,
  vectorsPath,
  whyMatched,
  type Coverage,
  type MeaningLeg,
  type SemanticOptions,
} from './answer.js';
import { EmbedError, type Embedder } from './types.js';
import { canonical, nearest, textHash, VectorDb, type VectorMatrix } from './vectors.js';

/** What is embedded: what a person or the agent said (a copy is never a hit, so never embedded). */
const UNIT_SQL = `role IN ('user', 'assistant') AND text <> '' AND flags & ${FLAG.copied} = 0`;
/** Injected context and bookkeeping rows stay out of default answers, as in the lexical search. */
const QUIET_KINDS = `('injected', 'meta')`;

/** The units namespace of the index `db` is (its file). */
export function indexKey(db: Database.Database): string {
  return agentsUnits(db.name);
}

/** What the embed pass reads from the agents' index. */
export function agentsUnitSource(db: Database.Database): UnitSource {
  const rows = (sql: string, ...params: unknown[]) =>
    db
      .prepare(
        `SELECT id, CAST(conv_id AS TEXT) AS session_id, text AS content FROM messages ${sql}`,
      )
      .all(...params) as UnitRow[];
  return {
    key: indexKey(db),
    page: (after, n) => rows(`WHERE ${UNIT_SQL} AND id > ? ORDER BY id LIMIT ?`, after, n),
    byIds: (ids) => rows(`WHERE id IN (SELECT value FROM json_each(?))`, JSON.stringify(ids)),
    countAfter: (after) =>
      db
        .prepare(`SELECT count(*) FROM messages WHERE ${UNIT_SQL} AND id > ?`)
        .pluck()
        .get(after) as number,
    check: (vdb) => checkLinks(db, vdb),
  };
}

/**
 * The units still name the index's messages: the last one linked holds the
 * text it was linked with. Else (the index rebuilt, the newest conversation
 * read again) they are dropped and linked again from the first message.
 */
function checkLinks(db: Database.Database, vdb: VectorDb): void {
  const key = indexKey(db);
  const last = vdb.lastUnit(key);
  if (last === 0) return;
  const text = db.prepare(`SELECT text FROM messages WHERE id = ?`).pluck().get(last) as
    string | undefined;
  const linked = vdb.unitHashes(key, [last]).get(last);
  if (text === undefined || !linked || !textHash(canonical(text)).equals(linked))
    vdb.dropUnits(key);
}

/** Embeds the index's messages that have no vector yet (src/semantic/embedPass.ts). */
export function embedAgents(
  db: Database.Database,
  vdb: VectorDb,
  embedder: Embedder,
  onProgress: (p: EmbedProgress) => void = () => {},
  until = Infinity,
): Promise<EmbedProgress> {
  return embedUnits(agentsUnitSource(db), vdb, embedder, onProgress, until);
}

/** A message row of the index with its conversation, as a hit is shown. */
interface HitRow {
  id: number;
  conv_id: number;
  anchor: string;
  role: string;
  text: string;
  flags: number;
  agent: string;
  native_id: string;
  parent_native_id: string | null;
  title: string | null;
  source: string | null;
  model: string | null;
  started_at: number | null;
  gone: number;
}

const HIT_SQL = `SELECT m.id, m.conv_id, m.anchor, m.role, m.text, m.flags, c.agent, c.native_id,
  c.parent_native_id, c.title, c.source, c.model, c.started_at, c.gone
  FROM messages m JOIN conversations c ON c.id = m.conv_id`;

/** A conversation's key in the fusion: its agent and its own id. */
const convKey = (agent: string, nativeId: string): string => `${agent}\n${nativeId}`;

export interface AgentHit {
  key: string;
  row: HitRow;
  cos: number;
}

/**
 * The conversations of `agents` nearest to `q`, best message first: the
 * nearest messages of the matrix, each kept only if its message is still
 * there with the text it was embedded from and visible as a lexical hit would
 * be (taken back, injected and bookkeeping rows only with `all`).
 */
export function agentConversations(
  db: Database.Database,
  vdb: VectorDb,
  m: VectorMatrix,
  q: Float32Array,
  agents: readonly Agent[],
  limit: number,
  all = false,
): AgentHit[] {
  const pool = nearest(m, q, Math.max(4 * limit, SEMANTIC_POOL));
  const ids = pool.map((p) => m.ids[p.row]!);
  const visible = all
    ? `m.flags & ${FLAG.copied} = 0`
    : `m.flags & ${OUT_OF_TRANSCRIPT} = 0 AND m.kind NOT IN ${QUIET_KINDS}`;
  const rows = new Map(
    (
      db
        .prepare(
          `${HIT_SQL} WHERE m.id IN (SELECT value FROM json_each(?)) AND ${visible} AND c.agent IN ${inList(agents)}`,
        )
        .all(JSON.stringify(ids)) as HitRow[]
    ).map((r) => [r.id, r]),
  );
  const linked = vdb.unitHashes(indexKey(db), [...rows.keys()]);
  const out = new Map<string, AgentHit>();
  for (const p of pool) {
    const row = rows.get(m.ids[p.row]!);
    if (!row) continue;
    const hash = linked.get(row.id);
    if (!hash || !textHash(canonical(row.text)).equals(hash)) continue;
    const key = convKey(row.agent, row.native_id);
    if (!out.has(key)) out.set(key, { key, row, cos: p.cos });
    if (out.size >= limit) break;
  }
  return [...out.values()];
}

/**
 * The best message by cosine of each conversation in `convIds` (index row ids):
 * what the blend weighs a lexical candidate by. A row's session in the
 * agents' matrix is its conversation's row id (agentsUnitSource).
 */
function conversationCosines(
  db: Database.Database,
  m: VectorMatrix,
  q: Float32Array,
  convIds: readonly number[],
): Map<number, { cos: number; row: HitRow }> {
  const out = new Map<number, { cos: number; row: HitRow }>();
  const byId = db.prepare(`${HIT_SQL} WHERE m.id = ?`);
  for (const [conv, b] of bestRows(m, q, convIds.map(String), () => (session: string) => session)) {
    const row = byId.get(m.ids[b.r]!) as HitRow | undefined;
    if (row) out.set(Number(conv), { cos: b.cos, row });
  }
  return out;
}

/** Conversations each leg hands to the fusion, as over a Hermes store. */
const POOL = 50;
/** Characters of the anchored message shown as a semantic hit's snippet. */
const SNIPPET_CHARS = 200;

/**
 * `lookback search --agent AGENT --mode semantic|hybrid` over the agents'
 * index: the same answer as over a Hermes store (answer.ts semanticSearch),
 * each hit in the agents' shape with `agent` and its anchor as
 * `match_message_id`.
 */
export async function semanticAgentsSearch(
  db: Database.Database,
  agents: readonly Agent[],
  query: string,
  opts: SemanticOptions,
): Promise<Record<string, Json>> {
  const q = query.trim();
  const lexical = (n: number) =>
    searchAgentsJson(db, q, agents, { limit: n, all: opts.all ?? false });
  const said = { model: specOf(opts) };
  let coverage: Coverage = { embedded: 0, messages: 0 };
  let hits: AgentHit[];
  let leg: MeaningLeg;
  const vdb = new VectorDb(opts.vectorsPath ?? vectorsPath());
  try {
    leg = await meaningLeg(vdb, agentsUnitSource(db), q, opts, said);
    coverage = leg.coverage;
    hits = agentConversations(
      db,
      vdb,
      leg.m,
      leg.qv,
      agents,
      opts.mode === 'semantic' ? opts.limit : POOL,
      opts.all,
    );
  } catch (err) {
    if (!(err instanceof EmbedError) || opts.mode === 'semantic') throw err;
    const lex = lexical(opts.limit);
    return {
      ...shape(q, 'lexical', said.model, coverage, lexicalRows(db, lex)),
      mode_requested: 'hybrid',
      fallback_reason: err.message,
    };
  } finally {
    vdb.close();
  }
  const lex = opts.mode === 'hybrid' ? lexicalItems(db, lexical(POOL)) : [];
  // Each candidate conversation's best message by cosine: the blend judges lexical hits on it too.
  const best = conversationCosines(db, leg.m, leg.qv, [
    ...new Set([...lex.map((l) => l.item.row.conv_id), ...hits.map((h) => h.row.conv_id)]),
  ]);
  const convOf = new Map<string, number>();
  for (const l of lex) convOf.set(l.key, l.item.row.conv_id);
  for (const h of hits) convOf.set(h.key, h.row.conv_id);
  const fused = hybrid<Item>(
    lex,
    hits.map((h) => ({
      key: h.key,
      item: { row: h.row, snippet: null, cos: h.cos, relaxed: true },
      cos: h.cos,
    })),
    opts.limit,
    (key) => {
      const b = best.get(convOf.get(key) ?? -1);
      return b
        ? { cos: b.cos, item: { row: b.row, snippet: null, cos: b.cos, relaxed: true } }
        : null;
    },
  );
  const rows: Row[] = fused.map((f) => ({
    row: (f.lexical ?? f.semantic!).row,
    snippet: f.lexical?.snippet ?? null,
    ...whyMatched(f, opts.mode),
  }));
  return { ...shape(q, opts.mode, said.model, coverage, rows), mode_requested: opts.mode };
}

interface Item {
  row: HitRow;
  snippet: string | null;
  cos: number | null;
  relaxed: boolean;
}

interface Row {
  row: HitRow;
  snippet: string | null;
  match: 'relaxed' | 'semantic' | 'lex+sem' | null;
  parts: Record<string, Json>;
}

type Entry = Record<string, Json>;

/** The lexical answer's hits with their index rows (found by agent, conversation and anchor). */
function lexicalItems(
  db: Database.Database,
  answer: Record<string, Json>,
): { key: string; item: Item; exact: boolean }[] {
  const byAnchor = db.prepare(`${HIT_SQL} WHERE c.agent = ? AND c.native_id = ? AND m.anchor = ?`);
  const out: { key: string; item: Item; exact: boolean }[] = [];
  for (const r of (answer.results ?? []) as Entry[]) {
    const row = byAnchor.get(String(r.agent), String(r.session_id), String(r.match_message_id)) as
      HitRow | undefined;
    if (!row) continue;
    const relaxed = r.match === 'relaxed';
    out.push({
      key: convKey(row.agent, row.native_id),
      item: { row, snippet: typeof r.snippet === 'string' ? r.snippet : '', cos: null, relaxed },
      exact: !relaxed,
    });
  }
  return out;
}

function lexicalRows(db: Database.Database, answer: Record<string, Json>): Row[] {
  return lexicalItems(db, answer).map((l, i) => ({
    row: l.item.row,
    snippet: l.item.snippet,
    match: l.item.relaxed ? 'relaxed' : null,
    parts: { lexical_rank: i + 1, semantic_rank: null, cosine: null },
  }));
}

function shape(
  q: string,
  realized: 'lexical' | 'semantic' | 'hybrid',
  model: string,
  coverage: Coverage,
  rows: readonly Row[],
): Record<string, Json> {
  const results = rows.map(({ row: r, snippet, match, parts }) => {
    const entry: Entry = {
      session_id: r.native_id,
      when: isoTime(r.started_at === null ? null : r.started_at / 1000),
      source: r.source ?? r.agent,
      model: r.model ?? 'unknown',
      title: r.title,
      matched_role: r.role,
      match_message_id: r.anchor,
      // A semantic hit has no matched words: the head of the message it anchors to.
      snippet: sanitize(snippet ?? r.text.replace(/\s+/g, ' ').slice(0, SNIPPET_CHARS)),
      agent: r.agent,
    };
    if (r.parent_native_id) entry.parent_session_id = r.parent_native_id;
    if (r.gone) entry.gone = true;
    if (r.flags & TAKEN_BACK) entry.taken_back = true;
    if (match) entry.match = match;
    entry.score_parts = parts;
    return entry;
  });
  return meaningEnvelope(q, realized, model, coverage, results);
}
