/**
 * What `lookback stats` counts, before it is summed: activity in five-minute
 * slots per conversation (so active time over any group is the number of
 * distinct slots, never two conversations' minutes counted twice), and token
 * usage per model at the time it was recorded. Each source (a Hermes store,
 * the agents' index, an agent's own usage records) yields these rows; the sum
 * (sum.ts) and the drawing (render.ts) know nothing of where they came from.
 */

/** Seconds in one activity slot: active time is counted in these. */
export const SLOT_SECONDS = 300;

export interface ActivityRow {
  agent: string;
  /** A Hermes profile; null for the other agents. */
  profile: string | null;
  host: string;
  /** One conversation (a Hermes compression chain counts once): unique within agent/profile/host. */
  conv: string;
  cwd: string | null;
  /** Epoch seconds / SLOT_SECONDS. */
  slot: number;
  /** User and assistant messages. */
  messages: number;
  /** Tool results (one per call the agent made). */
  tools: number;
}

export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** How a cost figure is known: recorded by the agent or provider, the agent's estimate, or priced by lookback. */
export type CostKind = 'recorded' | 'estimated' | 'priced';

export interface UsageRow extends Tokens {
  agent: string;
  profile: string | null;
  host: string;
  model: string;
  /** Epoch seconds. */
  at: number;
  conv: string;
  cwd: string | null;
  /** A cost the source records with this usage, and how it is known; null: price it. */
  cost: number | null;
  costKind: 'recorded' | 'estimated' | null;
}

export const zeroTokens = (): Tokens => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
});

export function addTokens(to: Tokens, t: Tokens, share = 1): void {
  to.input += t.input * share;
  to.output += t.output * share;
  to.cacheRead += t.cacheRead * share;
  to.cacheWrite += t.cacheWrite * share;
  to.reasoning += t.reasoning * share;
}

export const tokenTotal = (t: Tokens): number =>
  t.input + t.output + t.cacheRead + t.cacheWrite + t.reasoning;

/** What one source can say about tokens: counted, or one line why not. */
export interface TokenNote {
  agent: string;
  profile: string | null;
  host: string;
  /** Why this source shows no tokens (it records none, or none in the range asked). */
  note: string;
}

/** The question, checked: times in epoch seconds. */
export interface StatsFilters {
  after?: number;
  before?: number;
  cwd?: string;
}
