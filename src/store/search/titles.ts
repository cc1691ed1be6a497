/**
 * The title match: a query that is a conversation's title (case-insensitive,
 * quotes dropped) finds that conversation first, as the agent does. Titles are
 * looked up cheaply once per commit (see titled()).
 */
import type { Store } from '../store.js';
import { rootResolver, sessionMeta } from '../lineage.js';
import { likePattern } from '../query.js';
import { perCommit } from '../perCommit.js';
import type { SearchContext } from './context.js';
import { TITLE_LIKE_MAX } from '../../budgets.js';

/** The query as a remembered title: quotes and backticks around it dropped (the agent's normalisation). */
export function titleQuery(query: string): string {
  return query
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .trim();
}

type TitleRow = { id: string; title: string; started_at: number | null };
type TitleIndex = Map<string, { id: string; started: number }[]>;

function indexTitles(rows: readonly TitleRow[]): TitleIndex {
  const byLower: TitleIndex = new Map();
  for (const r of rows) {
    const key = r.title.trim().toLowerCase();
    const list = byLower.get(key) ?? [];
    list.push({ id: r.id, started: r.started_at ?? 0 });
    byLower.set(key, list);
  }
  for (const list of byLower.values())
    list.sort((x, y) => y.started - x.started || (x.id < y.id ? 1 : -1));
  return byLower;
}

/**
 * The sessions whose title, trimmed and in lower case, is `key`, newest first.
 * Stores have no case-insensitive index on titles. The first title looked up
 * after a commit is asked of SQLite for the few rows that can match: an
 * all-ASCII title can only equal the query if it contains it (LIKE ignores
 * ASCII case), and every title with another character (where JavaScript's
 * case folding and trimming go beyond ASCII) is checked here. Another title in
 * the same snapshot (the app, a keystroke later) reads every title once into a
 * map. So a one-shot `lookback search` does not turn 4,000 titles into strings
 * (~10 ms and a collection, cold), and the app pays ~2 ms once per commit as before.
 */
function titled(store: Store, key: string): readonly { id: string; started: number }[] {
  const cache = perCommit(store, 'titles', () => ({
    index: null as TitleIndex | null,
    last: null as { key: string; ids: { id: string; started: number }[] } | null,
  }));
  if (cache.index === null && cache.last?.key === key) return cache.last.ids;
  if (cache.index === null && (cache.last !== null || key.length > TITLE_LIKE_MAX)) {
    const rows = store
      .stmt(`SELECT id, title, started_at FROM sessions WHERE title IS NOT NULL AND title <> ''`)
      .all() as TitleRow[];
    cache.index = indexTitles(rows);
  }
  if (cache.index !== null) return cache.index.get(key) ?? [];
  // The candidates' rowids first: where the store has its title index (idx_sessions_title_unique,
  // partial on title IS NOT NULL) that is a scan of the index alone, not of every session's row
  // (whose system prompt comes before its title: ~1 KB a session in the bench's stores, more on
  // real ones, read and skipped for each). Without the index it is the same scan of the table.
  const rows = store
    .stmt(
      `SELECT id, title, started_at FROM sessions WHERE rowid IN (
         SELECT rowid FROM sessions WHERE title IS NOT NULL
           AND (title LIKE ? ESCAPE '\\' OR title GLOB '*[^ -~]*'))`,
    )
    .all(likePattern(key)) as TitleRow[];
  cache.last = { key, ids: indexTitles(rows).get(key) ?? [] };
  return cache.last.ids;
}

/**
 * The conversation whose title is the query (case-insensitive), newest first;
 * hidden sources are never title matches.
 */
export function titleMatch(
  store: Store,
  query: string,
  ctx: SearchContext,
  all: boolean,
): { id: string; root: string } | null {
  const t = titleQuery(query);
  if (!t) return null;
  const ids = titled(store, t.toLowerCase())
    .slice(0, 5)
    .map((x) => x.id);
  const rootOf = rootResolver(store);
  for (const id of ids) {
    const root = rootOf(id);
    const meta = sessionMeta(store, root);
    if (!all && meta && ['kanban', 'subagent', 'tool'].includes(meta.source)) continue;
    if (
      ctx.sessions &&
      store
        .stmt(`SELECT 1 FROM sessions s WHERE s.id = ? AND s.id IN (${ctx.sessions.sql})`)
        .get(id, ...ctx.sessions.params) === undefined
    )
      continue;
    if (!ctx.accept({ id: 0, session_id: id, role: 'session_title', timestamp: 0 }, root)) continue;
    return { id, root };
  }
  return null;
}
