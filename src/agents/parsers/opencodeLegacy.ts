/**
 * opencode before 1.2 (AGENTS.md §4.1): JSON files under `storage/`:
 * `session/<projectID>/<sessionID>.json`, `message/<sessionID>/<messageID>.json`,
 * `part/<messageID>/<partID>.json`, `project/<projectID>.json`. 1.2+ imports them
 * into opencode.db once and leaves them on disk, so they are read only for
 * sessions the database did not provide (the indexer decides). A message and its
 * parts hold the same JSON as the database's `data` columns, so they go through
 * the same `derive` and keep the same anchors (`msg_…`, `prt_…`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Problems, obj } from '../model.js';
import { derive, type OpencodeSession, type PartRow, type Row } from './opencode.js';

function names(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** session id → its file, across project directories. */
function sessionFiles(storage: string): Map<string, string> {
  const out = new Map<string, string>();
  const root = join(storage, 'session');
  let projects: string[] = [];
  try {
    projects = readdirSync(root);
  } catch {
    return out;
  }
  for (const p of projects)
    for (const n of names(join(root, p))) out.set(basename(n, '.json'), join(root, p, n));
  return out;
}

/**
 * Per session: its file's mtime and size and its message directory's mtime (a new
 * message adds a file there; opencode rewrites the session file on every update).
 */
export function storageSignatures(storage: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, file] of sessionFiles(storage)) {
    let st;
    try {
      st = statSync(file);
    } catch {
      continue;
    }
    out[id] = `${st.mtimeMs}:${st.size}:${mtime(join(storage, 'message', id))}`;
  }
  return out;
}

function readJson(path: string, problems: Problems): Record<string, unknown> | null {
  try {
    const o = obj(JSON.parse(readFileSync(path, 'utf8')));
    if (!o) problems.add('legacy storage file is not a JSON object');
    return o;
  } catch {
    problems.add('legacy storage file is not valid JSON (truncated or garbage)');
    return null;
  }
}

/** Derives the sessions in `ids` from the storage tree. */
export function readOpencodeStorage(
  storage: string,
  ids: readonly string[],
  problems: Problems,
): OpencodeSession[] {
  const files = sessionFiles(storage);
  const out: OpencodeSession[] = [];
  for (const id of ids) {
    const file = files.get(id);
    const s = file ? readJson(file, problems) : null;
    if (!s) continue;
    const time = obj(s.time) ?? {};
    const projectId = typeof s.projectID === 'string' ? s.projectID : null;
    const project = projectId
      ? readJson(join(storage, 'project', `${projectId}.json`), new Problems()) // optional: cwd only
      : null;
    const session: Record<string, unknown> = {
      id: typeof s.id === 'string' ? s.id : id,
      parent_id: s.parentID ?? null,
      title: s.title,
      slug: s.slug ?? null,
      dir: s.directory ?? null,
      worktree: project?.worktree ?? null,
      time_created: time.created,
      time_updated: time.updated,
      time_archived: time.archived ?? null,
      revert: s.revert ? JSON.stringify(s.revert) : null,
    };
    const msgs: Row[] = [];
    const parts: PartRow[] = [];
    for (const n of names(join(storage, 'message', id))) {
      const m = readJson(join(storage, 'message', id, n), problems);
      if (!m) continue;
      const mid = typeof m.id === 'string' ? m.id : basename(n, '.json');
      const created = obj(m.time)?.created;
      msgs.push({
        id: mid,
        time_created: typeof created === 'number' ? created : 0,
        data: JSON.stringify(m),
      });
      for (const pn of names(join(storage, 'part', mid)).sort()) {
        const p = readJson(join(storage, 'part', mid, pn), problems);
        if (p)
          parts.push({
            id: typeof p.id === 'string' ? p.id : basename(pn, '.json'),
            message_id: mid,
            data: JSON.stringify(p),
          });
      }
    }
    msgs.sort((a, b) => a.time_created - b.time_created || (a.id < b.id ? -1 : 1));
    parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    out.push(derive(session, msgs, parts));
  }
  return out;
}
