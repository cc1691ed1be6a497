/**
 * Where each agent keeps its history (AGENTS.md §1.1, §2.1, §3.1, §4.1, §5.1; §9 in discoverMore.ts),
 * with the agents' own environment overrides and `--source-dir AGENT=PATH`.
 * Lists directories only; never opens a file for writing.
 */
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, sep } from 'node:path';
import { moreFiles, moreRoots } from './discoverMore.js';
import type { Agent } from './model.js';
import type { Format, Overrides, SourceFile, SourceRoot } from './sourceFiles.js';

// The shapes live in sourceFiles.ts so discoverMore.ts can share them without a circle.
export type { Format, Overrides, SourceFile, SourceRoot } from './sourceFiles.js';

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

function root(agent: Agent, path: string, from: string): SourceRoot {
  return { agent, path, from, exists: existsSync(path) };
}

/** The candidate roots of every agent, first the ones that win. */
export function sourceRoots(env: NodeJS.ProcessEnv, overrides: Overrides = {}): SourceRoot[] {
  const h = home(env);
  const xdgData = env.XDG_DATA_HOME || join(h, '.local', 'share');
  const xdgConfig = env.XDG_CONFIG_HOME || join(h, '.config');
  const out: SourceRoot[] = [];
  const flag = (a: Agent) => overrides[a];

  const claude = flag('claude');
  if (claude)
    out.push(
      root(
        'claude',
        existsSync(join(claude, 'projects')) ? join(claude, 'projects') : claude,
        '--source-dir',
      ),
    );
  else if (env.CLAUDE_CONFIG_DIR)
    out.push(root('claude', join(env.CLAUDE_CONFIG_DIR, 'projects'), 'CLAUDE_CONFIG_DIR'));
  else {
    out.push(root('claude', join(h, '.claude', 'projects'), 'default'));
    const alt = join(xdgConfig, 'claude-code', 'projects');
    if (existsSync(alt)) out.push(root('claude', alt, 'XDG_CONFIG_HOME'));
  }

  const codex = flag('codex');
  if (codex) out.push(root('codex', codex, '--source-dir'));
  else if (env.CODEX_HOME) out.push(root('codex', env.CODEX_HOME, 'CODEX_HOME'));
  else out.push(root('codex', join(h, '.codex'), 'default'));

  const gemini = flag('gemini');
  if (gemini)
    out.push(
      root(
        'gemini',
        existsSync(join(gemini, '.gemini')) ? join(gemini, '.gemini') : gemini,
        '--source-dir',
      ),
    );
  else if (env.GEMINI_CLI_HOME)
    out.push(root('gemini', join(env.GEMINI_CLI_HOME, '.gemini'), 'GEMINI_CLI_HOME'));
  else out.push(root('gemini', join(h, '.gemini'), 'default'));

  const opencode = flag('opencode');
  if (opencode) out.push(root('opencode', opencode, '--source-dir'));
  else if (env.OPENCODE_DB) out.push(root('opencode', env.OPENCODE_DB, 'OPENCODE_DB'));
  else out.push(root('opencode', join(xdgData, 'opencode'), 'default'));

  const praison = flag('praisonai');
  if (praison)
    out.push(
      root(
        'praisonai',
        existsSync(join(praison, 'sessions')) ? join(praison, 'sessions') : praison,
        '--source-dir',
      ),
    );
  else if (env.PRAISONAI_HOME)
    out.push(root('praisonai', join(env.PRAISONAI_HOME, 'sessions'), 'PRAISONAI_HOME'));
  else {
    // paths.py: an existing ~/.praisonai, else the legacy ~/.praison, else XDG on fresh installs. Probe all.
    for (const [p, from] of [
      [join(h, '.praisonai', 'sessions'), 'default'],
      [join(h, '.praison', 'sessions'), 'legacy'],
      [join(xdgData, 'praisonai', 'sessions'), 'XDG_DATA_HOME'],
    ] as const)
      if (from === 'default' || existsSync(p)) out.push(root('praisonai', p, from));
  }
  out.push(...moreRoots(env, overrides));
  return out;
}

/**
 * `join(dir, name)` for a `dir` that join() made and a name readdir gave: the same
 * string without normalising it again (join was a quarter of an idle pass over
 * 10,000 files). The stored `files` paths stay byte-for-byte what join() made.
 */
export function child(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Files under `dir` to `depth` levels, not following symbolic links to directories. */
function walk(dir: string, depth: number, out: string[]): void {
  for (const e of entries(dir)) {
    const p = child(dir, e.name);
    if (e.isDirectory()) {
      if (depth > 0) walk(p, depth - 1, out);
    } else if (e.isFile()) out.push(p);
  }
}

/** Thrown by `add` once `max` files are listed: the listing stops there. */
const ENOUGH = Symbol('enough');

/**
 * The history files one root holds; the first `max` only when given (whether an
 * agent has any history at all need not list all of it).
 */
export function listFiles(r: SourceRoot, max = Infinity): SourceFile[] {
  if (!r.exists) return [];
  const files: SourceFile[] = [];
  const add = (path: string, format: Format) => {
    files.push({ agent: r.agent, path, format });
    if (files.length >= max) throw ENOUGH;
  };
  try {
    listInto(r, add);
  } catch (err) {
    if (err !== ENOUGH) throw err;
  }
  return files;
}

/** Whether a root holds at least one history file (a folder alone is not a history). */
export function hasFiles(r: SourceRoot): boolean {
  return listFiles(r, 1).length > 0;
}

function listInto(r: SourceRoot, add: (path: string, format: Format) => void): void {
  switch (r.agent) {
    case 'claude': {
      // projects/<enc-cwd>/<id>.jsonl, agent-<id>.jsonl (older subagents), <id>/subagents/agent-<id>.jsonl
      for (const project of entries(r.path)) {
        if (!project.isDirectory()) continue;
        const pdir = join(r.path, project.name);
        for (const e of entries(pdir)) {
          if (e.isFile()) {
            if (e.name.endsWith('.jsonl')) add(child(pdir, e.name), 'jsonl');
          } else if (e.isDirectory()) {
            const subagents = child(child(pdir, e.name), 'subagents');
            for (const s of entries(subagents))
              if (s.isFile() && s.name.endsWith('.jsonl')) add(child(subagents, s.name), 'jsonl');
          }
        }
      }
      break;
    }
    case 'codex': {
      const all: string[] = [];
      walk(join(r.path, 'sessions'), 4, all);
      walk(join(r.path, 'archived_sessions'), 4, all);
      const names = new Set(all);
      for (const p of all) {
        const name = basename(p);
        if (!name.startsWith('rollout-')) continue;
        if (name.endsWith('.jsonl')) add(p, 'jsonl');
        // When both exist the plain file wins (compression.rs).
        else if (name.endsWith('.jsonl.zst')) {
          if (!names.has(p.slice(0, -4))) add(p, 'zst');
        } else if (name.endsWith('.json')) add(p, 'json');
      }
      break;
    }
    case 'gemini': {
      for (const project of entries(join(r.path, 'tmp'))) {
        if (!project.isDirectory()) continue;
        const chats = join(r.path, 'tmp', project.name, 'chats');
        for (const e of entries(chats)) {
          const p = child(chats, e.name);
          if (e.isFile() && e.name.startsWith('session-')) {
            if (e.name.endsWith('.jsonl')) add(p, 'jsonl');
            else if (e.name.endsWith('.json')) add(p, 'json');
          } else if (e.isDirectory())
            for (const s of entries(p))
              if (s.isFile() && s.name.endsWith('.jsonl')) add(child(p, s.name), 'jsonl');
        }
      }
      break;
    }
    case 'opencode': {
      let isFile = false;
      try {
        isFile = statSync(r.path).isFile();
      } catch {
        /* vanished between the checks */
      }
      if (isFile) add(r.path, 'sqlite');
      else {
        for (const e of entries(r.path))
          if (e.isFile() && /^opencode.*\.db$/.test(e.name)) add(join(r.path, e.name), 'sqlite');
        // Before 1.2: JSON under storage/ (left on disk after 1.2 imports it).
        if (existsSync(join(r.path, 'storage', 'session'))) add(join(r.path, 'storage'), 'storage');
      }
      break;
    }
    case 'praisonai': {
      for (const e of entries(r.path))
        // *.lock, *.tmp and quarantined *.json.corrupt-<ms> are not sessions.
        if (e.isFile() && e.name.endsWith('.json')) add(join(r.path, e.name), 'json');
        // SqliteTranscriptStore keeps sessions only here; sessions_index.db is an index beside the JSON.
        else if (e.isFile() && e.name === 'sessions.db') add(join(r.path, e.name), 'sqlite');
      break;
    }
    default:
      for (const f of moreFiles(r)) add(f.path, f.format);
  }
}
