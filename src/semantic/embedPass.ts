/**
 * The embed pass over any source of messages (a Hermes store, lookback's
 * agents' index): incremental (it goes on after the last message linked),
 * resumable, with progress, and by content: a text whose hash already has a
 * vector of this model (from any source, or before a rebuild) is linked, not
 * embedded again.
 */
import { EMBED_BATCH } from '../budgets.js';
import type { Embedder } from './types.js';
import { canonical, textHash, type VectorDb } from './vectors.js';

/** Messages read per page: each page is one short read, nothing held between them. */
const PAGE = 512;

export interface EmbedProgress {
  done: number;
  total: number;
  /** Texts embedded (the rest were already there under another message id). */
  embedded: number;
  docsPerSecond: number;
  model: string;
}

/** A message to embed: its id in the source, the conversation it groups under, its text. */
export interface UnitRow {
  id: number;
  session_id: string;
  content: string;
}

/** What the pass reads from a source, each a short read. */
export interface UnitSource {
  /** The units' namespace in vectors.db (src/ids/units.ts). */
  key: string;
  /** Messages to embed after id `after`, in id order, at most `n`. */
  page(after: number, n: number): UnitRow[];
  /** The same rows by id (units whose vectors another model made). */
  byIds(ids: readonly number[]): UnitRow[];
  /** How many messages to embed there are after id `after`. */
  countAfter(after: number): number;
  /**
   * Before a pass: drops units that no longer name the source's messages (the
   * agents' index renumbers its own; a Hermes store never does).
   */
  check?(vdb: VectorDb): void;
}

/**
 * How many of the source's messages are linked to a vector (`done`) of how
 * many are embedded at all (`total`), counted without reading every message.
 */
export function unitCounts(src: UnitSource, vdb: VectorDb): { done: number; total: number } {
  const done = vdb.unitCount(src.key);
  return { done, total: done + src.countAfter(vdb.lastUnit(src.key)) };
}

/** vectors.db, source and fingerprint whose units all have vectors (checked in this process). */
const missingChecked = new Set<string>();

/**
 * Embeds the source's messages that have no vector yet; returns the last
 * progress. With `until` (a performance.now() time) it stops after the page
 * that passes it, at least one page done: `done < total` then says how far it got.
 */
export async function embedUnits(
  src: UnitSource,
  vdb: VectorDb,
  embedder: Embedder,
  onProgress: (p: EmbedProgress) => void = () => {},
  until = Infinity,
): Promise<EmbedProgress> {
  src.check?.(vdb);
  const { key } = src;
  const fp = embedder.fingerprint;
  let after = vdb.lastUnit(key);
  const counts = unitCounts(src, vdb);
  let done = counts.done;
  const total = counts.total;
  // Units linked before whose vectors were never made (another embedder's units): looked for
  // once per process, source and model (a join over every unit; a warm search must not pay it).
  const checked = `${vdb.path}\n${key}\n${fp}`;
  const missing = missingChecked.has(checked)
    ? []
    : (vdb.db
        .prepare(
          `SELECT u.message_id FROM units u LEFT JOIN vectors v ON v.fingerprint = ? AND v.hash = u.hash
           WHERE u.store = ? AND v.hash IS NULL`,
        )
        .pluck()
        .all(fp, key) as number[]);
  const t0 = performance.now();
  let embedded = 0;
  const progress = (): EmbedProgress => ({
    done,
    total,
    embedded,
    docsPerSecond: embedded / Math.max(1e-3, (performance.now() - t0) / 1000),
    model: embedder.id,
  });
  async function embedTexts(texts: string[]): Promise<void> {
    const todo = new Map<string, Buffer>();
    for (const t of texts) {
      const h = textHash(t);
      if (!todo.has(t) && !vdb.hasVector(fp, h)) todo.set(t, h);
    }
    const list = [...todo];
    for (let i = 0; i < list.length; i += EMBED_BATCH) {
      const part = list.slice(i, i + EMBED_BATCH);
      const vecs = await embedder.embed(
        part.map(([t]) => t),
        'doc',
      );
      vdb.addVectors(
        fp,
        part.map(([, hash], j) => ({ hash, vec: vecs[j]! })),
      );
      embedded += part.length;
    }
  }
  // Their texts are gone from units (only hashes are kept): re-read them from the source.
  for (let i = 0; i < missing.length; i += PAGE) {
    await embedTexts(src.byIds(missing.slice(i, i + PAGE)).map((r) => canonical(r.content)));
    if (performance.now() >= until) return progress();
  }
  missingChecked.add(checked);
  for (;;) {
    const rows = src.page(after, PAGE);
    if (rows.length === 0) break;
    const texts = rows.map((r) => canonical(r.content));
    await embedTexts(texts);
    // Units after their vectors: an interrupted pass resumes from the last linked message.
    vdb.addUnits(
      key,
      rows.map((r, i) => ({ id: r.id, session_id: r.session_id, hash: textHash(texts[i]!) })),
    );
    after = rows.at(-1)!.id;
    done += rows.length;
    onProgress(progress());
    if (performance.now() >= until) break;
  }
  return progress();
}
