/** Runs every mode over the questions and formats the figures as a Markdown table. */
import type { Qrel } from './corpus.js';
import { K, score, type Ranked, type StratumScore } from './metrics.js';
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
    '| mode | paraphrase tune: R@10 / MRR@10 / nDCG@10 | paraphrase held-out: R@10 / MRR@10 / nDCG@10 |',
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
      return s ? `${f2(s.recall)} / ${f2(s.mrr)} / ${f2(s.ndcg)} (n ${s.queries})` : '–';
    };
    lines.push(`| ${r.mode.name} | ${cell('tune')} | ${cell('held')} |`);
  }
  return lines.join('\n');
}

export function report(qrels: readonly Qrel[], modes: readonly Mode[]): string {
  const results = runModes(qrels, modes);
  return `${table(results)}\n\n${halves(qrels, results)}`;
}

/**
 * The headroom on the tune half: for each tune paraphrase, its conversation's rank (1–10, or
 * "–") in relaxed, in semantic:NAME and in each fusion over NAME; then how many relaxed
 * misses the semantic leg finds, and how many relaxed hits each fusion pushes out.
 */
export function headroom(qrels: readonly Qrel[], modes: readonly Mode[], name: string): string {
  const relaxed = modes.find((m) => m.name === 'relaxed')!;
  const sem = modes.find((m) => m.name === `semantic:${name}`)!;
  const fusions = modes.filter(
    (m) => m !== sem && (m.name.endsWith(`:${name}`) || m.name.includes(`:${name}:`)),
  );
  const qs = qrels.filter((q) => q.half === 'tune' && q.stratum === 'paraphrase');
  const rank = (m: Mode, q: Qrel): number => {
    const at = m
      .search(q.query)
      .slice(0, K)
      .findIndex((r) => r.root === q.session);
    return at < 0 ? 0 : at + 1;
  };
  // Past the page: the rank in each leg's 50 (what a fusion can still lift), "r (deep)".
  const deepRank = (m: Mode, q: Qrel): string => {
    const at = (m.deep?.(q.query, 50) ?? []).findIndex((r) => r.root === q.session);
    return at < 0 ? '' : ` (${at + 1})`;
  };
  const cell = (r: number): string => (r ? String(r) : '–');
  const lines = [
    `| tune paraphrase | relaxed | semantic:${name} | ${fusions.map((f) => f.name).join(' | ')} |`,
    `|---|---|---|${fusions.map(() => '---|').join('')}`,
  ];
  let headroomN = 0;
  const pushed = fusions.map(() => 0);
  const gained = fusions.map(() => 0);
  for (const q of qs) {
    const r = rank(relaxed, q);
    const s = rank(sem, q);
    if (!r && s) headroomN++;
    const fr = fusions.map((f, i) => {
      const x = rank(f, q);
      if (r && !x) pushed[i]!++;
      if (!r && x) gained[i]!++;
      return x;
    });
    lines.push(
      `| ${q.query} | ${cell(r)}${r ? '' : deepRank(relaxed, q)} | ${cell(s)}${s ? '' : deepRank(sem, q)} | ${fr.map((x, i) => `${cell(x)} ${fusions[i]!.note?.(q.query) ?? ''}`).join(' | ')} |`,
    );
  }
  lines.push(
    '',
    `tune paraphrases relaxed misses that semantic:${name} finds in its top 10: ${headroomN} of ${qs.length}`,
    ...fusions.map(
      (f, i) =>
        `${f.name}: gains ${gained[i]} relaxed misses, pushes out ${pushed[i]} relaxed hits`,
    ),
  );
  return lines.join('\n');
}
