/**
 * lookback_same_stat() (native/filestat.c), the idle pass's unchanged test in SQL,
 * against the test it replaces (Node's fs.statSync and the stored signature):
 * equal for real files with nanosecond, pre-1970 and far-future mtimes; unequal
 * when any one field moves by its smallest step; NULL for a missing file; no
 * folder descriptor left open after the statement, even one stopped part way.
 * Then whole passes over every agent's sample histories, with and without the
 * extension, after the same changes: the same files read, the same index.
 */
import Database from 'better-sqlite3';
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { findRankExtension, hasSameStat } from '../../src/agents/rankExt.js';
import { SAME_BY_STAT_SQL } from '../../src/agents/indexer/changed.js';
import { buildHome } from './samples.js';
import { buildMoreHome } from './moreSamples.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-samestat-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

function withExtension(): Database.Database {
  const file = findRankExtension();
  // Fails, not skips, when the extension was not built: the pass would be the slow one.
  expect(file, 'build/Release/lookback_rank.node (npm install builds it)').not.toBeNull();
  const db = new Database(':memory:');
  db.loadExtension(file!);
  return db;
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('lookback_same_stat', () => {
  it("is 1 exactly when Node's stat gives the stored signature", () => {
    const db = withExtension();
    const same = db.prepare('SELECT lookback_same_stat(?, ?, ?, ?, ?)').pluck();
    const folders = ['a', 'b', 'c'].map((n) => join(dir, 'sig', n));
    for (const f of folders) mkdirSync(f, { recursive: true });
    // Mtimes Node reads back with a fraction (nanoseconds), before 1970, far ahead.
    const times = [
      1764201234 + 0.123456789,
      1764201234 + 0.999999999,
      1.000000001,
      0,
      -1.5,
      -86400.25,
      4102444800.5,
      1755600000,
      1755600000 + 0.000001,
    ];
    const paths: string[] = [];
    for (let i = 0; i < 60; i++) {
      const p = join(folders[i % 3]!, `f${i}.jsonl`);
      writeFileSync(p, 'x'.repeat(i));
      const t = times[i % times.length]! + (i % 7) * 0.000000137;
      utimesSync(p, t, t);
      paths.push(p);
    }
    paths.push(join(dir, 'sig', 'top.json')); // a folder with one file among the others
    writeFileSync(paths[paths.length - 1]!, '{}');
    let fractional = 0;
    // Every case as a row, then one statement over them all in order: the folder kept
    // from one row must not answer for the next row's folder (alternating a, b, c, top).
    db.exec(`CREATE TEMP TABLE sig (n INTEGER PRIMARY KEY, path, dev, ino, size, mtime, want)`);
    const add = db.prepare(
      `INSERT INTO sig (path, dev, ino, size, mtime, want) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const p of [...paths, ...paths.slice().reverse()]) {
      const st = statSync(p);
      if (!Number.isInteger(st.mtimeMs)) fractional++;
      const sig = [st.dev, st.ino, st.size, st.mtimeMs] as const;
      add.run(p, ...sig, 1);
      // Each field moved by its smallest step, and each one missing.
      for (let k = 0; k < 4; k++) {
        const moved = [...sig];
        moved[k] = k === 3 ? nextUp(sig[3]) : sig[k]! + 1;
        add.run(p, ...moved, 0);
        const missing: (number | null)[] = [...sig];
        missing[k] = null;
        add.run(p, ...missing, 0);
      }
    }
    const rows = db
      .prepare(
        `SELECT path, lookback_same_stat(path, dev, ino, size, mtime) AS got, want FROM sig ORDER BY n`,
      )
      .all() as { path: string; got: number; want: number }[];
    expect(rows.length).toBe(122 * 9);
    expect(rows.filter((r) => r.got !== r.want)).toEqual([]);
    // One row per statement, too.
    for (const p of paths) {
      const st = statSync(p);
      expect(same.get(p, st.dev, st.ino, st.size, st.mtimeMs)).toBe(1);
    }
    // The nanosecond arithmetic was exercised: about half the fixed times read back with a
    // fraction of a millisecond (Node rounds a time given in seconds to the microsecond).
    expect(fractional).toBeGreaterThanOrEqual(20);
    expect(same.get(join(dir, 'sig', 'a', 'none.jsonl'), 1, 1, 1, 1)).toBeNull();
    expect(same.get(join(dir, 'sig', 'none', 'x.jsonl'), 1, 1, 1, 1)).toBeNull();
    expect(same.get(null, 1, 1, 1, 1)).toBeNull();
    db.close();
  });

  it('leaves no folder open once its statement ends, or is stopped part way', () => {
    const db = withExtension();
    const folders = [0, 1, 2, 3].map((n) => join(dir, 'fds', String(n)));
    const paths: string[] = [];
    for (const f of folders) {
      mkdirSync(f, { recursive: true });
      for (let i = 0; i < 25; i++) {
        writeFileSync(join(f, `${i}.jsonl`), '');
        paths.push(join(f, `${i}.jsonl`));
      }
    }
    const stmt = db
      .prepare(`SELECT lookback_same_stat(value, 0, 0, 0, 0) FROM json_each(?)`)
      .pluck();
    const before = openFds();
    expect(stmt.all(JSON.stringify(paths))).toEqual(paths.map(() => 0));
    expect(openFds()).toBe(before);
    // Stopped inside the second folder: the iterator's return resets the statement.
    let n = 0;
    for (const v of stmt.iterate(JSON.stringify(paths))) {
      expect(v).toBe(0);
      if (++n === 30) {
        expect(openFds()).toBe(before + 1); // the one folder being read, while it runs
        break;
      }
    }
    expect(openFds()).toBe(before);
    db.close();
  });
});

/** The next double above x (x > 0): the smallest mtime change a stored REAL can show. */
function nextUp(x: number): number {
  const b = new Float64Array([x]);
  const i = new BigInt64Array(b.buffer);
  i[0] = i[0]! + (x >= 0 ? 1n : -1n);
  return b[0]!;
}

describe('a pass with and without the extension', () => {
  const env = (home: string) => ({ HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' });

  /** Every stored file row and conversation count, to compare two indexes. */
  function snapshot(file: string) {
    const db = new Database(file, { readonly: true });
    try {
      return {
        files: db
          .prepare(
            `SELECT path, agent, dev, ino, size, mtime_ms, byte_offset, next_line, next_ordinal,
                    parser_version FROM files ORDER BY path`,
          )
          .all(),
        messages: db.prepare(`SELECT count(*) FROM messages`).pluck().get(),
        texts: db.prepare(`SELECT text FROM messages ORDER BY text`).pluck().all(),
        gone: db.prepare(`SELECT count(*) FROM conversations WHERE gone = 1`).pluck().get(),
      };
    } finally {
      db.close();
    }
  }

  it('reads the same files after each kind of change and ends with the same index', () => {
    const home = join(dir, 'home');
    buildHome(home);
    buildMoreHome(home);
    const files = { native: join(dir, 'native.db'), js: join(dir, 'js.db') };
    const pass = (mode: 'native' | 'js') => {
      vi.stubEnv('LOOKBACK_RANK_EXT', mode === 'js' ? 'off' : undefined);
      const { db } = openIndex(files[mode]);
      try {
        expect(hasSameStat(db)).toBe(mode === 'native');
        const r = indexAll(db, { env: env(home), agents: [...AGENTS] });
        return { files: r.files, parsed: r.parsed, unchanged: r.unchanged, messages: r.messages };
      } finally {
        db.close();
      }
    };
    const both = () => {
      const a = pass('native');
      const b = pass('js');
      expect(a).toEqual(b);
      return a;
    };
    const first = both();
    expect(first.parsed).toBeGreaterThan(10);
    expect(both()).toMatchObject({ parsed: 0, unchanged: first.files });

    // The history files a pass lists, by agent folder (every kind of file the samples hold).
    const all = (sub: string) =>
      (
        readdirSync(join(home, sub), {
          recursive: true,
          withFileTypes: true,
        }) as import('node:fs').Dirent[]
      )
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    const claude = all('.claude/projects').filter((p) => p.endsWith('.jsonl'));
    const codex = all('.codex/sessions').filter((p) => p.endsWith('.jsonl'));
    const gemini = all('.gemini/tmp').filter((p) => /\.jsonl?$/.test(p));
    expect(claude.length).toBeGreaterThan(1);
    expect(codex.length).toBeGreaterThan(1);
    expect(gemini.length).toBeGreaterThan(0);

    const changes: [string, () => void][] = [
      [
        'a line appended',
        () =>
          appendFileSync(
            claude[0]!,
            `${JSON.stringify({ type: 'user', uuid: 'same-stat-1', sessionId: 'x', timestamp: '2026-11-27T02:00:00Z', message: { role: 'user', content: 'appended about the pool' } })}\n`,
          ),
      ],
      [
        'only the mtime, by a millisecond',
        () => {
          // Node sets times to the microsecond through a double of seconds: a microsecond
          // more could round back to the same time, a millisecond cannot.
          const before = statSync(codex[0]!).mtimeMs;
          const t = before / 1000 + 0.001;
          utimesSync(codex[0]!, t, t);
          expect(statSync(codex[0]!).mtimeMs).not.toBe(before);
        },
      ],
      [
        'the same bytes and times in a new inode',
        () => {
          const p = gemini[0]!;
          const st = statSync(p);
          copyFileSync(p, `${p}.tmp`);
          utimesSync(`${p}.tmp`, st.atime, st.mtime);
          renameSync(`${p}.tmp`, p);
        },
      ],
      ['a file removed', () => rmSync(claude[1]!)],
      ['a file added', () => cpSync(codex[1]!, codex[1]!.replace(/\.jsonl$/, '-copy.jsonl'))],
    ];
    let listed = first.files;
    for (const [what, change] of changes) {
      change();
      const r = both();
      if (what === 'a file removed') expect(r.files, what).toBe(listed - 1);
      else expect(r.parsed, what).toBeGreaterThan(0);
      listed = r.files;
      expect(both(), `${what}, then idle`).toMatchObject({ parsed: 0, unchanged: listed });
    }
    const a = snapshot(files.native);
    const b = snapshot(files.js);
    expect(a).toEqual(b);
    expect(a.texts).toContain('appended about the pool');
    expect(a.gone).toBeGreaterThan(0);
  });
});

describe('the files_sig index', () => {
  it('is added to an index built before it, and the unchanged test reads only it', () => {
    const home = join(dir, 'home-sig');
    buildHome(home);
    const file = join(dir, 'before-sig.db');
    const first = openIndex(file).db;
    indexAll(first, { env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' } });
    first.exec('DROP INDEX files_sig'); // as an index written before this round
    first.close();
    const { db, rebuilt } = openIndex(file);
    try {
      expect(rebuilt).toBeNull(); // kept, not rebuilt
      expect(hasSameStat(db)).toBe(true);
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${SAME_BY_STAT_SQL}`).all('[]', 'claude', 1) as {
          detail: string;
        }[]
      ).map((r) => r.detail);
      expect(plan).toContain(
        'SEARCH f USING COVERING INDEX files_sig (agent=? AND path=?) LEFT-JOIN',
      );
      expect(
        (
          db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM files WHERE agent = ?`).all('x') as {
            detail: string;
          }[]
        ).map((r) => r.detail),
      ).toEqual(['SEARCH files USING COVERING INDEX files_sig (agent=?)']);
    } finally {
      db.close();
    }
  });
});
