/**
 * Where a synced host lives on this machine: `<cache>/lookback/hosts/<host>/`,
 * holding `home/` (the remote files in the remote's own layout under its home,
 * so the agents' discovery and the Hermes store choice run over it unchanged),
 * `cache/` (that host's derived agents index) and `state.json` (what was read
 * and when).
 */
import { join } from 'node:path';
import { lookbackCacheDir } from '../paths.js';

export class HostUsageError extends Error {}

/**
 * An ssh destination as typed (`box`, `ana@box`, `box.example.org`): no option
 * look-alike, no whitespace, control or shell characters, and nothing that would
 * climb out of the hosts folder.
 */
export function checkHostName(name: string): string {
  const n = name.trim();
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.@:%+-]{0,252}$/.test(n) || n.includes('..'))
    throw new HostUsageError(
      `--host takes an ssh destination such as an alias from ~/.ssh/config (letters, digits, . _ - @ :), not "${name}"`,
    );
  return n;
}

export function hostsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(lookbackCacheDir(env), 'hosts');
}

export function hostDir(host: string, env: NodeJS.ProcessEnv = process.env): string {
  // ':' (ipv6, user@host:port look-alikes) is kept out of file names.
  return join(hostsRoot(env), host.replace(/[:%]/g, '_'));
}

export function mirrorHome(host: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(hostDir(host, env), 'home');
}

/**
 * The environment under which this machine's code reads a host's mirror as if
 * it were that host: HOME is the mirror, the agents' overrides are dropped
 * (the remote's defaults were mirrored), and the derived index is the host's own.
 */
export function hostEnv(host: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const k of [
    'HERMES_HOME',
    'CLAUDE_CONFIG_DIR',
    'CODEX_HOME',
    'GEMINI_CLI_HOME',
    'OPENCODE_DB',
    'PRAISONAI_HOME',
    'XDG_DATA_HOME',
    'XDG_CONFIG_HOME',
    'LOOKBACK_INDEX',
  ])
    delete out[k];
  out.HOME = mirrorHome(host, env);
  out.XDG_CACHE_HOME = join(hostDir(host, env), 'cache');
  return out;
}
