/**
 * `LOOKBACK_BENCH_ONLY=postgres`: a PostgreSQL-backed profile against the same
 * store in SQLite. The 220,000-message bench store is loaded into a real server
 * (`$LOOKBACK_TEST_PG_URL`, else a throwaway cluster as the tests start), then:
 * the first sync into lookback's mirror, a sync with nothing new, a sync after
 * one new message, discover / 2-character CJK / browse / scroll on the mirror
 * beside the SQLite store, and the time from the agent's INSERT to the row in
 * the mirror with the app's live loop (LIVE_SYNC_MS).
 */
import { LIVE_SYNC_MS } from '../../src/budgets.js';
import { join } from 'node:path';
import { keepSyncing } from '../../src/postgres/run.js';
import { syncPostgres } from '../../src/postgres/feed.js';
import { postgresTarget, schemaCandidates } from '../../src/store/postgresConfig.js';
import { browse } from '../../src/store/browse.js';
import { scroll } from '../../src/store/recall.js';
import { discover } from '../../src/store/search.js';
import { Store } from '../../src/store/store.js';
import {
  freshDatabase,
  loadHermesSchema,
  postgresProfileHome,
  stopServer,
  withClient,
} from '../helpers/postgres.js';
import { fmt, median, row } from './stats.js';

const QUERIES = ['migration', 'pgbouncer timeout', '"connection pool"', 'webhook OR ledger'];

function time(fn: () => unknown, runs: number): number {
  fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

export async function benchPostgres(input: {
  store: string;
  dir: string;
  runs: number;
}): Promise<void> {
  const url = await freshDatabase();
  const home = join(input.dir, 'pg-home', '.hermes', 'profiles', 'bench');
  postgresProfileHome(home, url);
  const schema = schemaCandidates('bench', home, {}).candidates[0]!;
  let t = performance.now();
  await loadHermesSchema(url, schema, input.store);
  console.log(
    `\n## PostgreSQL profile (${input.store} loaded into ${schema} in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );
  const target = postgresTarget('bench', home, {}, false)!;
  const cacheDir = join(input.dir, `pg-cache-${process.pid}`);
  row(['sync', 'time', 'rows']);
  t = performance.now();
  const first = await syncPostgres(target, { cacheDir });
  row(['first sync (empty mirror)', fmt(performance.now() - t), String(first.messages.upserted)]);
  const idle: number[] = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    await syncPostgres(target, { cacheDir });
    idle.push(performance.now() - t);
  }
  row(['sync, nothing changed (median of 5)', fmt(median(idle)), '0']);
  const M = `"${schema}".messages`;
  const S = `"${schema}".sessions`;
  const sid = await withClient(
    url,
    async (c) =>
      (await c.query(`SELECT id FROM ${S} ORDER BY started_at DESC LIMIT 1`)).rows[0].id as string,
  );
  const insert = (text: string) =>
    withClient(url, (c) =>
      c.query(
        `WITH m AS (INSERT INTO ${M} (session_id, role, content, timestamp, active, compacted)
           VALUES ($1, 'user', $2, extract(epoch from now()), 1, 0) RETURNING id)
         UPDATE ${S} SET message_count = message_count + 1 WHERE id = $1`,
        [sid, text],
      ),
    );
  const inc: number[] = [];
  for (let i = 0; i < 5; i++) {
    await insert(`bench increment ${i}`);
    t = performance.now();
    await syncPostgres(target, { cacheDir });
    inc.push(performance.now() - t);
  }
  row(['sync after one new message (median of 5)', fmt(median(inc)), '1']);

  const pgStore = Store.open(first.mirror, { profile: 'bench' });
  const lite = Store.open(input.store, { profile: 'bench' });
  console.log(`\n${input.runs} runs, median`);
  row(['operation', 'PostgreSQL', 'SQLite']);
  for (const q of QUERIES)
    row([
      `discover "${q}"`,
      fmt(time(() => discover(pgStore, q, { limit: 10 }), input.runs)),
      fmt(time(() => discover(lite, q, { limit: 10 }), input.runs)),
    ]);
  row([
    'discover "数据" (2-char CJK)',
    fmt(time(() => discover(pgStore, '数据', { limit: 10 }), input.runs)),
    fmt(time(() => discover(lite, '数据', { limit: 10 }), input.runs)),
  ]);
  row([
    'browse (limit 50)',
    fmt(time(() => browse(pgStore, { limit: 50 }), input.runs)),
    fmt(time(() => browse(lite, { limit: 50 }), input.runs)),
  ]);
  const anchor = lite.db
    .prepare(`SELECT id, session_id FROM messages WHERE id % 997 = 0 LIMIT 1 OFFSET 100`)
    .get() as { id: number; session_id: string };
  row([
    'scroll (window 5)',
    fmt(time(() => scroll(pgStore, anchor.session_id, anchor.id, 5), input.runs)),
    fmt(time(() => scroll(lite, anchor.session_id, anchor.id, 5), input.runs)),
  ]);
  pgStore.close();
  lite.close();

  // The app's live loop: from the agent's INSERT to the row readable in the mirror.
  const mirror = Store.open(first.mirror, { profile: 'bench' });
  const loop = keepSyncing(target, cacheDir, LIVE_SYNC_MS);
  const notice: number[] = [];
  try {
    await new Promise((r) => setTimeout(r, 2 * LIVE_SYNC_MS));
    for (let i = 0; i < 5; i++) {
      const word = `noticeprobe${i}x${process.pid}`;
      const t0 = performance.now();
      await insert(word);
      const has = mirror.db.prepare(`SELECT 1 FROM messages WHERE content = ?`).pluck();
      for (;;) {
        if (mirror.read(() => has.get(word))) break;
        if (performance.now() - t0 > 30_000)
          throw new Error('the live loop did not bring the row in 30 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      notice.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, Math.random() * LIVE_SYNC_MS));
    }
  } finally {
    loop.stop();
    mirror.close();
  }
  row([
    `new message → in the mirror (sync every ${LIVE_SYNC_MS} ms; median, max of 5)`,
    fmt(median(notice)),
    fmt(Math.max(...notice)),
  ]);
  console.log('(the app then notices the mirror on its next poll, POLL_MS = 1 s)');
  stopServer();
}
