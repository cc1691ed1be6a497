/**
 * Where the agents of AGENTS.md §9 keep their histories, with each agent's own
 * environment overrides and platform paths, and `--source-dir AGENT=PATH`.
 * Lists directories and reads two tiny registries the agents keep of their own
 * projects (Crush's projects.json); never opens a history file.
 */
import { existsSync, readFileSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import type { Format, Overrides, SourceFile, SourceRoot } from './sourceFiles.js';
import type { Agent } from './model.js';
import { AIDER_DEPTH, AIDER_WALK_MS } from '../budgets.js';

export type MoreAgent =
  'qwen' | 'kimi' | 'copilot' | 'aider' | 'crush' | 'goose' | 'cursor' | 'cline' | 'roo' | 'kilo';
export const MORE_AGENTS: readonly MoreAgent[] = [
  'qwen',
  'kimi',
  'copilot',
  'aider',
  'crush',
  'goose',
  'cursor',
  'cline',
  'roo',
  'kilo',
];

export function isMoreAgent(a: string): a is MoreAgent {
  return (MORE_AGENTS as readonly string[]).includes(a);
}

function root(agent: Agent, path: string, from: string): SourceRoot {
  return { agent, path, from, exists: existsSync(path) };
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** `~` and `~/x` as the agents expand them (Qwen's QWEN_RUNTIME_DIR). */
function tilde(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return join(home, p.slice(2));
  return p;
}

/** The candidate roots of the agents of §9, first the ones that win. */
export function moreRoots(
  env: NodeJS.ProcessEnv,
  overrides: Overrides,
  platform: NodeJS.Platform = process.platform,
): SourceRoot[] {
  const h = env.HOME || homedir();
  const xdgData = env.XDG_DATA_HOME || join(h, '.local', 'share');
  const out: SourceRoot[] = [];

  // Qwen Code (Storage.getRuntimeBaseDir): QWEN_RUNTIME_DIR, else ~/.qwen.
  const qwen = overrides.qwen;
  if (qwen) out.push(root('qwen', qwen, '--source-dir'));
  else if (env.QWEN_RUNTIME_DIR)
    out.push(root('qwen', tilde(env.QWEN_RUNTIME_DIR, h), 'QWEN_RUNTIME_DIR'));
  else out.push(root('qwen', join(h, '.qwen'), 'default'));

  // Kimi CLI (share.py get_share_dir): KIMI_SHARE_DIR, else ~/.kimi.
  const kimi = overrides.kimi;
  if (kimi) out.push(root('kimi', kimi, '--source-dir'));
  else if (env.KIMI_SHARE_DIR) out.push(root('kimi', env.KIMI_SHARE_DIR, 'KIMI_SHARE_DIR'));
  else out.push(root('kimi', join(h, '.kimi'), 'default'));

  // GitHub Copilot CLI: ~/.copilot (COPILOT_HOME, XDG_CONFIG_HOME/.copilot: not confirmed from source).
  const copilot = overrides.copilot;
  if (copilot) out.push(root('copilot', copilot, '--source-dir'));
  else if (env.COPILOT_HOME) out.push(root('copilot', env.COPILOT_HOME, 'COPILOT_HOME'));
  else {
    out.push(root('copilot', join(h, '.copilot'), 'default'));
    if (env.XDG_CONFIG_HOME && existsSync(join(env.XDG_CONFIG_HOME, '.copilot')))
      out.push(root('copilot', join(env.XDG_CONFIG_HOME, '.copilot'), 'XDG_CONFIG_HOME'));
  }

  // Aider writes `.aider.chat.history.md` at each git root: a file, or a tree to walk.
  const aider = overrides.aider;
  if (aider) out.push(root('aider', aider, '--source-dir'));
  else {
    if (env.AIDER_CHAT_HISTORY_FILE)
      out.push(root('aider', env.AIDER_CHAT_HISTORY_FILE, 'AIDER_CHAT_HISTORY_FILE'));
    // The home directory is no history: found only when a walk finds one of Aider's files.
    // Walked when asked (listing aider, `lookback sources`), never for another agent's pass.
    const r: SourceRoot = { agent: 'aider', path: h, from: 'default', exists: false };
    Object.defineProperty(r, 'exists', {
      enumerable: true,
      get: () => aiderFiles(h).length > 0,
    });
    out.push(r);
  }

  // Crush (config.GlobalConfigData): CRUSH_GLOBAL_DATA, XDG_DATA_HOME/crush, LOCALAPPDATA on Windows.
  const crush = overrides.crush;
  if (crush) out.push(root('crush', crush, '--source-dir'));
  else if (env.CRUSH_GLOBAL_DATA)
    out.push(root('crush', env.CRUSH_GLOBAL_DATA, 'CRUSH_GLOBAL_DATA'));
  else if (env.XDG_DATA_HOME) out.push(root('crush', join(xdgData, 'crush'), 'XDG_DATA_HOME'));
  else if (platform === 'win32')
    out.push(
      root('crush', join(env.LOCALAPPDATA || join(h, 'AppData', 'Local'), 'crush'), 'LOCALAPPDATA'),
    );
  else out.push(root('crush', join(h, '.local', 'share', 'crush'), 'default'));

  // Goose (config/paths.rs): GOOSE_PATH_ROOT/data, else the etcetera data dir + sessions/.
  const goose = overrides.goose;
  if (goose) out.push(root('goose', goose, '--source-dir'));
  else if (env.GOOSE_PATH_ROOT && isAbsolute(env.GOOSE_PATH_ROOT))
    out.push(root('goose', join(env.GOOSE_PATH_ROOT, 'data', 'sessions'), 'GOOSE_PATH_ROOT'));
  else if (platform === 'darwin') {
    const support = join(h, 'Library', 'Application Support');
    out.push(root('goose', join(support, 'Block', 'goose', 'sessions'), 'default'));
    const alt = join(support, 'Block.goose', 'sessions');
    if (existsSync(alt)) out.push(root('goose', alt, 'default'));
  } else if (platform === 'win32')
    out.push(
      root(
        'goose',
        join(env.APPDATA || join(h, 'AppData', 'Roaming'), 'Block', 'goose', 'data', 'sessions'),
        'APPDATA',
      ),
    );
  else
    out.push(
      root(
        'goose',
        join(xdgData, 'goose', 'sessions'),
        env.XDG_DATA_HOME ? 'XDG_DATA_HOME' : 'default',
      ),
    );

  // Cursor's IDE (VS Code's user data directory): the User folder holding globalStorage/state.vscdb.
  const cursor = overrides.cursor;
  if (cursor) out.push(root('cursor', cursor, '--source-dir'));
  else if (platform === 'darwin')
    out.push(
      root('cursor', join(h, 'Library', 'Application Support', 'Cursor', 'User'), 'default'),
    );
  else if (platform === 'win32')
    out.push(
      root(
        'cursor',
        join(env.APPDATA || join(h, 'AppData', 'Roaming'), 'Cursor', 'User'),
        'APPDATA',
      ),
    );
  else
    out.push(
      root(
        'cursor',
        join(env.XDG_CONFIG_HOME || join(h, '.config'), 'Cursor', 'User'),
        env.XDG_CONFIG_HOME ? 'XDG_CONFIG_HOME' : 'default',
      ),
    );

  // Cline, Roo Code, Kilo Code: the extension's globalStorage folder in VS Code, else in
  // another editor of the VS Code family where one exists.
  const userDirs = (app: string) =>
    platform === 'darwin'
      ? join(h, 'Library', 'Application Support', app, 'User')
      : platform === 'win32'
        ? join(env.APPDATA || join(h, 'AppData', 'Roaming'), app, 'User')
        : join(env.XDG_CONFIG_HOME || join(h, '.config'), app, 'User');
  for (const [agent, ext] of EXTENSIONS) {
    const given = overrides[agent];
    if (given) {
      out.push(root(agent, given, '--source-dir'));
      continue;
    }
    out.push(root(agent, join(userDirs('Code'), 'globalStorage', ext), 'default'));
    for (const app of EDITORS) {
      const p = join(userDirs(app), 'globalStorage', ext);
      if (existsSync(p)) out.push(root(agent, p, app));
    }
  }
  return out;
}

/** The extensions' ids, as VS Code names their globalStorage folders (lower case). */
const EXTENSIONS: readonly [Agent, string][] = [
  ['cline', 'saoudrizwan.claude-dev'],
  ['roo', 'rooveterinaryinc.roo-cline'],
  ['kilo', 'kilocode.kilo-code'],
];
/** Other editors of the VS Code family, by their user data folder's name. */
const EDITORS = ['Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'];

/** Directories never walked for Aider's files: build trees, caches and other tools' state. */
const AIDER_SKIP = new Set([
  'node_modules',
  'Library',
  'AppData',
  'venv',
  'target',
  'dist',
  'build',
]);
const AIDER_FILE = '.aider.chat.history.md';

/** One walk a minute serves the root check and the listings of the passes in it (the app runs one every second or so). */
let aiderWalk: { dir: string; at: number; files: string[] } | null = null;

function aiderFiles(dir: string): string[] {
  if (aiderWalk && aiderWalk.dir === dir && performance.now() - aiderWalk.at < AIDER_WALK_MS)
    return aiderWalk.files;
  const files: string[] = [];
  walkAider(dir, AIDER_DEPTH, files);
  aiderWalk = { dir, at: performance.now(), files };
  return files;
}

/**
 * Aider writes the file at the git root: a directory holding `.git` is a leaf (its
 * own file or none), so the walk visits only the directories above repositories.
 */
function walkAider(dir: string, depth: number, out: string[]): void {
  const list = entries(dir);
  if (list.some((e) => e.name === '.git')) {
    if (list.some((e) => e.isFile() && e.name === AIDER_FILE)) out.push(join(dir, AIDER_FILE));
    return;
  }
  for (const e of list) {
    if (e.isFile() && e.name === AIDER_FILE) out.push(join(dir, e.name));
    else if (e.isDirectory() && depth > 0 && !e.name.startsWith('.') && !AIDER_SKIP.has(e.name))
      walkAider(join(dir, e.name), depth - 1, out);
  }
}

/** The files of one root of the agents of §9. */
export function moreFiles(r: SourceRoot): SourceFile[] {
  if (!r.exists) return [];
  const files: SourceFile[] = [];
  const add = (path: string, format: Format) => files.push({ agent: r.agent, path, format });
  switch (r.agent) {
    case 'qwen':
      // <runtime>/projects/<sanitized cwd>/chats/<sessionId>.jsonl; before that tmp/<hash>/chats/.
      for (const top of ['projects', 'tmp'])
        for (const project of entries(join(r.path, top))) {
          if (!project.isDirectory()) continue;
          const chats = join(r.path, top, project.name, 'chats');
          for (const e of entries(chats))
            if (e.isFile() && e.name.endsWith('.jsonl')) add(join(chats, e.name), 'jsonl');
        }
      break;
    case 'kimi':
      // sessions/<md5(work dir)>/<session id>/context.jsonl, subagents/<agent id>/context.jsonl.
      for (const wd of entries(join(r.path, 'sessions'))) {
        if (!wd.isDirectory()) continue;
        const wdir = join(r.path, 'sessions', wd.name);
        for (const s of entries(wdir)) {
          if (!s.isDirectory()) continue;
          const sdir = join(wdir, s.name);
          if (isFile(join(sdir, 'context.jsonl'))) add(join(sdir, 'context.jsonl'), 'jsonl');
          for (const sub of entries(join(sdir, 'subagents')))
            if (sub.isDirectory() && isFile(join(sdir, 'subagents', sub.name, 'context.jsonl')))
              add(join(sdir, 'subagents', sub.name, 'context.jsonl'), 'jsonl');
        }
      }
      break;
    case 'copilot':
      // session-state/<session id>/events.jsonl (older: session-state/<session id>.jsonl).
      for (const e of entries(join(r.path, 'session-state'))) {
        const p = join(r.path, 'session-state', e.name);
        if (e.isDirectory() && isFile(join(p, 'events.jsonl')))
          add(join(p, 'events.jsonl'), 'jsonl');
        else if (e.isFile() && e.name.endsWith('.jsonl')) add(p, 'jsonl');
      }
      break;
    case 'aider': {
      if (isFile(r.path)) {
        add(r.path, 'md');
        break;
      }
      for (const p of aiderFiles(r.path)) add(p, 'md');
      break;
    }
    case 'crush': {
      if (isFile(r.path)) {
        add(r.path, 'sqlite');
        break;
      }
      const dbs = new Set<string>();
      const probe = (p: string) => {
        if (isFile(p)) dbs.add(p);
      };
      // A project's data directory, a project, or the global data directory.
      probe(join(r.path, 'crush.db'));
      probe(join(r.path, '.crush', 'crush.db'));
      for (const p of crushProjects(join(r.path, 'projects.json'))) probe(join(p, 'crush.db'));
      for (const p of dbs) add(p, 'sqlite');
      break;
    }
    case 'cursor':
      // The global state.vscdb holds every chat; the workspaces' ones only name their chats.
      if (isFile(r.path)) add(r.path, 'sqlite');
      else if (isFile(join(r.path, 'globalStorage', 'state.vscdb')))
        add(join(r.path, 'globalStorage', 'state.vscdb'), 'sqlite');
      break;
    case 'cline':
    case 'roo':
    case 'kilo':
      // tasks/<task id>/api_conversation_history.json (a folder without one has not spoken yet).
      for (const t of entries(join(r.path, 'tasks'))) {
        const p = join(r.path, 'tasks', t.name, 'api_conversation_history.json');
        if (t.isDirectory() && isFile(p)) add(p, 'json');
      }
      break;
    case 'goose':
      if (isFile(r.path)) add(r.path, 'sqlite');
      else if (isFile(join(r.path, 'sessions.db'))) add(join(r.path, 'sessions.db'), 'sqlite');
      break;
  }
  return files;
}

/** The data directories Crush's projects.json lists (projects.go `{projects:[{path, data_dir}]}`). */
function crushProjects(path: string): string[] {
  try {
    if (statSync(path).size > 4 * 1024 * 1024) return [];
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { projects?: unknown };
    if (!Array.isArray(doc.projects)) return [];
    const out: string[] = [];
    for (const p of doc.projects as Record<string, unknown>[])
      if (p && typeof p.data_dir === 'string' && isAbsolute(p.data_dir)) out.push(p.data_dir);
    return out;
  } catch {
    return [];
  }
}

/** The project a Crush database belongs to: the parent of its default `.crush` directory. */
export function crushProjectDir(dbPath: string): string | null {
  const dataDir = join(dbPath, '..');
  return basename(dataDir) === '.crush' ? join(dataDir, '..') : null;
}
