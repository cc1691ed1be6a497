/**
 * Whether a profile keeps its sessions in PostgreSQL, and where (STORE.md
 * "PostgreSQL-backed profiles"): `database.backend` in the profile's own
 * config.yaml, the URL in `HERMES_DATABASE_URL` (the profile's `.env`, or the
 * environment for the profile `$HERMES_HOME` names), and the schema names the
 * agent's designs derive for the store. Files only: nothing here connects.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The `database:` mapping of a config.yaml, its scalar values as strings (null: no such mapping). */
export function databaseSection(text: string): Record<string, string> | null {
  const lines = text.split(/\r?\n/).map(stripComment);
  for (let i = 0; i < lines.length; i++) {
    const m = /^database\s*:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const rest = m[1]!.trim();
    if (rest.startsWith('{')) return flowMapping(rest);
    const out: Record<string, string> = {};
    let indent: number | null = null;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '') continue;
      const lead = /^\s*/.exec(line)![0].length;
      if (lead === 0) break;
      indent ??= lead;
      if (lead !== indent) continue;
      const kv = /^\s+([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
      if (kv && kv[2]!.trim() !== '') out[kv[1]!] = scalar(kv[2]!);
    }
    return out;
  }
  return null;
}

/** A YAML comment starts at `#` after whitespace, outside quotes. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

function scalar(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t[0] === '"' && t.endsWith('"')) || (t[0] === "'" && t.endsWith("'"))))
    return t.slice(1, -1);
  return t;
}

function flowMapping(text: string): Record<string, string> {
  const body = text.replace(/^\{/, '').replace(/\}\s*$/, '');
  const out: Record<string, string> = {};
  for (const part of body.split(',')) {
    const kv = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(part);
    if (kv && kv[2]!.trim() !== '') out[kv[1]!] = scalar(kv[2]!);
  }
  return out;
}

/** `${VAR}` from the environment first, then the profile's .env (the agent's effective config). */
function expand(v: string, env: NodeJS.ProcessEnv, dotenv: Record<string, string>): string {
  return v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k: string) => env[k] ?? dotenv[k] ?? '');
}

/** `KEY=value` lines: optional `export `, single or double quotes, `#` comments (unquoted: from ` #`). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(raw);
    if (!m) continue;
    let v = m[2]!;
    const q = v[0];
    if ((q === '"' || q === "'") && v.indexOf(q, 1) > 0) v = v.slice(1, v.indexOf(q, 1));
    else v = v.replace(/\s+#.*$/, '').trim();
    out[m[1]!] = v;
  }
  return out;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** What the config says about the database, or null when the profile is on SQLite. */
export interface PgConfig {
  backend: string;
  schema?: string;
  namespace?: string;
  configFile: string;
}

/** The `database` section when it moves the sessions off SQLite (anything but absent/`sqlite`). */
export function postgresConfig(home: string, env: NodeJS.ProcessEnv = {}): PgConfig | null {
  const configFile = join(home, 'config.yaml');
  const text = readText(configFile);
  if (text === null) return null;
  const db = databaseSection(text);
  if (!db?.backend) return null;
  const dotenv = parseDotenv(readText(join(home, '.env')) ?? '');
  const backend = expand(db.backend, env, dotenv).trim().toLowerCase();
  if (backend === '' || backend === 'sqlite') return null;
  const out: PgConfig = { backend, configFile };
  if (db.schema) out.schema = expand(db.schema, env, dotenv).trim();
  if (db.namespace) out.namespace = expand(db.namespace, env, dotenv).trim();
  return out;
}

/** How lookback reaches one PostgreSQL-backed profile: everything the feed needs, as plain data. */
export interface PgTarget {
  profile: string;
  home: string;
  url: string;
  /** `scheme://user@host:port/db`: the URL without its password, for messages and the cache key. */
  endpoint: string;
  /** Schema names to probe, in the agent's order; `explicit` when config.yaml names one. */
  candidates: string[];
  explicit: boolean;
  configFile: string;
}

/** `scheme://user@host:port/db`: never the password (STORE.md; [F]'s sanitized_database_url). */
export function sanitizedEndpoint(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname || decodeURIComponent(u.searchParams.get('host') ?? '') || 'localhost';
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${u.protocol}//${user}${host}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    // key=value strings: keep only the keys that say where.
    const keep = url
      .split(/\s+/)
      .filter((p) => /^(host|hostaddr|port|dbname|user)=/.test(p))
      .join(' ');
    return keep || 'postgresql (unparsed URL)';
  }
}

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** `realpath` as Python's `Path.resolve()`: symlinks followed as far as the path exists. */
function resolvePath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(resolvePath(parent), path.slice(parent.length).replace(/^[/\\]/, ''));
  }
}

/**
 * The schema names the agent's designs would use for this profile's store,
 * in the order STORE.md gives ("Which schema").
 */
export function schemaCandidates(
  profile: string,
  home: string,
  cfg: Pick<PgConfig, 'schema' | 'namespace'>,
  platform: NodeJS.Platform = process.platform,
): { candidates: string[]; explicit: boolean } {
  if (cfg.schema) return { candidates: [cfg.schema], explicit: true };
  const out: string[] = [];
  if (cfg.namespace) out.push(`hermes_state_${sha256(`${cfg.namespace}\0state.db`).slice(0, 16)}`);
  let store = join(resolvePath(resolve(home)), 'state.db');
  if (platform === 'win32') store = store.toLowerCase();
  const digest = sha256(Buffer.from(store, 'utf8'));
  const name = profile
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 35);
  out.push(`hermes_${name}_${digest.slice(0, 12)}`, `hermes_state_${digest.slice(0, 16)}`);
  return { candidates: out, explicit: false };
}

export class PgConfigError extends Error {}

/**
 * The target of a PostgreSQL-backed profile, or null when the profile is on
 * SQLite. `ownHome`: this is the profile `$HERMES_HOME` names, whose process
 * environment's URL wins. Throws PgConfigError (one line) when the config
 * cannot be followed.
 */
export function postgresTarget(
  profile: string,
  home: string,
  env: NodeJS.ProcessEnv,
  ownHome: boolean,
): PgTarget | null {
  const cfg = postgresConfig(home, env);
  if (!cfg) return null;
  if (cfg.backend !== 'postgres' && cfg.backend !== 'postgresql')
    throw new PgConfigError(
      `profile ${profile} keeps its sessions in a "${cfg.backend}" backend (database.backend in ${cfg.configFile}), which lookback cannot read`,
    );
  const dotenv = parseDotenv(readText(join(home, '.env')) ?? '');
  const url = (
    ownHome ? env.HERMES_DATABASE_URL || dotenv.HERMES_DATABASE_URL : dotenv.HERMES_DATABASE_URL
  )?.trim();
  if (!url)
    throw new PgConfigError(
      `profile ${profile} keeps its sessions in PostgreSQL, but HERMES_DATABASE_URL was not found in ${join(home, '.env')}`,
    );
  if (cfg.schema && (!SCHEMA.test(cfg.schema) || cfg.schema.startsWith('pg_')))
    throw new PgConfigError(
      `profile ${profile}: database.schema "${cfg.schema}" in ${cfg.configFile} is not a schema name the agent accepts`,
    );
  const { candidates, explicit } = schemaCandidates(profile, home, cfg);
  return {
    profile,
    home,
    url,
    endpoint: sanitizedEndpoint(url),
    candidates,
    explicit,
    configFile: cfg.configFile,
  };
}

/** The mirror file of one schema on one server: keyed by the sanitized endpoint, database and schema. */
export function mirrorFile(cacheDir: string, endpoint: string, schema: string): string {
  const key = sha256(`${endpoint}\n${schema}`).slice(0, 16);
  return join(cacheDir, 'postgres', `${schema}-${key}.db`);
}
