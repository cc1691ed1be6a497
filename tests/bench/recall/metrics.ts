/** Session-level ranking metrics of the recall benchmark, per stratum. */
import type { Qrel } from './corpus.js';

/** One ranked answer: the conversation (lineage root) and the anchored message, best first. */
export interface Ranked {
  root: string;
  message: number;
  /** The hit came from the relaxed (not every word) or semantic leg, not from an exact match. */
  relaxed: boolean;
}

export interface StratumScore {
  stratum: string;
  queries: number;
  /** Share of questions whose conversation is in the top 10. */
  recall: number;
  mrr: number;
  ndcg: number;
  /** Share of found conversations anchored on the very message asked about. */
  anchor: number;
  /** For no-answer questions: share answered with exact hits (wrong), and with anything at all. */
  exactHits: number;
  anyHits: number;
}

export const K = 10;

export function score(qrels: readonly Qrel[], answers: readonly Ranked[][]): StratumScore[] {
  const by = new Map<string, { q: Qrel; a: Ranked[] }[]>();
  qrels.forEach((q, i) => {
    const list = by.get(q.stratum) ?? [];
    list.push({ q, a: (answers[i] ?? []).slice(0, K) });
    by.set(q.stratum, list);
  });
  const out: StratumScore[] = [];
  for (const [stratum, list] of by) {
    let found = 0;
    let rr = 0;
    let gain = 0;
    let anchored = 0;
    let exact = 0;
    let any = 0;
    for (const { q, a } of list) {
      if (a.length > 0) any++;
      if (a.some((r) => !r.relaxed)) exact++;
      if (q.session === null) continue;
      const at = a.findIndex((r) => r.root === q.session);
      if (at < 0) continue;
      found++;
      rr += 1 / (at + 1);
      gain += 1 / Math.log2(at + 2);
      if (a[at]!.message === q.message) anchored++;
    }
    const n = list.length;
    out.push({
      stratum,
      queries: n,
      recall: found / n,
      mrr: rr / n,
      ndcg: gain / n,
      anchor: found === 0 ? 0 : anchored / found,
      exactHits: exact / n,
      anyHits: any / n,
    });
  }
  const order = ['exact', 'paraphrase', 'identifier', 'error', 'cjk', 'crosslingual', 'none'];
  return out.sort((a, b) => order.indexOf(a.stratum) - order.indexOf(b.stratum));
}
