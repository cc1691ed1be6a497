/**
 * Writes the remote Hermes rows into a local SQLite file in the remote store's
 * own schema (its `sqlite_master` statements, FTS tables and triggers included,
 * so the mirror's full-text index is kept by the same triggers as the agent's),
 * at the same path under the host's mirror home. All-or-nothing per store: a
 * first copy is built beside and renamed into place; a later sync is one
 * transaction, committed when the remote says the store is done. The watermark
 * is the mirror's own `max(id)`, so it can never run ahead of what was written.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { HERMES_SCRIPT, HERMES_SHELL, type HermesLine } from './remoteHermes.js';
import { HostError, runRemote } from './ssh.js';

export interface HermesReport {
  stores: { store: string; sessions: number; messages: number; new_messages: number }[];
  /** Per store, the digest of its sessions and small tables as now mirrored. */
  digests: Record<string, string>;
  skipped: { store: string; why: string }[];
  bytes: number;
}

type Row = unknown[];

function value(v: unknown): unknown {
  if (v && typeof v === 'object' && '$b64' in v)
    return Buffer.from(String((v as { $b64: string }).$b64), 'base64');
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/** The tables FTS5 creates itself beside a virtual table `<name>`: `<name>_data` and so on. */
const SHADOW = ['data', 'idx', 'content', 'docsize', 'config'];

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** What the mirror of each store already holds: the request the remote script reads. */
type Known = { schema: boolean; watermark: number; digest: string };

function request(home: string, digests: Record<string, string>): Record<string, Known> {
  const out: Record<string, Known> = {};
  for (const rel of Object.keys(digests)) {
    const file = join(home, rel);
    if (!existsSync(file)) continue;
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare('SELECT max(id) AS m FROM messages').get() as { m: number | null };
        out[rel] = { schema: true, watermark: row.m ?? 0, digest: digests[rel] ?? '' };
      } finally {
        db.close();
      }
    } catch {
      /* unreadable mirror: the remote sends everything and it is rebuilt */
    }
  }
  return out;
}

class StoreWriter {
  private db: Database.Database;
  private readonly part: string | null;
  private sessionCols: string[] = [];
  private messageCols: string[] = [];
  private upsertSession: Database.Statement | null = null;
  private insertMessage: Database.Statement | null = null;
  private readonly seen = new Set<string>();
  /** The sessions were as last time: none was sent, so none is pruned. */
  same = false;
  digest: string | null = null;
  newMessages = 0;

  constructor(
    private readonly file: string,
    fresh: boolean,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.part = fresh ? `${file}.lookback-part` : null;
    if (this.part) rmSync(this.part, { force: true });
    this.db = new Database(this.part ?? file);
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma('journal_mode = DELETE');
    this.db.exec('BEGIN IMMEDIATE');
  }

  schema(rows: [string, string, string, string][]): void {
    const virtual = rows
      .filter(([type, , , sql]) => type === 'table' && /^CREATE VIRTUAL TABLE/i.test(sql))
      .map(([, name]) => name);
    for (const [type, name, , sql] of rows) {
      if (name.startsWith('sqlite_')) continue;
      // FTS5 makes its own shadow tables with the virtual table.
      if (type === 'table' && virtual.some((v) => SHADOW.some((x) => name === `${v}_${x}`)))
        continue;
      this.db.exec(sql);
    }
  }

  table(name: string, cols: string[], rows: Row[]): void {
    if (!this.hasTable(name)) return;
    this.db.exec(`DELETE FROM ${q(name)}`);
    const ins = this.db.prepare(
      `INSERT INTO ${q(name)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
    for (const r of rows) ins.run(...r.map(value));
  }

  private hasTable(name: string): boolean {
    return !!this.db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(name);
  }

  sessions(cols: string[]): void {
    this.sessionCols = cols;
    const set = cols.filter((c) => c !== 'id').map((c) => `${q(c)} = excluded.${q(c)}`);
    this.upsertSession = this.db.prepare(
      `INSERT INTO sessions (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
       ON CONFLICT(id) DO UPDATE SET ${set.join(', ')}`,
    );
  }

  session(r: Row): void {
    const id = String(r[this.sessionCols.indexOf('id')]);
    this.seen.add(id);
    this.upsertSession!.run(...r.map(value));
  }

  messages(cols: string[]): void {
    this.messageCols = cols;
    this.insertMessage = this.db.prepare(
      `INSERT OR IGNORE INTO messages (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
  }

  message(r: Row): void {
    if (this.insertMessage!.run(...r.map(value)).changes > 0) this.newMessages++;
  }

  /** Sessions pruned on the remote go here too, with their messages. */
  done(): { sessions: number; messages: number } {
    const ids = (this.db.prepare('SELECT id FROM sessions').all() as { id: string }[]).map(
      (r) => r.id,
    );
    const gone = this.same ? [] : ids.filter((id) => !this.seen.has(id));
    const delM = this.db.prepare('DELETE FROM messages WHERE session_id = ?');
    const delS = this.db.prepare('DELETE FROM sessions WHERE id = ?');
    for (const id of gone) {
      delM.run(id);
      delS.run(id);
    }
    this.db.exec('COMMIT');
    const counts = {
      sessions: (this.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n,
      messages: (this.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n,
    };
    this.db.close();
    if (this.part) renameSync(this.part, this.file);
    return counts;
  }

  abort(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.db.close();
    } catch {
      /* closing after a failure */
    }
    if (this.part) rmSync(this.part, { force: true });
  }
}

export async function syncHermes(
  host: string,
  home: string,
  env: NodeJS.ProcessEnv,
  known: Record<string, string>,
): Promise<HermesReport> {
  const report: HermesReport = { stores: [], skipped: [], bytes: 0, digests: {} };
  const req = request(home, known);
  let writer: StoreWriter | null = null;
  let store = '';
  let pending = '';
  const decoder = new StringDecoder('utf8');
  const onLine = (line: string) => {
    if (!line) return;
    const m = JSON.parse(line) as HermesLine;
    switch (m.k) {
      case 'store':
        store = m.store;
        if (store.split('/').includes('..') || !/^\.hermes\//.test(store))
          throw new Error(`unexpected store path ${store.slice(0, 80)}`);
        writer = new StoreWriter(join(home, store), m.reset || !req[store]);
        break;
      case 'schema':
        writer!.schema(m.rows);
        break;
      case 'table':
        writer!.table(m.name, m.cols, m.rows);
        break;
      case 'sessions':
        writer!.sessions(m.cols);
        break;
      case 's':
        writer!.session(m.r);
        break;
      case 'messages':
        writer!.messages(m.cols);
        break;
      case 'm':
        writer!.message(m.r);
        break;
      case 'same':
        writer!.same = true;
        writer!.digest = m.digest;
        break;
      case 'digest':
        writer!.digest = m.digest;
        break;
      case 'done': {
        const w = writer as StoreWriter | null;
        writer = null;
        const c = w!.done();
        if (w!.digest) report.digests[store] = w!.digest;
        report.stores.push({ store, ...c, new_messages: w!.newMessages });
        break;
      }
      case 'skip':
        report.skipped.push({ store: m.store, why: m.why });
        break;
    }
  };
  const res = await runRemote(
    host,
    HERMES_SHELL,
    JSON.stringify(req),
    env,
    (chunk) => {
      pending += decoder.write(chunk);
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        onLine(line);
      }
    },
    [HERMES_SCRIPT],
  );
  report.bytes = res.bytes;
  const open = writer as StoreWriter | null;
  if (open) open.abort();
  if (res.code !== 0 || open)
    throw new HostError(
      host,
      `${host}: reading Hermes stores failed: ${res.stderr || (open ? 'connection cut' : `ssh exited with ${res.code}`)}`,
    );
  return report;
}
