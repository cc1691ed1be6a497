/**
 * EXPERIMENT (LOOKBACK_RECALL_EXPERIMENTS=1), not shipped: rank the relaxed
 * leg's conversations, not messages. Measured: paraphrase Recall@10 0.40 →
 * 0.63 (b 0.75), but 0.19 once the two-message needles are padded to the
 * corpus's mean length (LOOKBACK_RECALL_PAD=10): the gain was the length
 * normalisation favouring short conversations, which a real history does not
 * reward. Kept so the finding can be re-run.
 *
 * A remembered question rarely shares more than one word with any single
 * message: "https certificate on staging lapsed" has `staging` in the user's
 * message and `certificate` in the assistant's reply. BM25 over messages then
 * ranks every message that says `staging` often above both. So each word is
 * ranked on its own (its best messages by BM25, which carries the word's
 * rarity), and a conversation scores the sum over the words it holds of its
 * best message's score for that word: the conversation as one document, the
 * way a person remembers it. The anchor is the conversation's message with the
 * most of the words (the highest sum of its own scores).
 */

/** One message's BM25 for one word, higher is better (FTS5's rank negated). */
export interface TermHit {
  id: number;
  score: number;
}

export interface RankSource {
  /** The best `n` messages for an FTS5 expression, best first. */
  top(match: string, n: number): TermHit[];
  /** The conversation (lineage root) of each message that passes the search's filters. */
  roots(ids: readonly number[]): Map<number, string>;
  /** Messages in each conversation, and on average: long conversations hold more words by chance. */
  sizes?(roots: readonly string[]): { size: Map<string, number>; mean: number };
}

export interface RankedConversation {
  root: string;
  /** The anchor: the message holding the most of the words. */
  id: number;
  score: number;
  /** How many of the words the conversation holds. */
  terms: number;
}

/** Messages ranked per word: deep enough for a rare word, cheap for a common one (its doclist is read once either way). */
export const PER_TERM = 400;

/**
 * Conversations for `optional` words (each an FTS5 term or phrase), every
 * one of them also holding all of `required` (identifiers, quoted phrases).
 */
export function rankConversations(
  src: RankSource,
  required: readonly string[],
  optional: readonly string[],
  perTerm = PER_TERM,
  b = 0,
): RankedConversation[] {
  const lists = optional.map((t) =>
    src.top(required.length ? `${required.join(' AND ')} AND ${t}` : t, perTerm),
  );
  const ids = new Set<number>();
  for (const l of lists) for (const h of l) ids.add(h.id);
  const rootOf = src.roots([...ids]);
  // Per conversation: the best score for each word; per message: the sum of its words' scores.
  const best = new Map<string, Float64Array>();
  const own = new Map<number, number>();
  lists.forEach((list, t) => {
    for (const h of list) {
      const root = rootOf.get(h.id);
      if (root === undefined) continue;
      let row = best.get(root);
      if (!row) best.set(root, (row = new Float64Array(optional.length)));
      if (h.score > row[t]!) row[t] = h.score;
      own.set(h.id, (own.get(h.id) ?? 0) + h.score);
    }
  });
  const anchor = new Map<string, { id: number; s: number }>();
  for (const [id, s] of own) {
    const root = rootOf.get(id)!;
    const a = anchor.get(root);
    if (!a || s > a.s || (s === a.s && id < a.id)) anchor.set(root, { id, s });
  }
  const out: RankedConversation[] = [];
  const sz = b > 0 && src.sizes ? src.sizes([...best.keys()]) : null;
  for (const [root, row] of best) {
    let score = 0;
    let terms = 0;
    for (const v of row)
      if (v > 0) {
        score += v;
        terms++;
      }
    if (sz) score /= 1 - b + (b * (sz.size.get(root) ?? sz.mean)) / sz.mean;
    out.push({ root, id: anchor.get(root)!.id, score, terms });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}
