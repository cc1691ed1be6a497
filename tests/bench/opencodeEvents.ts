/**
 * opencode 2.x with a large `event` table (`LOOKBACK_BENCH_ONLY=opencode`): the
 * same 200 sessions (4,000 messages) in two databases whose `event` log differs
 * tenfold in size. A first index and an idle pass of each, timed and with the
 * bytes the process read (/proc/self/io `rchar`, every read call, page cache or
 * not): both stay the same when the event table grows, because no query touches
 * it. Prints figures only.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { OPENCODE_V2_TABLES } from '../agents/opencodeV2Schema.js';
import { fmt, mb, median, row } from './stats.js';

const SESSIONS = 200;
const PER = 20;

function readBytes(): number {
  const m = /rchar:\s*(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** An opencode 2.x database (tables as in tests/agents/opencodeV2.test.ts) with `eventMb` of events. */
function build(path: string, eventMb: number): void {
  rmSync(path, { force: true });
  const db = new Database(path);
  db.exec(`
    CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT, vcs TEXT, name TEXT);
    ${OPENCODE_V2_TABLES}
    CREATE TABLE event (id TEXT PRIMARY KEY, aggregate_id TEXT NOT NULL, seq INTEGER NOT NULL, created INTEGER NOT NULL,
      type TEXT NOT NULL, data TEXT NOT NULL);
  `);
  const t0 = 1789000000000;
  const s = db.prepare(
    `INSERT INTO session_v2 (id, project_id, slug, directory, title, version, time_created, time_updated)
     VALUES (?, 'prj_1', ?, '/home/dev/app', ?, '2.0.12', ?, ?)`,
  );
  const m = db.prepare(`INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < SESSIONS; i++) {
      const id = `ses_${String(i).padStart(5, '0')}`;
      const at = t0 + i * 600_000;
      s.run(id, `s${i}`, `session ${i} about pgbouncer`, at, at + PER * 1000);
      for (let j = 0; j < PER; j++) {
        const user = j % 2 === 0;
        const when = at + j * 1000;
        m.run(
          `msg_${i}_${j}`,
          id,
          user ? 'user' : 'assistant',
          j,
          when,
          when,
          JSON.stringify(
            user
              ? {
                  text: `question ${j} of session ${i}: the pgbouncer timeout`,
                  time: { created: when },
                }
              : {
                  agent: 'build',
                  model: { providerID: 'anthropic', id: 'claude-sonnet-5' },
                  content: [
                    { type: 'text', text: `answer ${j}: raise the pool size of session ${i}` },
                  ],
                  time: { created: when, completed: when + 500 },
                },
          ),
        );
      }
    }
  })();
  // The event log: ~4 KB rows, `eventMb` of them, written as opencode appends them.
  const rows = Math.round((eventMb * 1024 * 1024) / 4096);
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO event SELECT 'evt_' || i, 'ses_' || printf('%05d', i % ${SESSIONS}), i, ${t0} + i,
       'session.message.updated', hex(randomblob(2000)) FROM n`,
  ).run(rows);
  db.close();
}

export function benchOpencodeEvents(benchDir: string): void {
  console.log(
    `\n## opencode 2.x: ${SESSIONS} sessions, ${(SESSIONS * PER).toLocaleString()} messages, event table 10x apart`,
  );
  row(['database', 'first index', 'read', 'idle pass', 'read'], 44, 12);
  for (const eventMb of [64, 640]) {
    const path = join(benchDir, `opencode-v2-events-${eventMb}mb.db`);
    if (!existsSync(path)) build(path, eventMb);
    const index = join(benchDir, `opencode-v2-index-${eventMb}mb.db`);
    for (const f of [index, `${index}-wal`, `${index}-shm`]) rmSync(f, { force: true });
    const { db } = openIndex(index);
    const opts = { env: {}, overrides: { opencode: path }, agents: ['opencode' as const] };
    const r0 = readBytes();
    const first = indexAll(db, opts);
    const firstRead = readBytes() - r0;
    if (first.messages !== SESSIONS * PER)
      throw new Error(`expected ${SESSIONS * PER} messages, indexed ${first.messages}`);
    const idle: number[] = [];
    const idleRead: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = readBytes();
      idle.push(indexAll(db, opts).ms);
      idleRead.push(readBytes() - r);
    }
    db.close();
    row(
      [
        `database ${mb(statSync(path).size)} (event ${eventMb} MB)`,
        fmt(first.ms),
        mb(firstRead),
        fmt(median(idle)),
        mb(median(idleRead)),
      ],
      44,
      12,
    );
  }
}
