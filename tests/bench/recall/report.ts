/** Runs every mode over the questions and formats the figures as a Markdown table. */
import type { Qrel } from './corpus.js';
import { score, type Ranked, type StratumScore } from './metrics.js';
import type { Mode } from './modes.js';

export interface ModeScores {
  mode: Mode;
  strata: StratumScore[];
  /** Median milliseconds per question. */
  ms: number;
  /** Each question's answer, in the order of the questions. */
  answers: Ranked[][];
}

export function runModes(qrels: readonly Qrel[], modes: readonly Mode[]): ModeScores[] {
  return modes.map((mode) => {
    const times: number[] = [];
    const answers = qrels.map((q) => {
      const t = performance.now();
      const a = mode.search(q.query);
      times.push(performance.now() - t);
      return a;
    });
    times.sort((a, b) => a - b);
    return {
      mode,
      strata: score(qrels, answers),
      ms: times[Math.floor(times.length / 2)] ?? 0,
      answers,
    };
  });
}

const f2 = (x: number): string => x.toFixed(2);

export function table(results: readonly ModeScores[]): string {
  const lines = [
    '| mode | stratum | n | Recall@10 | MRR@10 | nDCG@10 | anchor | no-answer: exact / any |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results)
    for (const s of r.strata)
      lines.push(
        s.stratum === 'none'
          ? `| ${r.mode.name} | none | ${s.queries} | – | – | – | – | ${f2(s.exactHits)} / ${f2(s.anyHits)} |`
          : `| ${r.mode.name} | ${s.stratum} | ${s.queries} | ${f2(s.recall)} | ${f2(s.mrr)} | ${f2(s.ndcg)} | ${f2(s.anchor)} | |`,
      );
  lines.push(
    '',
    ...results.map(
      (r) => `- ${r.mode.name} (median ${r.ms.toFixed(1)} ms a question): ${r.mode.about}`,
    ),
  );
  return lines.join('\n');
}

/** Paraphrase Recall@10 / MRR@10 on each half of the needles (corpus.ts `half`). */
export function halves(qrels: readonly Qrel[], results: readonly ModeScores[]): string {
  const lines = [
    '| mode | paraphrase tune: R@10 / MRR@10 | paraphrase held-out: R@10 / MRR@10 |',
    '|---|---|---|',
  ];
  for (const r of results) {
    const cell = (half: 'tune' | 'held'): string => {
      const idx = qrels.flatMap((q, i) =>
        q.half === half && q.stratum === 'paraphrase' ? [i] : [],
      );
      const s = score(
        idx.map((i) => qrels[i]!),
        idx.map((i) => r.answers[i]!),
      )[0];
      return s ? `${f2(s.recall)} / ${f2(s.mrr)} (n ${s.queries})` : '–';
    };
    lines.push(`| ${r.mode.name} | ${cell('tune')} | ${cell('held')} |`);
  }
  return lines.join('\n');
}

export function report(qrels: readonly Qrel[], modes: readonly Mode[]): string {
  const results = runModes(qrels, modes);
  return `${table(results)}\n\n${halves(qrels, results)}`;
}
