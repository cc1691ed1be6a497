/**
 * Codex thread names from `$CODEX_HOME/session_index.jsonl` (append-only
 * `{id, thread_name, updated_at}`, newest wins; AGENTS.md §2.3): they outrank the
 * first prompt. Read whole on every pass: it holds one short line per rename, and a
 * rollout indexed after its rename still needs the name.
 */
import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceRoot } from './discover.js';
import { parseRecord, readLines } from './lines.js';
import { Problems, TITLE_RANK } from './model.js';

/**
 * What each index was last given from each session_index.jsonl in this process (its
 * size and mtime): the app's worker passes every second, and an unchanged file with
 * no new rollout has nothing to apply (it took the write lock on every idle pass).
 */
const applied = new WeakMap<Database.Database, Map<string, string>>();

/** `indexed`: this pass wrote some Codex rollout, which may need a name already listed. */
export function applyCodexTitles(db: Database.Database, roots: SourceRoot[], indexed = true): void {
  let seen = applied.get(db);
  if (!seen) applied.set(db, (seen = new Map()));
  const set = db.prepare(
    // Only rows whose title would change: a pass that changes nothing writes nothing,
    // so the app (which watches PRAGMA data_version) is not woken every pass.
    `UPDATE conversations SET title = @name, title_rank = ${TITLE_RANK.user}
     WHERE agent = 'codex' AND native_id = @id AND title_rank <= ${TITLE_RANK.user}
       AND (title IS NOT @name OR title_rank < ${TITLE_RANK.user})`,
  );
  for (const r of roots) {
    const path = join(r.path, 'session_index.jsonl');
    if (r.agent !== 'codex') continue;
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    const mark = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (!indexed && seen.get(path) === mark) continue;
    const names = new Map<string, { name: string; at: string }>();
    const problems = new Problems();
    try {
      readLines(
        path,
        0,
        Number.MAX_SAFE_INTEGER,
        (line) => {
          const rec = parseRecord(line, problems);
          if (!rec || typeof rec.id !== 'string' || typeof rec.thread_name !== 'string') return;
          const at = typeof rec.updated_at === 'string' ? rec.updated_at : '';
          const old = names.get(rec.id);
          if (!old || at >= old.at) names.set(rec.id, { name: rec.thread_name, at });
        },
        problems,
      );
    } catch {
      continue; // a hint only: the rollouts stay the truth
    }
    db.transaction(() => {
      for (const [id, { name }] of names)
        if (name.trim()) set.run({ name: name.trim().slice(0, 200), id });
    }).immediate();
    seen.set(path, mark);
  }
}
