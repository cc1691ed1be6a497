/**
 * The search line's history on disk: a small JSON file in the user's cache
 * folder, read once at start and rewritten (through a temporary file and a
 * rename) whenever a query is added. The app (src/app) sees it only as a
 * HistoryStore; file I/O stays here in the terminal shell.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { HistoryStore } from '../app/controller/ctx.js';
import { normalizeEntries } from '../app/input/lineEditor.js';

/**
 * Where the history lives: `$XDG_CACHE_HOME/lookback/history.json`, else
 * `~/Library/Caches/lookback/…` on macOS, `%LOCALAPPDATA%\lookback\…` on
 * Windows, `~/.cache/lookback/…` elsewhere.
 */
export function historyPath(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string,
): string {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '' && path.isAbsolute(xdg))
    return join(xdg, 'lookback', 'history.json');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'lookback', 'history.json');
  if (platform === 'win32' && env.LOCALAPPDATA)
    return join(env.LOCALAPPDATA, 'lookback', 'history.json');
  return join(home, '.cache', 'lookback', 'history.json');
}

/** The saved queries, or [] when the file is missing or not ours (never throws). */
export function loadHistory(file: string): string[] {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const queries = (data as { queries?: unknown })?.queries;
    return Array.isArray(queries) ? normalizeEntries(queries) : [];
  } catch {
    return [];
  }
}

/**
 * Write the queries (at most HISTORY_MAX) through a temporary file and a
 * rename, so a crash never leaves half a file. Returns an error line or null.
 */
export function saveHistory(file: string, entries: readonly string[]): string | null {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const body = JSON.stringify({ version: 1, queries: normalizeEntries(entries) }, null, 1);
    writeFileSync(tmp, body + '\n', { mode: 0o600 });
    renameSync(tmp, file);
    return null;
  } catch (err) {
    return `search history not saved: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** The history file as the controller's HistoryStore. */
export function fileHistory(file: string): HistoryStore {
  return { load: () => loadHistory(file), save: (entries) => saveHistory(file, entries) };
}
