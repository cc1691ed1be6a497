/** What `lookback hosts` says of one host: when it was read and what its mirror holds. */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { indexPath } from '../agents/indexDb.js';
import type { Json } from '../store/recall.js';
import { hostEnv, mirrorHome } from './paths.js';
import type { HostState } from './sync.js';

function count(file: string, sql: string): Record<string, number>[] {
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as Record<string, number>[];
  } catch {
    return [];
  } finally {
    db.close();
  }
}

export function hostSummary(s: HostState): Record<string, Json> {
  const home = mirrorHome(s.host);
  const holds: Record<string, Json>[] = [];
  for (const rel of Object.keys(s.hermes)) {
    const [c] = count(
      join(home, rel),
      `SELECT (SELECT count(*) FROM sessions) AS conversations, (SELECT count(*) FROM messages) AS messages`,
    );
    const profile = /^\.hermes\/profiles\/([^/]+)\/state\.db$/.exec(rel)?.[1] ?? 'default';
    if (c)
      holds.push({
        agent: 'hermes',
        profile,
        conversations: c.conversations ?? 0,
        messages: c.messages ?? 0,
      });
  }
  for (const r of count(
    indexPath(hostEnv(s.host)),
    `SELECT agent, count(*) AS conversations, ifnull(sum(message_count), 0) AS messages FROM conversations GROUP BY agent ORDER BY agent`,
  ))
    holds.push({ ...(r as unknown as Record<string, Json>) });
  return {
    host: s.host,
    last_sync_at: s.last_sync_at,
    last_ok_at: s.last_ok_at,
    last_error: s.last_error,
    files: Object.keys(s.files).length,
    holds,
  };
}
