/**
 * Codex's usage: `token_count` events whose `info.total_token_usage` is the
 * session's running total (re-emitted unchanged after some events) and
 * `last_token_usage` the last call's. A call is the difference of two totals;
 * an unchanged total is a re-emit and counts nothing; without a total (older
 * files) the last call's usage is used. Input includes cached input and output
 * includes reasoning: both are split out, so the columns add up to the total.
 * A fork's copy of its parent's lines (after its own `session_meta`, the
 * parent's, then lines within two seconds of the fork) counts nothing.
 */
import { jsonLines, num, rec, seconds, type UsageRecord } from './record.js';

const FORK_COPY_S = 2;

interface Counts {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
  total: number;
}

function counts(v: unknown): Counts | null {
  const u = rec(v);
  if (!u) return null;
  const c = {
    input: num(u.input_tokens),
    cached: num(u.cached_input_tokens),
    output: num(u.output_tokens),
    reasoning: num(u.reasoning_output_tokens),
    total: num(u.total_tokens),
  };
  if (c.total === 0) c.total = c.input + c.output;
  return c;
}

export function codexUsage(text: string): UsageRecord[] {
  const out: UsageRecord[] = [];
  let session: string | null = null;
  let ownStart: number | null = null;
  let forked = false;
  let copying = false;
  let model = 'unknown';
  let prev: Counts | null = null;
  for (const [line, n] of jsonLines(text)) {
    const p = rec(line.payload) ?? {};
    const at = seconds(line.timestamp);
    if (line.type === 'session_meta') {
      const id = typeof p.id === 'string' ? p.id : null;
      if (session === null) {
        session = id ?? 'unknown';
        ownStart = at;
        forked = typeof p.forked_from_id === 'string' || typeof p.parent_thread_id === 'string';
      } else if (forked && id !== session) copying = true;
      continue;
    }
    if (copying && (ownStart === null || at === null || at > ownStart + FORK_COPY_S))
      copying = false;
    if (line.type === 'turn_context') {
      if (!copying && typeof p.model === 'string') model = p.model;
      continue;
    }
    if (line.type !== 'event_msg' || p.type !== 'token_count') continue;
    const info = rec(p.info);
    if (!info) continue;
    const total = counts(info.total_token_usage);
    const last = counts(info.last_token_usage);
    let call: Counts | null;
    if (total && prev && total.total === prev.total)
      call = null; // a re-emit
    else if (total && prev && total.total > prev.total && total.input >= prev.input)
      call = {
        input: total.input - prev.input,
        cached: Math.max(0, total.cached - prev.cached),
        output: Math.max(0, total.output - prev.output),
        reasoning: Math.max(0, total.reasoning - prev.reasoning),
        total: total.total - prev.total,
      };
    else call = last ?? total;
    if (total) prev = total;
    if (!call || copying || at === null) continue;
    const cached = Math.min(call.cached, call.input);
    const reasoning = Math.min(call.reasoning, call.output);
    out.push({
      key: `codex:${session ?? 'unknown'}:${String(line.timestamp)}:${total ? total.total : `L${n}`}`,
      at,
      model,
      side: 0,
      input: call.input - cached,
      cacheRead: cached,
      output: call.output - reasoning,
      reasoning,
      cacheWrite: 0,
      cost: null,
    });
  }
  return out;
}
