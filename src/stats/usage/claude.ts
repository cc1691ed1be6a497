/**
 * Claude Code's usage: `message.usage` on its assistant lines. One API call
 * streams as several lines with the same `message.id` and `requestId` (the
 * usage repeated, output growing), and a resumed session copies earlier calls
 * into its new file: the key (`message.id`:`requestId`) makes them one call,
 * the non-sidechain copy first, then the larger.
 */
import { jsonLines, num, rec, seconds, type UsageRecord } from './record.js';

export function claudeUsage(text: string): UsageRecord[] {
  const out: UsageRecord[] = [];
  for (const [line, n] of jsonLines(text)) {
    if (line.type !== 'assistant') continue;
    const message = rec(line.message);
    const usage = rec(message?.usage);
    if (!message || !usage) continue;
    const model = typeof message.model === 'string' ? message.model : 'unknown';
    if (model === '<synthetic>') continue; // the CLI's own notes: no call was made
    const at = seconds(line.timestamp);
    if (at === null) continue;
    const id = typeof message.id === 'string' ? message.id : null;
    const req = typeof line.requestId === 'string' ? line.requestId : '';
    const uuid = typeof line.uuid === 'string' ? line.uuid : `line${n}`;
    out.push({
      key: id ? `claude:${id}:${req}` : `claude-uuid:${uuid}`,
      at,
      model,
      side: line.isSidechain === true ? 1 : 0,
      input: num(usage.input_tokens),
      output: num(usage.output_tokens),
      cacheRead: num(usage.cache_read_input_tokens),
      cacheWrite: num(usage.cache_creation_input_tokens),
      reasoning: 0,
      cost: null,
    });
  }
  return out;
}
