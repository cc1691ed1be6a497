/**
 * One seam between the recall commands and `--host` (src/cli/hosts.ts): every
 * answer and every one-line failure the recall commands print passes through
 * the hook when one is set, which tags it with its host, or keeps it to merge
 * the answers of several hosts. Without a hook nothing changes.
 */
import type { Json } from '../store/recall.js';

export interface AnswerHook {
  /** The payload to print, or null when the hook keeps it. */
  payload(kind: string, p: Record<string, Json>): Record<string, Json> | null;
  /** True when the hook keeps the failure (it is then not printed). */
  failure(message: string): boolean;
}

// On a global symbol: dist/cli.cjs and the lazily loaded chunks each bundle their own copy of this module.
const KEY = Symbol.for('lookback.answerHook');
const slot = globalThis as { [KEY]?: AnswerHook | null };

export async function withAnswerHook<T>(hook: AnswerHook, run: () => Promise<T>): Promise<T> {
  const saved = slot[KEY] ?? null;
  slot[KEY] = hook;
  try {
    return await run();
  } finally {
    slot[KEY] = saved;
  }
}

export function hookPayload(kind: string, p: Record<string, Json>): Record<string, Json> | null {
  const h = slot[KEY];
  return h ? h.payload(kind, p) : p;
}

export function hookFailure(message: string): boolean {
  const h = slot[KEY];
  return h ? h.failure(message) : false;
}
