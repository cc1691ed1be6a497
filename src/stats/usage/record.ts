/**
 * One usage record as an agent's file holds it, before de-duplication: the
 * tokens of one model call, a key that names that call across files (a resumed
 * Claude session copies earlier calls into its new file, a Codex fork copies
 * its parent's lines, a Gemini chat exists as a legacy `.json` and its
 * `.jsonl` twin), and whether it is a side copy that loses to the main one.
 */
import type { Tokens } from '../model.js';

export interface UsageRecord extends Tokens {
  key: string;
  /** Epoch seconds. */
  at: number;
  model: string;
  /** 1 for a sidechain (a Claude subagent's copy): the main record wins a tie on its key. */
  side: number;
  /** A cost the agent records with the call (opencode), else null. */
  cost: number | null;
}

export const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;

export const rec = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** Epoch seconds of any RFC 3339 time (microseconds, offsets) or epoch number; null when none. */
export function seconds(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e12 ? v / 1000 : v;
  if (typeof v !== 'string') return null;
  // Date.parse takes at most milliseconds in every engine: cut longer fractions.
  const t = Date.parse(v.trim().replace(/(\.\d{3})\d+/, '$1'));
  return Number.isFinite(t) ? t / 1000 : null;
}

/** Each JSON line of a JSONL file, parsed; lines that are not JSON objects are skipped. */
export function* jsonLines(text: string): Generator<[Record<string, unknown>, number]> {
  let n = 0;
  for (const line of text.split('\n')) {
    n++;
    if (line.trim() === '') continue;
    try {
      const v = rec(JSON.parse(line));
      if (v) yield [v, n];
    } catch {
      /* a torn last line or a broken one: the agent's problem, not a count */
    }
  }
}
