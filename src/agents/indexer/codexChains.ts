/**
 * Codex threads that span several rollout files (AGENTS.md §8.1): which files
 * make one conversation, in order.
 */
import { basename } from 'node:path';
import type { SourceFile } from '../discover.js';
import { codexFileId, codexRolloutId } from '../parsers/codex.js';

/**
 * The files of each Codex thread that spans several (AGENTS.md §8.1), oldest
 * first: `rollout-<time>-<thread>[_<rollout>].jsonl` sorts by time, and the
 * first segment (no `_<rollout>`) before a later one of the same second. A
 * copy of the same rollout elsewhere (archived) counts once.
 */
export function codexChains(files: readonly SourceFile[]): Map<string, SourceFile[]> {
  const byThread = new Map<string, SourceFile[]>();
  for (const f of files) {
    if (f.format !== 'jsonl') continue;
    const thread = codexFileId(f.path);
    if (thread === null) continue;
    const list = byThread.get(thread);
    if (list) list.push(f);
    else byThread.set(thread, [f]);
  }
  const out = new Map<string, SourceFile[]>();
  for (const [thread, list] of byThread) {
    if (list.length < 2) continue;
    const rollouts = new Set<string>();
    const chain = list
      .filter((f) => {
        const r = codexRolloutId(f.path) ?? f.path;
        if (rollouts.has(r)) return false;
        rollouts.add(r);
        return true;
      })
      .sort((a, b) => (basename(a.path) < basename(b.path) ? -1 : 1));
    if (chain.length > 1) out.set(thread, chain);
  }
  return out;
}
