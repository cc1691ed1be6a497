/**
 * The PostgreSQL feed: brings one PostgreSQL-backed profile's rows into its
 * mirror (src/mirror/hermes.ts), moving only what changed since the last sync.
 *
 * A good neighbour there (STORE.md "Reading without disturbing the agent"):
 * `application_name=lookback`, every statement read-only under a statement
 * and lock timeout, short transactions (one snapshot for the catalog and the
 * session fingerprints, then one statement per batch of rows), no advisory or
 * row locks, nothing created, and no connection kept once the sync is done.
 *
 * What changed is found without trusting the order of commits:
 * - `state_change_revision` (or [F]'s `hermes_change_revision`) unchanged since
 *   the last sync: nothing to read beyond that one row;
 * - every session's fingerprint (md5 of its row, computed by the server) is
 *   compared with the one stored at the last sync: a new message, a rewind, a
 *   compaction, a title or `ended_at` moves the session row (the agent keeps its
 *   counters there), and a changed session's messages are reconciled by their
 *   own fingerprints (new, changed and deleted rows);
 * - messages past the id watermark are read in id order, and the last
 *   TRAILING_IDS ids below it are re-listed, so an id committed after a higher
 *   one is picked up even when its session row did not move.
 */
import pg from 'pg';
import { pgConnectConfig } from './connectConfig.js';
import {
  openMirror,
  type Affinity,
  type ColumnSpec,
  type HermesMirror,
  type Row,
} from '../mirror/hermes.js';
import { mirrorFile, type PgTarget } from '../store/postgresConfig.js';
import { PG_BATCH_ROWS, PG_ID_CHUNK, PG_STATEMENT_TIMEOUT_MS, TRAILING_IDS } from '../budgets.js';

/** Columns lookback never reads: large, and never shown (STORE.md). */
const SKIPPED = new Set(['search_vector', 'system_prompt', 'api_content']);

export interface SyncReport {
  profile: string;
  endpoint: string;
  schema: string;
  mirror: string;
  /** The first sync into an empty mirror. */
  first: boolean;
  /** Nothing changed at the source since the last sync (its change revision did not move). */
  unchanged: boolean;
  sessions: { upserted: number; deleted: number };
  messages: { upserted: number; deleted: number };
  ms: number;
}

export class PgSyncError extends Error {}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

function affinity(dataType: string): Affinity {
  const t = dataType.toLowerCase();
  if (/^(bigint|integer|smallint|boolean)$/.test(t)) return 'INTEGER';
  if (/^(double precision|real|numeric)/.test(t)) return 'REAL';
  if (t === 'bytea') return 'BLOB';
  return 'TEXT';
}

/** Numbers as numbers (int8 and numeric arrive as strings by default); JSON kept as its text. */
const TYPES = {
  getTypeParser: (oid: number, format?: string) => {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    if (oid === 114 || oid === 3802) return (v: string) => v;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * A value in its SQLite form: the PostgreSQL agent writes text that SQLite
 * held with a NUL prefix (structured content) or NULs inside as "\u0001json:"
 * + JSON, and bytes as "\u0001bytes:" + base64 (STORE.md "Content").
 */
export function sqliteForm(v: unknown): unknown {
  if (typeof v !== 'string' || v.charCodeAt(0) !== 1) return v;
  if (v.startsWith('\u0001json:')) {
    const json = v.slice(6);
    try {
      const parsed: unknown = JSON.parse(json);
      return typeof parsed === 'string' ? parsed : `\u0000json:${json}`;
    } catch {
      return v;
    }
  }
  if (v.startsWith('\u0001bytes:')) return Buffer.from(v.slice(7), 'base64');
  return v;
}

function toSqlite(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = sqliteForm(v);
  return out;
}

/** One line naming the profile, for any failure to reach or read the database. */
export function explainPgError(err: unknown, t: PgTarget, schema?: string): PgSyncError {
  if (err instanceof PgSyncError) return err;
  const e = err as { code?: string; message?: string };
  const msg = String(e?.message ?? err).split('\n')[0]!;
  const where = `PostgreSQL at ${t.endpoint}`;
  const p = `profile ${t.profile}`;
  const code = e?.code ?? '';
  if (
    /^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ECONNRESET|EAI_AGAIN|ENOENT)$/.test(
      code,
    ) ||
    /timeout|terminated unexpectedly/i.test(msg)
  )
    return new PgSyncError(`${p}: ${where} unreachable (${code || msg})`);
  if (code === '28P01' || code === '28000')
    return new PgSyncError(`${p}: ${where} refused the login (${msg})`);
  if (code === '3D000') return new PgSyncError(`${p}: ${where}: ${msg}`);
  if (code === '42P01' || code === '42703')
    return new PgSyncError(
      `${p}: ${where}, schema ${schema ?? '?'}: ${msg} (not a layout lookback knows)`,
    );
  if (code === '57014')
    return new PgSyncError(`${p}: ${where}: a read took too long and was cancelled`);
  if (/invalid url|Invalid URL|URI malformed/i.test(msg))
    return new PgSyncError(
      `${p}: HERMES_DATABASE_URL in ${t.home}/.env is not a valid PostgreSQL URL`,
    );
  return new PgSyncError(`${p}: ${where}: ${msg}`);
}

export interface SyncOptions {
  /** lookback's cache directory (the mirror goes under `postgres/` there). */
  cacheDir: string;
  statementTimeoutMs?: number;
  /** Told after each page of messages copied and before the index is built (a first sync of a big store takes minutes). */
  onProgress?: (p: SyncProgress) => void;
}

/** How far a sync is: messages copied of `total` (known on a first sync), then the index being built. */
export interface SyncProgress {
  profile: string;
  phase: 'copy' | 'index';
  done: number;
  total: number | null;
}

type Client = pg.PoolClient;

interface Catalog {
  schema: string;
  sessions: ColumnSpec[];
  messages: ColumnSpec[];
  schemaVersion: number | null;
  revision: string | null;
}

async function catalog(c: Client, t: PgTarget): Promise<Catalog> {
  const found = await c.query<{ table_schema: string }>(
    `SELECT table_schema FROM information_schema.tables
      WHERE table_schema = ANY($1) AND table_name IN ('sessions', 'messages')
      GROUP BY table_schema HAVING count(*) = 2`,
    [t.candidates],
  );
  const hits = t.candidates.filter((s) => found.rows.some((r) => r.table_schema === s));
  if (hits.length === 0) {
    const others = await c.query<{ table_schema: string }>(
      `SELECT DISTINCT table_schema FROM information_schema.tables
        WHERE table_name = 'sessions' AND table_schema LIKE 'hermes%' ORDER BY 1 LIMIT 10`,
    );
    const list = others.rows.map((r) => r.table_schema);
    throw new PgSyncError(
      `profile ${t.profile}: no Hermes schema ${t.candidates.join(' or ')} at ${t.endpoint}` +
        (list.length > 0
          ? ` (other Hermes schemas there: ${list.join(', ')}; set database.schema in ${t.configFile} to read one)`
          : ''),
    );
  }
  if (hits.length > 1 && !t.explicit)
    throw new PgSyncError(
      `profile ${t.profile}: two Hermes schemas at ${t.endpoint} could be this profile's (${hits.join(', ')}); set database.schema in ${t.configFile}`,
    );
  const schema = hits[0]!;
  const cols = await c.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_generated: string;
  }>(
    `SELECT table_name, column_name, data_type, is_generated FROM information_schema.columns
      WHERE table_schema = $1 AND table_name IN ('sessions', 'messages') ORDER BY ordinal_position`,
    [schema],
  );
  const pick = (table: string) =>
    cols.rows
      .filter(
        (r) =>
          r.table_name === table &&
          !SKIPPED.has(r.column_name) &&
          r.data_type !== 'tsvector' &&
          r.is_generated !== 'ALWAYS',
      )
      .map((r) => ({ name: r.column_name, type: affinity(r.data_type) }));
  const tables = await c.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1
      AND table_name IN ('schema_version', 'state_change_revision', 'hermes_change_revision')`,
    [schema],
  );
  const has = (n: string) => tables.rows.some((r) => r.table_name === n);
  let schemaVersion: number | null = null;
  if (has('schema_version')) {
    const v = await c.query<{ v: number | null }>(
      `SELECT max(version)::float8 AS v FROM ${q(schema)}.schema_version`,
    );
    schemaVersion = v.rows[0]?.v ?? null;
  }
  let revision: string | null = null;
  const revTable = has('state_change_revision')
    ? 'state_change_revision'
    : has('hermes_change_revision')
      ? 'hermes_change_revision'
      : null;
  if (revTable) {
    const r = await c.query<{ r: string }>(
      `SELECT (SELECT row_to_json(x)::text FROM ${q(schema)}.${q(revTable)} x LIMIT 1) AS r`,
    );
    revision = r.rows[0]?.r ?? null;
  }
  return {
    schema,
    sessions: pick('sessions'),
    messages: pick('messages'),
    schemaVersion,
    revision,
  };
}

const fpExpr = (cols: readonly ColumnSpec[], alias: string) =>
  `md5(ROW(${cols.map((c) => `${alias}.${q(c.name)}`).join(', ')})::text)`;

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * Brings the profile's mirror up to date with its PostgreSQL schema and says
 * what moved. Throws PgSyncError (one line naming the profile) when the
 * database cannot be reached or read.
 */
export async function syncPostgres(t: PgTarget, opts: SyncOptions): Promise<SyncReport> {
  const t0 = performance.now();
  let pool: pg.Pool;
  try {
    // What pg reads from a URL (application_name, options) is lookback's default there, and the
    // URL's own fields win, as with pg's connectionString; the pool's and client's own settings
    // come after, as a URL never set them (connectConfig.ts).
    const connectionDefaults: pg.ClientConfig = {
      application_name: 'lookback',
      options: [
        '-c default_transaction_read_only=on',
        `-c statement_timeout=${opts.statementTimeoutMs ?? PG_STATEMENT_TIMEOUT_MS}`,
        '-c lock_timeout=1000',
        '-c idle_in_transaction_session_timeout=10000',
      ].join(' '),
    };
    pool = new pg.Pool({
      ...pgConnectConfig(t.url, connectionDefaults),
      connectionTimeoutMillis: 5_000,
      // The whole sync is one burst; nothing is kept once it is done.
      max: 1,
      idleTimeoutMillis: 1_000,
      allowExitOnIdle: true,
      types: TYPES,
    });
  } catch (err) {
    throw explainPgError(err, t);
  }
  pool.on('error', () => {
    // An idle connection dropped by the server: the next sync connects afresh.
  });
  let client: Client | null = null;
  let mirror: HermesMirror | null = null;
  let cat: Catalog | null = null;
  try {
    client = await pool.connect();
    const c = client;
    // One snapshot for the catalog and the session fingerprints; committed at once.
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    cat = await catalog(c, t);
    const S = `${q(cat.schema)}.sessions`;
    const M = `${q(cat.schema)}.messages`;
    const path = mirrorFile(opts.cacheDir, t.endpoint, cat.schema);
    mirror = openMirror(path, {
      columns: { sessions: cat.sessions, messages: cat.messages },
      schemaVersion: cat.schemaVersion,
    });
    const m = mirror;
    const first = m.fresh || m.getMeta('complete') !== '1';
    const report: SyncReport = {
      profile: t.profile,
      endpoint: t.endpoint,
      schema: cat.schema,
      mirror: path,
      first,
      unchanged: false,
      sessions: { upserted: 0, deleted: 0 },
      messages: { upserted: 0, deleted: 0 },
      ms: 0,
    };
    if (!first && cat.revision !== null && m.getMeta('revision') === cat.revision) {
      await c.query('COMMIT');
      report.unchanged = true;
      report.ms = performance.now() - t0;
      return report;
    }
    const sfp = await c.query<{ id: string; fp: string }>(
      `SELECT s.id, ${fpExpr(cat.sessions, 's')} AS fp FROM ${S} s`,
    );
    // The size of a first copy, for its progress line (one index-only count in the same snapshot).
    const total =
      first && opts.onProgress
        ? Number((await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${M}`)).rows[0]?.n ?? 0)
        : null;
    await c.query('COMMIT');
    const progress = (phase: SyncProgress['phase']) =>
      opts.onProgress?.({ profile: t.profile, phase, done: report.messages.upserted, total });

    const sessionCols = cat.sessions.map((x) => `s.${q(x.name)}`).join(', ');
    const messageCols = cat.messages.map((x) => `m.${q(x.name)}`).join(', ');
    const mfp = fpExpr(cat.messages, 'm');
    const known = first ? new Map<string, string>() : m.fingerprints('s');
    const pgSessions = new Map(sfp.rows.map((r) => [r.id, r.fp]));
    const changed = sfp.rows.filter((r) => known.get(r.id) !== r.fp).map((r) => r.id);
    const gone = [...known.keys()].filter((id) => !pgSessions.has(id));

    // Everything read below is written in ONE mirror transaction: readers see the
    // mirror before this sync or after it, never between.
    m.begin();
    // A first copy builds its full-text indexes once, after the rows.
    if (first) m.deferIndexes();
    try {
      if (gone.length > 0) report.sessions.deleted = m.deleteSessions(gone);
      const apply = (rows: Record<string, unknown>[]) => {
        const fps: [string, string][] = [];
        const plain = rows.map((r) => {
          const { __fp, ...rest } = r;
          if (__fp !== undefined) fps.push([String(rest.id), String(__fp)]);
          return toSqlite(rest);
        });
        m.applyMessages(plain);
        if (fps.length > 0) m.setFingerprints('m', fps);
        report.messages.upserted += plain.length;
      };
      // 1. Messages past the watermark, in id order, a batch per statement. A first sync
      //    takes no per-message fingerprint (hashing every row there, and indexing the
      //    hashes here, was a third of its time): a session that later moves has its
      //    messages without one re-read once (step 3), and fingerprinted then.
      //    The next batch is asked for before this one is written, so the server
      //    reads while the mirror writes.
      const wm = first ? null : m.watermarks().maxMessageId;
      const fpCol = first ? '' : `, ${mfp} AS __fp`;
      const page = (after: number) =>
        c.query(
          `SELECT ${messageCols}${fpCol} FROM ${M} m WHERE m.id > $1 ORDER BY m.id LIMIT ${PG_BATCH_ROWS}`,
          [after],
        );
      let next: ReturnType<typeof page> | null = page(wm ?? -1);
      while (next) {
        const r: Awaited<ReturnType<typeof page>> = await next;
        next = r.rows.length === PG_BATCH_ROWS ? page(Number(r.rows[r.rows.length - 1]!.id)) : null;
        try {
          if (r.rows.length > 0) apply(r.rows);
          progress('copy');
        } catch (err) {
          // The page asked for ahead is not read: its failure is not this one's.
          void next?.catch(() => undefined);
          throw err;
        }
      }
      if (!first && wm !== null) {
        // 2. The trailing ids below the old watermark: commits that came out of id order, and deletions.
        const from = wm - TRAILING_IDS + 1;
        const ids = await c.query<{ id: number }>(
          `SELECT m.id FROM ${M} m WHERE m.id >= $1 AND m.id <= $2`,
          [from, wm],
        );
        const have = m.messageIdsFrom(from);
        const there = new Set(ids.rows.map((r) => Number(r.id)));
        const missing = [...there].filter((id) => !have.has(id));
        const extra = [...have].filter((id) => id <= wm && !there.has(id));
        for (const part of chunks(missing, PG_ID_CHUNK)) {
          const r = await c.query(
            `SELECT ${messageCols}, ${mfp} AS __fp FROM ${M} m WHERE m.id = ANY($1)`,
            [part],
          );
          apply(r.rows);
        }
        report.messages.deleted += m.deleteMessages(extra);
        // 3. Sessions whose row moved: their messages reconciled by fingerprint.
        for (const part of chunks(changed, PG_ID_CHUNK)) {
          const r = await c.query<{ id: number; session_id: string; fp: string }>(
            `SELECT m.id, m.session_id, ${mfp} AS fp FROM ${M} m WHERE m.session_id = ANY($1)`,
            [part],
          );
          const fps = m.fingerprintsOf(
            'm',
            r.rows.map((x) => String(x.id)),
          );
          const stale = r.rows
            .filter((x) => fps.get(String(x.id)) !== x.fp)
            .map((x) => Number(x.id));
          for (const ids2 of chunks(stale, PG_ID_CHUNK)) {
            const rows = await c.query(
              `SELECT ${messageCols}, ${mfp} AS __fp FROM ${M} m WHERE m.id = ANY($1)`,
              [ids2],
            );
            apply(rows.rows);
          }
          const live = new Set(r.rows.map((x) => Number(x.id)));
          const dropped: number[] = [];
          for (const sid of part)
            for (const id of m.messageIdsOf(sid)) if (!live.has(id)) dropped.push(id);
          report.messages.deleted += m.deleteMessages(dropped);
        }
      }
      // 4. The sessions that moved, with the fingerprints seen in the snapshot above, so a
      //    change made since is seen again next time.
      for (const part of chunks(changed, PG_ID_CHUNK)) {
        const r = await c.query(`SELECT ${sessionCols} FROM ${S} s WHERE s.id = ANY($1)`, [part]);
        m.applySessions(r.rows.map(toSqlite));
        report.sessions.upserted += r.rows.length;
        const vanished = part.filter((id) => !r.rows.some((x) => x.id === id));
        report.sessions.deleted += m.deleteSessions(vanished);
      }
      m.setFingerprints(
        's',
        changed.map((id) => [id, pgSessions.get(id)!]),
      );
      if (first) progress('index');
      m.indexNow();
      m.setMeta('revision', cat.revision);
      m.setMeta('complete', '1');
      m.setMeta('synced_at', String(Date.now() / 1000));
      m.commit();
    } catch (err) {
      m.rollback();
      throw err;
    }
    report.ms = performance.now() - t0;
    return report;
  } catch (err) {
    if (client) await client.query('ROLLBACK').catch(() => undefined);
    throw explainPgError(err, t, cat?.schema);
  } finally {
    mirror?.close();
    client?.release();
    await pool.end().catch(() => undefined);
  }
}
