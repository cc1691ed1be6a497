/** `lookback sources`: what was found per agent, how much is indexed, and what could not be read. */
import type Database from 'better-sqlite3';
import type { Json } from '../store/recall.js';
import { AGENTS, type Agent } from './model.js';
import type { SourceRoot } from './discover.js';

export function sourcesJson(
  db: Database.Database,
  roots: SourceRoot[],
  indexFile: string,
): Record<string, Json> {
  const counts = db.prepare(
    `SELECT count(*) AS conversations, ifnull(sum(message_count), 0) AS messages, ifnull(sum(gone), 0) AS gone
     FROM conversations WHERE agent = ?`,
  );
  const last = db.prepare(`SELECT last_indexed_at FROM sources WHERE agent = ?`);
  const files = db.prepare(`SELECT count(*) AS n FROM files WHERE agent = ?`);
  const problemRows = db.prepare(
    `SELECT problems FROM files WHERE agent = ? AND problems IS NOT NULL`,
  );
  const sources = AGENTS.map((agent: Agent) => {
    const c = counts.get(agent) as { conversations: number; messages: number; gone: number };
    const l = last.get(agent) as { last_indexed_at: number } | undefined;
    const byReason = new Map<string, { count: number; files: number }>();
    for (const r of problemRows.all(agent) as { problems: string }[])
      for (const [reason, n] of Object.entries(JSON.parse(r.problems) as Record<string, number>)) {
        const e = byReason.get(reason) ?? { count: 0, files: 0 };
        e.count += n;
        e.files += 1;
        byReason.set(reason, e);
      }
    return {
      agent,
      roots: roots
        .filter((r) => r.agent === agent)
        .map((r) => ({ path: r.path, from: r.from, exists: r.exists })),
      files: (files.get(agent) as { n: number }).n,
      conversations: c.conversations,
      messages: c.messages,
      gone: c.gone,
      last_indexed_at: l ? new Date(l.last_indexed_at).toISOString() : null,
      problems: [...byReason].map(([reason, e]) => ({ reason, count: e.count, files: e.files })),
    };
  });
  return { success: true, index: indexFile, sources };
}

/** The readable form: one line per agent, one counted line per problem. */
export function sourcesText(p: Record<string, Json>, sanitizeLine: (s: string) => string): string {
  const lines: string[] = [];
  for (const s of (p.sources ?? []) as Record<string, Json>[]) {
    const roots = (s.roots ?? []) as Record<string, Json>[];
    const found = roots.filter((r) => r.exists);
    const where =
      found.length > 0 ? found.map((r) => sanitizeLine(String(r.path))).join(', ') : 'not found';
    const when = s.last_indexed_at
      ? `indexed ${String(s.last_indexed_at).slice(0, 19).replace('T', ' ')}Z`
      : found.length > 0
        ? 'not indexed yet: run `lookback index`'
        : 'never indexed';
    const gone = Number(s.gone) > 0 ? `, ${String(s.gone)} gone` : '';
    lines.push(
      `${String(s.agent).padEnd(9)} ${String(s.conversations)} conversations, ${String(s.messages)} messages${gone} · ${when} · ${where}`,
    );
    for (const pr of (s.problems ?? []) as Record<string, Json>[])
      lines.push(
        `  ! ${String(pr.count)} × ${sanitizeLine(String(pr.reason))} (${String(pr.files)} file${pr.files === 1 ? '' : 's'})`,
      );
  }
  return lines.join('\n');
}
