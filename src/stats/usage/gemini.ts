/**
 * Gemini CLI's usage: `tokens` on its `gemini` messages ({input, output,
 * cached, thoughts, tool, total}). Messages are upserts by id (tokens arrive by
 * re-writing the message), may come only inside a `$set.messages` batch, and a
 * chat may exist as a legacy `.json` and its resumed `.jsonl`: the key is the
 * session and message id, so each call counts once. Input includes cached
 * input: it is split out; tool-use prompt tokens count as input.
 */
import { jsonLines, num, rec, seconds, type UsageRecord } from './record.js';

export function geminiUsage(text: string, legacyJson: boolean): UsageRecord[] {
  const byId = new Map<string, Record<string, unknown>>();
  let session = 'unknown';
  const take = (m: unknown) => {
    const r = rec(m);
    if (r && typeof r.id === 'string') byId.set(r.id, { ...byId.get(r.id), ...r });
  };
  if (legacyJson) {
    try {
      const doc = rec(JSON.parse(text));
      if (doc) {
        if (typeof doc.sessionId === 'string') session = doc.sessionId;
        if (Array.isArray(doc.messages)) doc.messages.forEach(take);
      }
    } catch {
      return [];
    }
  } else
    for (const [line] of jsonLines(text)) {
      if ('$set' in line) {
        const set = rec(line.$set);
        if (set && Array.isArray(set.messages)) set.messages.forEach(take);
        if (set && typeof set.sessionId === 'string') session = set.sessionId;
        continue;
      }
      if ('$rewindTo' in line || '$patch' in line) continue; // rewound calls were billed
      if (typeof line.sessionId === 'string' && !('type' in line)) {
        session = line.sessionId;
        continue;
      }
      take(line);
    }
  const out: UsageRecord[] = [];
  for (const [id, m] of byId) {
    const t = rec(m.tokens);
    const at = seconds(m.timestamp);
    if (!t || at === null) continue;
    const cached = Math.min(num(t.cached), num(t.input));
    out.push({
      key: `gemini:${session}:${id}`,
      at,
      model: typeof m.model === 'string' ? m.model : 'unknown',
      side: 0,
      input: num(t.input) - cached + num(t.tool),
      cacheRead: cached,
      output: num(t.output),
      reasoning: num(t.thoughts),
      cacheWrite: 0,
      cost: null,
    });
  }
  return out;
}
