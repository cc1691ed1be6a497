/**
 * `lookback sync --host NAME`: the remote agents' files and Hermes stores into
 * the host's mirror, then the host's own agents index over that mirror. The
 * state (what each mirrored file holds, when the host was last read, the last
 * failure) is written beside it atomically, after what it describes reached the
 * disk.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { indexAll } from '../agents/indexer.js';
import { indexPath, openIndex } from '../agents/indexDb.js';
import { syncHermes, type HermesReport } from './hermesMirror.js';
import { syncFiles, type FilesReport, type MirroredFile } from './mirrorFiles.js';
import { hostDir, hostEnv, hostsRoot, mirrorHome } from './paths.js';
import { HostError, closeMaster } from './ssh.js';

export interface HostState {
  host: string;
  files: Record<string, MirroredFile>;
  /** Mirrored Hermes stores (relative to the mirror home) → digest of their sessions as mirrored. */
  hermes: Record<string, string>;
  last_sync_at: string | null;
  last_ok_at: string | null;
  last_error: string | null;
}

export function statePath(host: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(hostDir(host, env), 'state.json');
}

export function readState(host: string, env: NodeJS.ProcessEnv = process.env): HostState | null {
  try {
    const s = JSON.parse(readFileSync(statePath(host, env), 'utf8')) as HostState;
    if (!s.hermes || Array.isArray(s.hermes)) s.hermes = {};
    return s;
  } catch {
    return null;
  }
}

function writeState(s: HostState, env: NodeJS.ProcessEnv): void {
  const file = statePath(s.host, env);
  mkdirSync(hostDir(s.host, env), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(s));
  renameSync(`${file}.tmp`, file);
}

/** Every host synced at least once (its state file names it as typed). */
export function knownHosts(env: NodeJS.ProcessEnv = process.env): HostState[] {
  let dirs: string[] = [];
  try {
    dirs = readdirSync(hostsRoot(env));
  } catch {
    return [];
  }
  const out: HostState[] = [];
  for (const d of dirs.sort()) {
    try {
      out.push(
        JSON.parse(readFileSync(join(hostsRoot(env), d, 'state.json'), 'utf8')) as HostState,
      );
    } catch {
      /* not a host folder */
    }
  }
  return out;
}

export interface SyncReport {
  host: string;
  files: FilesReport;
  hermes: HermesReport;
  indexed: { parsed: number; messages: number };
  bytes: number;
  /** Listing and reading over ssh (into the mirror). */
  transferMs: number;
  /** Indexing the mirror's agent files. */
  indexMs: number;
  ms: number;
}

export async function syncHost(
  host: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SyncReport> {
  const t0 = performance.now();
  const home = mirrorHome(host, env);
  const before = readState(host, env);
  mkdirSync(home, { recursive: true });
  const state: HostState = before ?? {
    host,
    files: {},
    hermes: {},
    last_sync_at: null,
    last_ok_at: null,
    last_error: null,
  };
  state.last_sync_at = new Date().toISOString();
  const save = () => writeState(state, env);
  try {
    const files = await syncFiles(host, home, state.files, env, save);
    save();
    const hermes = await syncHermes(host, home, env, state.hermes);
    const stores: Record<string, string> = {};
    for (const rel of new Set([...Object.keys(state.hermes), ...hermes.stores.map((s) => s.store)]))
      if (existsSync(join(home, rel))) stores[rel] = hermes.digests[rel] ?? '';
    state.hermes = stores;
    const transferMs = Math.round(performance.now() - t0);
    const t1 = performance.now();
    const hEnv = hostEnv(host, env);
    const opened = openIndex(indexPath(hEnv));
    let indexed = { parsed: 0, messages: 0 };
    try {
      const r = indexAll(opened.db, { env: hEnv });
      indexed = { parsed: r.parsed, messages: r.messages };
    } finally {
      opened.db.close();
    }
    state.last_ok_at = new Date().toISOString();
    state.last_error = null;
    save();
    return {
      host,
      files,
      hermes,
      indexed,
      bytes: files.listingBytes + files.dataBytes + hermes.bytes,
      transferMs,
      indexMs: Math.round(performance.now() - t1),
      ms: Math.round(performance.now() - t0),
    };
  } catch (err) {
    state.last_error =
      err instanceof HostError
        ? err.message
        : `${host}: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
    // A host never read (a typo, a host not in the config) leaves nothing behind here.
    if (!before && Object.keys(state.files).length === 0 && Object.keys(state.hermes).length === 0)
      rmSync(hostDir(host, env), { recursive: true, force: true });
    else save();
    throw err instanceof HostError ? err : new HostError(host, state.last_error);
  } finally {
    closeMaster(host, env);
  }
}
