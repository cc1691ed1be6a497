/**
 * Reciprocal-rank fusion (cass and agentsview, k = 60): a conversation's
 * fused score is the sum over the legs that found it of 1 / (k + rank), the
 * semantic leg's times a weight. Ranks need no common scale, so BM25 and
 * cosine never have to be compared.
 */
export const RRF_K = 60;

/** The RRF hybrid shipped before 2026-11-26 evening (`hybridRrf`): k 10, semantic weight 0.2. */
export const HYBRID_K = 10;
/** How much a semantic rank counts against a lexical one in `hybridRrf` (1: plain RRF). */
export const SEMANTIC_WEIGHT = 0.2;

export interface Fused<T> {
  key: string;
  fused: number;
  /** 1-based rank in each leg, null when that leg did not find it. */
  lexical_rank: number | null;
  semantic_rank: number | null;
  lexical: T | null;
  semantic: T | null;
  /** Score fusions: the semantic weight this query got, and the standout it was judged on. */
  semantic_weight?: number;
  standout?: number;
  /** Placed in one of the page's last slots kept for the semantic leg's best (`Reserve`), not by its fused score. */
  reserved?: true;
}

export function rrf<T>(
  lexical: readonly { key: string; item: T }[],
  semantic: readonly { key: string; item: T }[],
  k = RRF_K,
  semanticWeight = 1,
): Fused<T>[] {
  const by = new Map<string, Fused<T>>();
  const get = (key: string): Fused<T> => {
    let f = by.get(key);
    if (!f)
      by.set(
        key,
        (f = {
          key,
          fused: 0,
          lexical_rank: null,
          semantic_rank: null,
          lexical: null,
          semantic: null,
        }),
      );
    return f;
  };
  lexical.forEach(({ key, item }, i) => {
    const f = get(key);
    if (f.lexical_rank !== null) return;
    f.lexical_rank = i + 1;
    f.lexical = item;
    f.fused += 1 / (k + i + 1);
  });
  semantic.forEach(({ key, item }, i) => {
    const f = get(key);
    if (f.semantic_rank !== null) return;
    f.semantic_rank = i + 1;
    f.semantic = item;
    f.fused += semanticWeight / (k + i + 1);
  });
  // Ties (one leg each at the same rank): the lexical one first, since exact words rarely lie.
  return [...by.values()].sort(
    (a, b) =>
      b.fused - a.fused ||
      (a.lexical_rank ?? Infinity) - (b.lexical_rank ?? Infinity) ||
      (a.semantic_rank ?? Infinity) - (b.semantic_rank ?? Infinity),
  );
}

/**
 * The RRF hybrid (before the confident blend, kept for the benchmark's
 * before/after): the conversations with every word (exact hits) first, in the
 * lexical order, as the relaxed leg keeps them apart; the rest of the page is
 * the weighted RRF (HYBRID_K, SEMANTIC_WEIGHT) of the relaxed hits and the
 * semantic leg. So an identifier, a path or a quoted phrase that is found keeps
 * its place, and only the "closest" part of the page is fused.
 */
export function hybridRrf<T>(
  lexical: readonly { key: string; item: T; exact: boolean }[],
  semantic: readonly { key: string; item: T }[],
  limit: number,
  k = HYBRID_K,
  semanticWeight = SEMANTIC_WEIGHT,
): Fused<T>[] {
  const fused = rrf(lexical, semantic, k, semanticWeight);
  const exact = new Set(lexical.filter((l) => l.exact).map((l) => l.key));
  const head = fused
    .filter((f) => exact.has(f.key))
    .sort((a, b) => a.lexical_rank! - b.lexical_rank!);
  return [...head, ...fused.filter((f) => !exact.has(f.key))].slice(0, limit);
}

/**
 * How far the semantic leg's best candidate stands out from the others, in
 * standard deviations: (best − mean) / sd of the candidates' cosines (the best
 * message of every conversation either leg found). A model that understands
 * the question puts one or two conversations well above the rest; a weak one
 * (a corpus embedder that mostly echoes word overlap) scores the lexical
 * leg's candidates about as high as its own, so its best barely stands out.
 * 0 with fewer than three candidates or no spread.
 */
export function semanticStandout(cosines: readonly number[]): number {
  if (cosines.length < 3) return 0;
  let sum = 0;
  let best = -Infinity;
  for (const c of cosines) {
    sum += c;
    if (c > best) best = c;
  }
  const mean = sum / cosines.length;
  let v = 0;
  for (const c of cosines) v += (c - mean) ** 2;
  const sd = Math.sqrt(v / cosines.length);
  return sd > 1e-9 ? (best - mean) / sd : 0;
}

/** The semantic weight's ramp: none below `from` standard deviations, all of `alpha` from `to`. */
export interface Confidence {
  from: number;
  to: number;
}

/**
 * The page's last `slots` places, kept for the semantic leg's best
 * conversations (semantic rank ≤ `within`) that the blend left off the page's
 * first limit − slots; when there are none, the blend's own order fills them.
 * Exact hits are never displaced: the reserve only takes places after them.
 */
export interface Reserve {
  slots: number;
  within: number;
}

/**
 * Hybrid by scores instead of ranks: every candidate conversation (either
 * leg's) is scored as (1 − α) × its lexical rank score 1 / (1 + (rank − 1) / k)
 * (0 when the lexical leg did not find it) plus α × its similarity, the best
 * cosine of any of its messages, min–max normalised over the candidates (so a
 * conversation the lexical leg found gets its similarity too, not only those
 * in the semantic leg's top). RRF throws the cosine away and keeps the rank;
 * a weak model's rank 3 and rank 30 are often the same distance from the
 * query, and a strong model's are not. Exact hits stay first, in lexical order.
 */
export function blend<T>(
  lexical: readonly { key: string; item: T; exact: boolean }[],
  semantic: readonly { key: string; item: T }[],
  cosOf: (key: string) => { cos: number; item: T } | null,
  limit: number,
  alpha: number,
  k: number,
  /** Scale alpha by how much the semantic leg's best stands out (`semanticStandout`); absent: alpha as given. */
  confidence?: Confidence,
  /** The page's last places kept for the semantic leg's best (`Reserve`); absent: none. */
  reserve?: Reserve,
): Fused<T>[] {
  const fused = rrf(lexical, semantic, k, 1);
  const cos = new Map<string, number>();
  for (const f of fused) {
    const c = cosOf(f.key);
    if (c) {
      cos.set(f.key, c.cos);
      f.semantic ??= c.item;
    }
  }
  const vals = [...cos.values()];
  const lo = Math.min(...vals);
  const span = Math.max(...vals) - lo || 1;
  const z = semanticStandout(vals);
  const a = confidence
    ? alpha *
      Math.min(1, Math.max(0, (z - confidence.from) / (confidence.to - confidence.from || 1e-9)))
    : alpha;
  for (const f of fused) {
    const lex = f.lexical_rank === null ? 0 : 1 / (1 + (f.lexical_rank - 1) / k);
    const c = cos.get(f.key);
    f.fused = (1 - a) * lex + a * (c === undefined ? 0 : (c - lo) / span);
    f.semantic_weight = a;
    f.standout = z;
  }
  const exact = new Set(lexical.filter((l) => l.exact).map((l) => l.key));
  const head = fused
    .filter((f) => exact.has(f.key))
    .sort((a, b) => a.lexical_rank! - b.lexical_rank!);
  const rest = fused.filter((f) => !exact.has(f.key)).sort(byFused);
  const page = [...head, ...rest];
  return reserve ? withReserve(page, head.length, limit, reserve) : page.slice(0, limit);
}

/** Higher fused score first; ties: the lexical leg's rank, then the semantic leg's. */
function byFused<T>(a: Fused<T>, b: Fused<T>): number {
  return (
    b.fused - a.fused ||
    (a.lexical_rank ?? Infinity) - (b.lexical_rank ?? Infinity) ||
    (a.semantic_rank ?? Infinity) - (b.semantic_rank ?? Infinity)
  );
}

/** `page` (exact hits, then the blend's order) cut to `limit`, its last places kept as `reserve` says. */
function withReserve<T>(
  page: Fused<T>[],
  exact: number,
  limit: number,
  reserve: Reserve,
): Fused<T>[] {
  const slots = Math.max(0, Math.min(reserve.slots, limit - exact));
  const top = page.slice(0, limit - slots);
  const on = new Set(top.map((f) => f.key));
  const best = page
    .filter((f) => !on.has(f.key) && f.semantic_rank !== null && f.semantic_rank <= reserve.within)
    .sort((a, b) => a.semantic_rank! - b.semantic_rank!)
    .slice(0, slots);
  // Marked only when the reserve is what put it on the page.
  const blendPage = new Set(page.slice(0, limit).map((f) => f.key));
  for (const f of best) {
    if (!blendPage.has(f.key)) f.reserved = true;
    on.add(f.key);
  }
  const fill = page.filter((f) => !on.has(f.key)).slice(0, slots - best.length);
  // The kept places in fused order too, so the page's scores never rise down the page.
  return [...top, ...[...best, ...fill].sort(byFused)].slice(0, limit);
}

/**
 * The shipped hybrid's blend (tests/bench/recall/README.md, "The confident
 * blend" and "Two places kept for the semantic leg"): the softest ramp that lost no
 * paraphrase Recall@10 to relaxed lexical with RI, corpus LSA or USE-lite,
 * and the page's last two places kept for the semantic leg's top three
 * (HYBRID_RESERVE). The ramp alone tied relaxed on USE-lite's tune half (0.71):
 * its one tune paraphrase that only the semantic leg finds (its rank 2, relaxed
 * 26) stood out by 2.5 sd, too little for weight. The reserve was chosen on
 * the tune half only.
 */
export const HYBRID_ALPHA = 0.5;
export const HYBRID_BLEND_K = 10;
export const HYBRID_CONFIDENCE: Confidence = { from: 2, to: 4 };
export const HYBRID_RESERVE: Reserve = { slots: 2, within: 3 };

/**
 * Hybrid, as every door serves it: exact hits (every word) first in lexical
 * order, then the confident blend of the relaxed hits and the semantic leg:
 * `blend` with HYBRID_ALPHA scaled by how far the semantic leg's best
 * candidate stands out (HYBRID_CONFIDENCE). A real sentence model's clear
 * answer gets the weight; a weak embedder's flat scores leave relaxed lexical's
 * order nearly as it was. The page's last HYBRID_RESERVE.slots places go to
 * the semantic leg's top HYBRID_RESERVE.within conversations the blend left off
 * (`Reserve`): what the semantic leg is surest of is always shown, whatever its
 * standout, at the cost of the blend's last places (never an exact hit's).
 *
 * `cosOf` gives any candidate conversation its best cosine (`conversationCosines`),
 * so one the lexical leg found is judged on its similarity too; without it only
 * the semantic leg's own `cos` are known.
 */
export function hybrid<T>(
  lexical: readonly { key: string; item: T; exact: boolean }[],
  semantic: readonly { key: string; item: T; cos: number }[],
  limit: number,
  cosOf?: (key: string) => { cos: number; item: T } | null,
): Fused<T>[] {
  const own = new Map(semantic.map((s) => [s.key, { cos: s.cos, item: s.item }]));
  return blend(
    lexical,
    semantic,
    cosOf ?? ((key) => own.get(key) ?? null),
    limit,
    HYBRID_ALPHA,
    HYBRID_BLEND_K,
    HYBRID_CONFIDENCE,
    HYBRID_RESERVE,
  );
}
