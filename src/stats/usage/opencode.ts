/**
 * opencode's usage: `tokens` ({input, output, reasoning, cache: {read, write}})
 * and `cost` on each assistant message of its database's `message` table
 * (opencode 1.x). The cost is opencode's own figure from its price list: the
 * agent's estimate; a zero cost (a subscription provider) is priced instead.
 * Read through the good-neighbour connection (read-only, no file left behind);
 * opencode 2.x's `session_message` layout is not read yet.
 */
import { columns, openWithoutTrace } from '../../agents/readOnlyDb.js';
import { num, rec, seconds, type UsageRecord } from './record.js';

export function opencodeUsage(path: string): UsageRecord[] {
  const { db, cleanup } = openWithoutTrace(path);
  try {
    const c = columns(db, 'message');
    if (!c.has('data') || !c.has('session_id')) return [];
    const rows = db.prepare(`SELECT id, session_id, time_created, data FROM message`).all() as {
      id: string;
      session_id: string;
      time_created: number | null;
      data: string;
    }[];
    const out: UsageRecord[] = [];
    for (const r of rows) {
      let data: Record<string, unknown> | null;
      try {
        data = rec(JSON.parse(r.data));
      } catch {
        continue;
      }
      if (!data || data.role !== 'assistant') continue;
      const t = rec(data.tokens);
      if (!t) continue;
      const cache = rec(t.cache) ?? {};
      const at = seconds(rec(data.time)?.created) ?? seconds(r.time_created);
      if (at === null) continue;
      const cost = typeof data.cost === 'number' && data.cost > 0 ? data.cost : null;
      out.push({
        key: `opencode:${r.session_id}:${r.id}`,
        at,
        model: typeof data.modelID === 'string' ? data.modelID : 'unknown',
        side: 0,
        input: num(t.input),
        output: num(t.output),
        reasoning: num(t.reasoning),
        cacheRead: num(cache.read),
        cacheWrite: num(cache.write),
        cost,
      });
    }
    return out;
  } finally {
    db.close();
    cleanup();
  }
}
