/**
 * What an incremental pass with nothing changed costs, counted instead of timed
 * (timings are the bench's; these counts fail the same on any machine): one stat
 * per history file, and no statement that grows with the number of files or
 * writes. The idle pass over 10,000 files went from 78 to 225 ms in two rounds
 * without a test noticing.
 *
 * With the native extension (native/filestat.c) the stats are made in C, from one
 * statement per agent, and JavaScript stats no history file; without it
 * (LOOKBACK_RANK_EXT=off, or a build without a compiler) JavaScript stats each
 * file once and reads the stored signatures once for every agent.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { generateHistories } from './generate.js';

// Every statSync and readdirSync the indexer makes, by path.
const calls = vi.hoisted(() => ({ stat: [] as string[], readdir: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const statSync = ((p: fs.PathLike, o?: fs.StatSyncOptions) => {
    calls.stat.push(String(p));
    return real.statSync(p, o);
  }) as typeof fs.statSync;
  const readdirSync = ((p: fs.PathLike, o?: unknown) => {
    calls.readdir.push(String(p));
    return (real.readdirSync as (p: fs.PathLike, o?: unknown) => unknown)(p, o);
  }) as typeof fs.readdirSync;
  return { ...real, statSync, readdirSync, default: { ...real, statSync, readdirSync } };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-idle-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

/** An idle pass over a generated home of `sessions` sessions: its statements, stats and listings. */
function idlePass(sessions: number) {
  const home = join(dir, `home-${sessions}`);
  const g = generateHistories(home, sessions, sessions * 4);
  // Codex's thread names, read for titles: an unchanged one is not applied again.
  writeFileSync(
    join(home, '.codex', 'session_index.jsonl'),
    `${JSON.stringify({ id: 'thread-1', thread_name: 'pool sizing', updated_at: '2026-08-19T10:00:00Z' })}\n`,
  );
  const env = { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' };
  const file = join(dir, `index-${sessions}.db`);
  const first = openIndex(file).db;
  indexAll(first, { env });
  first.close();
  const sql: string[] = [];
  const db = new Database(file, { verbose: (s) => sql.push(String(s)) });
  try {
    indexAll(db, { env }); // a new connection's first pass may stamp `sources` and apply names
    sql.length = 0;
    calls.stat.length = 0;
    calls.readdir.length = 0;
    const native = () =>
      process.env.LOOKBACK_RANK_EXT === 'off'
        ? 0
        : (db.prepare('SELECT lookback_same_stat_calls()').pluck().get() as number);
    const before = native();
    const r = indexAll(db, { env });
    expect(r.parsed).toBe(0);
    expect(r.unchanged).toBe(g.files);
    return {
      files: g.files,
      // The listed paths (bound, so shown expanded) differ with the files; the statement does not.
      sql: sql
        .filter((s) => !s.includes('lookback_same_stat_calls'))
        .map((s) => s.replace(/json_each\(.*\) j$/m, 'json_each(?) j')),
      stats: [...calls.stat],
      nativeStats: native() - before,
      readdirs: calls.readdir.length,
    };
  } finally {
    db.close();
  }
}

/** Nothing written, no lookup per file, the same statements for 12 files as for 48. */
function expectFlat(small: ReturnType<typeof idlePass>, large: ReturnType<typeof idlePass>) {
  for (const pass of [small, large]) {
    // Nothing written: the open app would reload on any commit.
    expect(pass.sql.filter((s) => /^\s*(INSERT|UPDATE|DELETE|BEGIN|CREATE|DROP)/i.test(s))).toEqual(
      [],
    );
    // No statement per file: no lookup of a files row by path when nothing changed.
    expect(pass.sql.filter((s) => /FROM files WHERE path/.test(s))).toEqual([]);
  }
  expect(large.sql).toEqual(small.sql);
  // Listing costs a readdir per directory, not per file.
  expect(large.readdirs).toBe(small.readdirs);
}

/** The history files JavaScript stat'ed (not the Codex names file). */
const histories = (pass: ReturnType<typeof idlePass>) =>
  pass.stats.filter((p) => /\.jsonl?$/.test(p) && !p.endsWith('session_index.jsonl'));

describe('with the native extension', () => {
  it('stats each history file once, in C, from one statement per agent', () => {
    const small = idlePass(12);
    const large = idlePass(48);
    expectFlat(small, large);
    for (const pass of [small, large]) {
      expect(histories(pass)).toEqual([]);
      expect(pass.nativeStats).toBe(pass.files);
      // One unchanged test (json_each over the listed paths) per agent with files; the
      // whole stored-signature table is not read.
      const tests = pass.sql.filter((s) => /json_each/.test(s));
      expect(tests).toHaveLength(3); // claude, codex, gemini
      expect(pass.sql.filter((s) => /SELECT agent, path, dev/.test(s))).toEqual([]);
    }
  });
});

describe('without it (LOOKBACK_RANK_EXT=off)', () => {
  it('stats each history file once and reads the stored signatures once for every agent', () => {
    vi.stubEnv('LOOKBACK_RANK_EXT', 'off');
    const small = idlePass(12);
    const large = idlePass(48);
    expectFlat(small, large);
    for (const pass of [small, large]) {
      // One stat per file: none twice, nothing else stat'ed per file.
      expect(new Set(histories(pass)).size).toBe(pass.files);
      expect(histories(pass).length).toBe(pass.files);
      // The stored signatures are read once for every agent, not once per agent.
      expect(pass.sql.filter((s) => /SELECT agent, path, dev/.test(s))).toHaveLength(1);
      expect(pass.sql.filter((s) => /json_each/.test(s))).toEqual([]);
    }
  });
});
