/**
 * The remote Hermes rows into lookback's mirror of each store (src/mirror/hermes.ts,
 * the one writer the PostgreSQL feed uses too), at the store's own path under
 * the host's mirror home: the remote's `sessions` and `messages` columns, as
 * its schema declares them, and lookback's own full-text indexes kept by
 * triggers. All-or-nothing per store: a first copy is built beside and put in
 * place after it is committed; a later sync is one transaction, committed when
 * the remote says the store is done. The watermark is the mirror's own
 * `max(id)`, so it can never run ahead of what was written.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { HermesMirror, columnsFromDb, openMirror, type Row } from '../mirror/hermes.js';
import { HERMES_SCRIPT, HERMES_SHELL, type HermesLine } from './remoteHermes.js';
import { HostError, runRemote } from './ssh.js';
import { MIRROR_BATCH_ROWS } from '../budgets.js';

export interface HermesReport {
  stores: { store: string; sessions: number; messages: number; new_messages: number }[];
  /** Per store, the digest of its sessions and small tables as now mirrored. */
  digests: Record<string, string>;
  skipped: { store: string; why: string }[];
  bytes: number;
}

function value(v: unknown): unknown {
  if (v && typeof v === 'object' && '$b64' in v)
    return Buffer.from(String((v as { $b64: string }).$b64), 'base64');
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/** The mirror's note that the remote grew columns it lacks: the next sync rebuilds it. */
const RESET_NEXT = 'reset_next';

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
        // Only a mirror this writer made (and not marked for a rebuild) is continued.
        const reset = db
          .prepare(`SELECT value FROM lookback_mirror WHERE key = ?`)
          .pluck()
          .get(RESET_NEXT);
        if (reset !== undefined) continue;
        const row = db.prepare('SELECT max(id) AS m FROM messages').get() as { m: number | null };
        out[rel] = { schema: true, watermark: row.m ?? 0, digest: digests[rel] ?? '' };
      } finally {
        db.close();
      }
    } catch {
      /* unreadable or foreign mirror: the remote sends everything and it is rebuilt */
    }
  }
  return out;
}

class StoreWriter {
  private mirror: HermesMirror | null = null;
  private sessionCols: string[] = [];
  private messageCols: string[] = [];
  private sessionRows: Row[] = [];
  private messageRows: Row[] = [];
  private readonly seen = new Set<string>();
  /** The remote has columns this mirror lacks: marked, so the next sync rebuilds it. */
  private widened = false;
  /** The sessions were as last time: none was sent, so none is pruned. */
  same = false;
  digest: string | null = null;
  newMessages = 0;

  constructor(
    private readonly file: string,
    fresh: boolean,
  ) {
    if (fresh) return;
    const columns = HermesMirror.columnsOf(file);
    if (!columns) throw new Error(`${file} is not a mirror lookback made`);
    this.mirror = openMirror(file, { columns });
    this.mirror.begin();
  }

  private get m(): HermesMirror {
    if (!this.mirror) throw new Error('the remote sent rows before the store schema');
    return this.mirror;
  }

  /** The remote's own CREATE TABLE statements, run in memory, say its columns and their types. */
  schema(rows: [string, string, string, string][]): void {
    const mem = new Database(':memory:');
    try {
      for (const [type, name, , sql] of rows)
        if (type === 'table' && (name === 'sessions' || name === 'messages')) mem.exec(sql);
      const columns = columnsFromDb(mem);
      this.mirror = openMirror(this.file, { columns, rebuild: true, aside: true });
      this.mirror.begin();
      // A first copy builds its full-text indexes once, after the rows (done()).
      this.mirror.deferIndexes();
    } finally {
      mem.close();
    }
  }

  table(name: string, cols: string[], rows: unknown[][]): void {
    // The mirror keeps its own complete full-text index: the remote's index status
    // (state_meta) does not apply to it; its schema number does.
    if (name !== 'schema_version') return;
    const v = rows[0]?.[cols.indexOf('version')];
    this.m.setSchemaVersion(typeof v === 'number' ? v : null);
  }

  private widen(table: 'sessions' | 'messages', cols: string[]): void {
    if (cols.some((c) => !this.m.hasColumn(table, c))) this.widened = true;
  }

  sessions(cols: string[]): void {
    this.sessionCols = cols;
    this.widen('sessions', cols);
  }

  private row(cols: string[], r: unknown[]): Row {
    const o: Row = {};
    for (let i = 0; i < cols.length; i++) o[cols[i]!] = value(r[i]);
    return o;
  }

  session(r: unknown[]): void {
    const o = this.row(this.sessionCols, r);
    this.seen.add(String(o.id));
    this.sessionRows.push(o);
    if (this.sessionRows.length >= MIRROR_BATCH_ROWS) this.flush();
  }

  messages(cols: string[]): void {
    this.flush();
    this.messageCols = cols;
    this.widen('messages', cols);
  }

  message(r: unknown[]): void {
    this.messageRows.push(this.row(this.messageCols, r));
    if (this.messageRows.length >= MIRROR_BATCH_ROWS) this.flush();
  }

  private flush(): void {
    if (this.sessionRows.length > 0) this.m.applySessions(this.sessionRows);
    // Only rows past the mirror's watermark are sent: each one is new.
    if (this.messageRows.length > 0) this.newMessages += this.m.applyMessages(this.messageRows);
    this.sessionRows = [];
    this.messageRows = [];
  }

  /** Sessions pruned on the remote go here too, with their messages. */
  done(): { sessions: number; messages: number } {
    this.flush();
    const m = this.m;
    if (!this.same) m.deleteSessions([...m.sessionIds()].filter((id) => !this.seen.has(id)));
    if (this.widened) m.setMeta(RESET_NEXT, '1');
    m.indexNow();
    m.commit();
    m.publish();
    const counts = m.counts();
    m.close();
    this.mirror = null;
    return counts;
  }

  abort(): void {
    try {
      this.mirror?.rollback();
    } catch {
      /* rolling back after a failure */
    }
    this.mirror?.close();
    this.mirror = null;
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
