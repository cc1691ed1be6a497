/**
 * The generated conversations that are right answers too, thinned out.
 *
 * The demo generator writes ~100 conversations on each of its 25 topics, and 11
 * of them are the very problems of a needle: its `memleak` topic says "we see
 * MaxListenersExceededWarning in the logs", `flags` "we have 140 flags and
 * nobody knows which are dead", `terraform` "the state lock is stuck after a
 * cancelled run", `tls` "the staging certificate expired". Asked "https
 * certificate on staging lapsed", a search that ranks a hundred conversations
 * about the staging certificate expiring above the needle is not wrong, but the
 * benchmark (one judged answer a question) counted it as a miss. A real history
 * does not hold a hundred near-copies of one incident either. So each colliding
 * topic keeps only KEEP root conversations (with their branches and subagents):
 * hard distractors on the needle's subject, as a real history has, no longer a
 * wall of unjudged right answers.
 */
import type Database from 'better-sqlite3';
import { TOPICS } from '../../../src/demo/corpus.js';

/** The generator topics (src/demo/corpus.json `key`) that describe a needle's own problem. */
export const COLLIDING: Record<string, string> = {
  tls: 'tls-expired',
  memleak: 'listener-leak',
  flags: 'flags',
  terraform: 'tf-lock',
  cron: 'dst-cron',
  oauth: 'refresh-token',
  kafka: 'kafka-lag',
  export: 'oom-export',
  flakyci: 'tz-test',
  packaging: 'pip-conflict',
  sqlite: 'restore-drill',
};

/** Conversations kept on each colliding topic. */
export const KEEP = 3;

/** The topic a conversation is about: the one whose files, identifiers and name it mentions most. */
function topicOf(text: string): string | null {
  const lower = text.toLowerCase();
  let best: string | null = null;
  let bestHits = 0;
  for (const t of TOPICS) {
    let hits = 0;
    for (const m of [t.name, ...t.files, ...t.idents]) {
      const needle = m.toLowerCase().replace(/\(\)$/, '');
      for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length))
        hits++;
    }
    if (hits > bestHits) [best, bestHits] = [t.key, hits];
  }
  return best;
}

/** Deletes all but KEEP lineages of each colliding topic (before the needles go in). */
export function thinCollidingTopics(db: Database.Database): { dropped: number } {
  const sessions = db.prepare(`SELECT id, parent_session_id AS parent FROM sessions`).all() as {
    id: string;
    parent: string | null;
  }[];
  const parent = new Map(sessions.map((s) => [s.id, s.parent]));
  const rootOf = (id: string): string => {
    let at = id;
    for (let p = parent.get(at); p && parent.has(p); p = parent.get(at)) at = p;
    return at;
  };
  const text = db.prepare(
    `SELECT group_concat(content, ' ') FROM (SELECT content FROM messages
     WHERE session_id = ? AND role IN ('user','assistant') ORDER BY id LIMIT 12)`,
  );
  const kept = new Map<string, number>();
  const drop = new Set<string>();
  for (const s of sessions) {
    if (s.parent && parent.has(s.parent)) continue;
    const topic = topicOf((text.pluck().get(s.id) as string | null) ?? '');
    if (topic === null || !(topic in COLLIDING)) continue;
    const n = kept.get(topic) ?? 0;
    if (n < KEEP) kept.set(topic, n + 1);
    else drop.add(s.id);
  }
  const gone = sessions.filter((s) => drop.has(rootOf(s.id))).map((s) => s.id);
  // A whole lineage goes, so no kept session points at a deleted parent.
  const fk = db.pragma('foreign_keys', { simple: true });
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    const delMessages = db.prepare(`DELETE FROM messages WHERE session_id = ?`);
    const delSession = db.prepare(`DELETE FROM sessions WHERE id = ?`);
    for (const id of gone) {
      delMessages.run(id);
      delSession.run(id);
    }
  })();
  db.pragma(`foreign_keys = ${fk ? 'ON' : 'OFF'}`);
  return { dropped: gone.length };
}
