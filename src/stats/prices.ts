/**
 * The price table lookback uses where a source records no cost: US dollars per
 * million tokens, from the vendors' public price pages (Anthropic, OpenAI,
 * Google, DeepSeek). The figures are the standard tier's list prices as those
 * pages gave them in late 2025 (PRICES_DATE is when the table was written; it
 * was not re-checked online since, so a price changed since then is not here);
 * cache write is the 5-minute write price. Reasoning tokens are billed as
 * output. A model not matched here is reported as "no price", never $0.
 * `LOOKBACK_PRICES` names a JSON file ({"model-prefix": {"input":…, "output":…,
 * "cacheRead":…, "cacheWrite":…}}) whose entries replace or add to these.
 */
import { readFileSync } from 'node:fs';
import type { Tokens } from './model.js';

export const PRICES_DATE = '2025-11-24';
export const PRICES_SOURCE =
  'vendor list prices (anthropic.com/pricing, openai.com/api/pricing, ai.google.dev/pricing, api-docs.deepseek.com)';

export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const p = (input: number, output: number, cacheRead: number, cacheWrite = input): Price => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

/** Keyed by a model name's prefix after normalizing (see `normalModel`); the longest match wins. */
const TABLE: Record<string, Price> = {
  'claude-opus-4-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-1': p(15, 75, 1.5, 18.75),
  'claude-opus-4': p(15, 75, 1.5, 18.75),
  'claude-sonnet-4-5': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4': p(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': p(3, 15, 0.3, 3.75),
  'claude-3-5-sonnet': p(3, 15, 0.3, 3.75),
  'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
  'gpt-5-codex': p(1.25, 10, 0.125),
  'gpt-5-mini': p(0.25, 2, 0.025),
  'gpt-5-nano': p(0.05, 0.4, 0.005),
  'gpt-5': p(1.25, 10, 0.125),
  'gpt-4.1-mini': p(0.4, 1.6, 0.1),
  'gpt-4.1': p(2, 8, 0.5),
  'gpt-4o-mini': p(0.15, 0.6, 0.075),
  'gpt-4o': p(2.5, 10, 1.25),
  o3: p(2, 8, 0.5),
  'o4-mini': p(1.1, 4.4, 0.275),
  'gemini-2.5-pro': p(1.25, 10, 0.125),
  'gemini-2.5-flash-lite': p(0.1, 0.4, 0.01),
  'gemini-2.5-flash': p(0.3, 2.5, 0.03),
  'deepseek-v3': p(0.27, 1.1, 0.07),
  'deepseek-chat': p(0.27, 1.1, 0.07),
};

/**
 * A model name as the table keys it: no provider prefix (`anthropic/`,
 * `openai/`), lower case, dots between version digits as dashes for Claude
 * (`claude-sonnet-4.5` and `claude-sonnet-4-5-20250929` are one model).
 */
export function normalModel(model: string): string {
  let m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  if (slash >= 0) m = m.slice(slash + 1);
  if (m.startsWith('claude')) m = m.replace(/(\d)\.(\d)/g, '$1-$2');
  return m;
}

let overrides: Record<string, Price> | null = null;
let overridesFrom: string | undefined;

function table(env: NodeJS.ProcessEnv): Record<string, Price> {
  const file = env.LOOKBACK_PRICES;
  if (!file) return TABLE;
  if (overridesFrom !== file) {
    overridesFrom = file;
    overrides = {};
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Partial<Price>>;
    for (const [k, v] of Object.entries(raw)) {
      const input = Number(v.input);
      const output = Number(v.output);
      if (!Number.isFinite(input) || !Number.isFinite(output))
        throw new Error(`${file}: "${k}" needs numeric input and output prices`);
      overrides[normalModel(k)] = p(
        input,
        output,
        Number.isFinite(Number(v.cacheRead)) ? Number(v.cacheRead) : input,
        Number.isFinite(Number(v.cacheWrite)) ? Number(v.cacheWrite) : input,
      );
    }
  }
  return { ...TABLE, ...overrides };
}

/** The price of a model, or null when the table has none. */
export function priceOf(model: string, env: NodeJS.ProcessEnv = process.env): Price | null {
  const m = normalModel(model);
  const t = table(env);
  let best: string | null = null;
  for (const key of Object.keys(t))
    if (
      (m === key ||
        m.startsWith(key + '-') ||
        m.startsWith(key + '.') ||
        m.startsWith(key + ':') ||
        m.startsWith(key + '@')) &&
      (!best || key.length > best.length)
    )
      best = key;
  return best ? t[best]! : null;
}

/** Dollars for these tokens at `price`. */
export function costOf(t: Tokens, price: Price): number {
  return (
    (t.input * price.input +
      (t.output + t.reasoning) * price.output +
      t.cacheRead * price.cacheRead +
      t.cacheWrite * price.cacheWrite) /
    1e6
  );
}
