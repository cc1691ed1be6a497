/**
 * A first sync of a big PostgreSQL profile says how far it is (issue #19): on a
 * terminal the command that opened the profile draws one line on stderr
 * (messages copied of how many, then the index being built) and erases it;
 * with stderr not a terminal (a script, an agent) nothing is drawn. The
 * terminal is a real pty (`script`), the server a real PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEmptyStore, insertMessage, insertSession } from '../../src/demo/store.js';
import { syncPostgres, type SyncProgress } from '../../src/postgres/feed.js';
import { PG_PROGRESS_BIG_COPY } from '../../src/budgets.js';
import { progressLine } from '../../src/postgres/progress.js';
import { schemaCandidates } from '../../src/store/postgresConfig.js';
import { postgresOf } from '../../src/store/profiles.js';
import { BIN, lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import {
  freshDatabase,
  loadHermesSchema,
  postgresProfileHome,
  stopServer,
} from '../helpers/postgres.js';

// Above PG_PROGRESS_BIG_COPY: the line is drawn from the first page, however fast the machine.
const MESSAGES = 12_000;
let dir: string;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = tempDir();
  home = join(dir, 'home', '.hermes', 'profiles', 'big');
  mkdirSync(home, { recursive: true });
  const lite = join(dir, 'big.db');
  createEmptyStore(lite, 30, { withFts: false });
  const db = new Database(lite);
  db.transaction(() => {
    for (let s = 0; s < 40; s++) {
      const sid = insertSession(db, { title: `Conversation ${s}`, source: 'cli' });
      for (let i = 0; i < MESSAGES / 40; i++)
        insertMessage(db, {
          session_id: sid,
          role: i % 2 ? 'assistant' : 'user',
          content: `step ${i} of conversation ${s}: the harbour crane schedule`,
        });
    }
  })();
  db.close();
  const url = await freshDatabase();
  await loadHermesSchema(url, schemaCandidates('big', home, {}).candidates[0]!, lite);
  postgresProfileHome(home, url);
  env = { HOME: join(dir, 'home'), HERMES_HOME: '' };
}, 180_000);

afterAll(() => stopServer());

const fresh = () => ({ ...env, XDG_CACHE_HOME: tempDir('lookback-pg-cache-') });

describe('progress of a PostgreSQL sync', () => {
  it('a first copy reports each page and the total, then the index; a second reports nothing to copy', async () => {
    const target = postgresOf(
      { name: 'big', home },
      { env: { ...process.env, ...env }, home: env.HOME! },
    )!;
    expect(target).toBeTruthy();
    const seen: SyncProgress[] = [];
    const cacheDir = tempDir('lookback-pg-cache-');
    const report = await syncPostgres(target, { cacheDir, onProgress: (p) => seen.push(p) });
    expect(report.first).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((p) => p.profile === 'big' && p.total === MESSAGES)).toBe(true);
    const copies = seen.filter((p) => p.phase === 'copy').map((p) => p.done);
    expect(copies).toEqual([...copies].sort((a, b) => a - b));
    expect(copies.at(-1)).toBe(MESSAGES);
    expect(seen.at(-1)!.phase).toBe('index');
    expect(progressLine(seen[0]!)).toMatch(
      /^profile big: copying from PostgreSQL [█░]{24} +\d+% {2}5,000\/12,000 messages$/,
    );
    expect(progressLine(seen.at(-1)!)).toBe(
      'profile big: building the search index over 12,000 messages copied from PostgreSQL',
    );
    const again: SyncProgress[] = [];
    await syncPostgres(target, { cacheDir, onProgress: (p) => again.push(p) });
    expect(again).toEqual([]);
  }, 120_000);

  it('on a terminal the first sync draws its line on stderr and erases it; the answer follows', () => {
    expect(MESSAGES).toBeGreaterThanOrEqual(PG_PROGRESS_BIG_COPY);
    const cmd = [process.execPath, BIN, 'recent', '--profile', 'big', '--limit', '3', '--json']
      .map((w) => `'${w}'`)
      .join(' ');
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
      encoding: 'utf8',
      env: { ...process.env, ...fresh() },
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(
      /\r\u001b\[2Kprofile big: copying from PostgreSQL [█░]{24} +\d+% {2}[\d,]+\/12,000 messages/,
    );
    // Erased before the answer is printed: the JSON stands on a clean line.
    const json = out.slice(out.lastIndexOf('\r\u001b[2K') + 5);
    expect(JSON.parse(json.trim()).results).toHaveLength(3);
  }, 120_000);

  it('with stderr not a terminal nothing is drawn', () => {
    const r = lookback(['recent', '--profile', 'big', '--limit', '3', '--json'], fresh());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect((r.json().results as unknown[]).length).toBe(3);
  }, 120_000);
});
