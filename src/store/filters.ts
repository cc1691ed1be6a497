/**
 * The filters search and browse share (`Filters` in types.ts): the parts SQL
 * applies to one session row, and the lineage exclusion.
 */
import type { Store } from './store.js';
import { rootOf } from './lineage.js';
import type { Filters } from './types.js';
import { MAX_EXCLUDED } from '../budgets.js';

/** A `SELECT id FROM sessions WHERE …` with its parameters, for `x IN (…)`. */
export interface SessionFilter {
  sql: string;
  params: unknown[];
}

function likePrefix(p: string): string {
  return `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The folder filter on one column. A value that ends in `/` is that folder or
 * below it (`~/code/` takes ~/code and ~/code/app, never ~/code2: what
 * `--here` and the app's `.` ask); any other value is a path prefix.
 */
export function folderMatch(col: string, value: string): { sql: string; params: string[] } {
  const dir = value.replace(/\/+$/, '');
  if (dir === value || dir === '')
    return { sql: `${col} LIKE ? ESCAPE '\\'`, params: [likePrefix(value)] };
  return { sql: `(${col} = ? OR ${col} LIKE ? ESCAPE '\\')`, params: [dir, likePrefix(`${dir}/`)] };
}

/**
 * Sessions whose own row passes the source, folder and model filters; null when
 * none is set. A folder filter on a layout with neither `cwd` nor
 * `git_repo_root` matches nothing: the store cannot say where a session ran.
 */
export function filterSessionsSql(
  store: Store,
  f: Pick<Filters, 'sources' | 'cwd' | 'model'>,
): SessionFilter | null {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.sources && f.sources.length > 0) {
    parts.push(`source IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(f.sources));
  }
  if (f.cwd !== undefined && f.cwd !== '') {
    const cols = [
      ...(store.layout.has.cwd ? ['cwd'] : []),
      ...(store.layout.has.gitRepoRoot ? ['git_repo_root'] : []),
    ];
    if (cols.length === 0) parts.push('0');
    else {
      const each = cols.map((c) => folderMatch(c, f.cwd!));
      parts.push(`(${each.map((m) => m.sql).join(' OR ')})`);
      for (const m of each) params.push(...m.params);
    }
  }
  if (f.model !== undefined && f.model !== '') {
    parts.push(`instr(lower(COALESCE(model, '')), lower(?)) > 0`);
    params.push(f.model);
  }
  if (parts.length === 0) return null;
  return { sql: `SELECT id FROM sessions WHERE ${parts.join(' AND ')}`, params };
}

/**
 * A test for "this conversation (by its lineage root) is excluded": each
 * excluded id stands for its whole lineage, as the agent expands it.
 */
export function lineageExcluder(store: Store, ids: readonly string[]): (root: string) => boolean {
  if (ids.length === 0) return () => false;
  const roots = new Set(ids.slice(0, MAX_EXCLUDED).map((id) => rootOf(store, id.trim())));
  return (root) => roots.has(root);
}
