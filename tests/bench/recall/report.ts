/** Runs every mode over the questions and formats the figures as a Markdown table. */
import type { Qrel } from './corpus.js';
import { score, type StratumScore } from './metrics.js';
import type { Mode } from './modes.js';

export interface ModeScores {
  mode: Mode;
  strata: StratumScore[];
  /** Median milliseconds per question. */
  ms: number;
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
    return { mode, strata: score(qrels, answers), ms: times[Math.floor(times.length / 2)] ?? 0 };
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

export function report(qrels: readonly Qrel[], modes: readonly Mode[]): string {
  return table(runModes(qrels, modes));
}
