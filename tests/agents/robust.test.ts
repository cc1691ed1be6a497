/**
 * Bad files never stop the rest, and a crash mid-index leaves a usable index that
 * the next pass completes to exactly what a clean run builds.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexInBackground } from '../../src/agents/background.js';
import type { Progress } from '../../src/agents/indexer.js';
import { indexAll } from '../../src/agents/indexer.js';
import { ftsDeferred, openIndex } from '../../src/agents/indexDb.js';
import { sourcesJson } from '../../src/agents/sources.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { BIN } from '../helpers/cli.js';
import { generateHistories } from './generate.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-robust-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (home: string) => ({ HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' });

describe('bad files', () => {
  it('skips a 200 MB line, garbage and truncated lines with counted reasons, and indexes the rest', async () => {
    const home = join(dir, 'bad');
    const proj = join(home, '.claude', 'projects', '-p');
    mkdirSync(proj, { recursive: true });
    const good = (uuid: string, text: string) =>
      JSON.stringify({
        type: 'user',
        uuid,
        sessionId: 'big',
        timestamp: '2026-08-20T10:00:00.000Z',
        message: { role: 'user', content: text },
      }) + '\n';
    // One file: a good line, a 200 MB line of base64-like text, a garbage line, a cut line, a good line.
    const path = join(proj, 'big.jsonl');
    const out = createWriteStream(path);
    out.write(good('g-1', 'before the huge line: alpha marker'));
    out.write('{"type":"user","uuid":"huge","message":{"role":"user","content":"');
    const block = Buffer.alloc(8 * 1024 * 1024, 0x41);
    for (let i = 0; i < 25; i++)
      if (!out.write(block)) await new Promise<void>((r) => out.once('drain', () => r()));
    out.write('"}}\n');
    out.write(Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x9b, 0x5b, 0x33, 0x31, 0x6d, 0x0a]));
    out.write('{"type":"user","uuid":"cut","message":{"role":\n');
    out.write(good('g-2', 'after the huge line: omega marker'));
    await new Promise<void>((r) => out.end(() => r()));
    expect(statSync(path).size).toBeGreaterThan(200 * 1024 * 1024);
    writeFileSync(join(proj, 'other.jsonl'), good('o-1', 'a healthy neighbour file'));
    const { db } = openIndex(join(dir, 'bad.db'));
    try {
      const heapBefore = process.memoryUsage().rss;
      indexAll(db, { env: env(home), agents: ['claude'] });
      // The 200 MB line was never held whole (a generous bound: well under its size).
      expect(process.memoryUsage().rss - heapBefore).toBeLessThan(150 * 1024 * 1024);
      const search = (q: string) =>
        (
          searchAgentsJson(db, q, ['claude'], { limit: 5, all: false }).results as {
            match_message_id: string;
          }[]
        ).map((r) => r.match_message_id);
      expect(search('alpha marker')).toEqual(['g-1']);
      expect(search('omega marker')).toEqual(['g-2']);
      expect(search('healthy neighbour')).toEqual(['o-1']);
      const claude = (
        sourcesJson(db, [], 'x').sources as { agent: string; problems: unknown[] }[]
      ).find((s) => s.agent === 'claude')!;
      expect(claude.problems).toEqual([
        { reason: 'line over 32 MiB skipped', count: 1, files: 1 },
        { reason: 'line is not valid JSON (truncated or garbage)', count: 2, files: 1 },
      ]);
    } finally {
      db.close();
    }
  }, 120_000);
});

describe('a crash mid-index', () => {
  it('leaves the previous state, and the next pass equals a clean index', async () => {
    const home = join(dir, 'crash');
    generateHistories(home, 600, 60_000);
    const crashed = join(dir, 'crashed.db');
    const child = spawn(process.execPath, [BIN, 'index'], {
      env: { ...process.env, ...env(home), LOOKBACK_INDEX: crashed },
      stdio: 'ignore',
    });
    // Kill it once it has committed a batch but long before it is done.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
      if (!existsSync(crashed)) continue;
      try {
        const peek = new Database(crashed, { readonly: true, timeout: 1000 });
        const n = (peek.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
        peek.close();
        if (n > 0) break;
      } catch {
        /* not created yet */
      }
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const partial = openIndex(crashed);
    const mid = partial.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number };
    // A first build fills the FTS tables at its end: the killed one left that to the next pass.
    expect(ftsDeferred(partial.db)).toBe(true);
    partial.db.close();
    expect(partial.rebuilt).toBeNull(); // the crashed index is consistent, not corrupt
    expect(mid.n).toBeGreaterThan(0);
    expect(mid.n).toBeLessThan(600);
    const finish = openIndex(crashed);
    indexAll(finish.db, { env: env(home) });
    const clean = openIndex(join(dir, 'clean.db'));
    indexAll(clean.db, { env: env(home) });
    const dump = (db: typeof clean.db) =>
      db
        .prepare(
          `SELECT c.agent, c.native_id, c.title, c.message_count, m.anchor, m.ordinal, m.text
           FROM conversations c JOIN messages m ON m.conv_id = c.id ORDER BY c.agent, c.native_id, m.ordinal`,
        )
        .all();
    const a = dump(finish.db);
    expect(a.length).toBe(60_000);
    expect(a).toEqual(dump(clean.db));
    const fts = (db: typeof clean.db) =>
      (
        db
          .prepare(`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'pgbouncer'`)
          .get() as { n: number }
      ).n;
    expect(fts(finish.db)).toBe(fts(clean.db));
    // Every message is in the word index once, and exactly the CJK ones in the trigram index.
    const one = (db: typeof clean.db, sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(one(finish.db, 'SELECT count(*) AS n FROM messages_fts_docsize')).toBe(60_000);
    expect(one(finish.db, 'SELECT count(*) AS n FROM messages_fts_trigram_docsize')).toBe(
      one(finish.db, 'SELECT count(*) AS n FROM messages WHERE cjk = 1'),
    );
    expect(ftsDeferred(finish.db)).toBe(false);
    finish.db.close();
    clean.db.close();
  }, 120_000);
});

describe('indexInBackground', () => {
  it('indexes in a worker thread and reports progress while it goes', async () => {
    const home = join(dir, 'bg');
    generateHistories(home, 40, 2000);
    const indexFile = join(dir, 'bg.db');
    const seen: Progress[] = [];
    const prevHome = process.env.HOME;
    process.env.HOME = home; // the worker reads the agents' default locations from its environment
    try {
      const { done } = indexInBackground((p) => seen.push(p), {
        indexFile,
        workerFile: resolve(import.meta.dirname, '../../dist/agents-worker.js'),
      });
      const report = await done;
      expect(report.messages).toBe(2000);
    } finally {
      process.env.HOME = prevHome;
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[seen.length - 1]!.filesDone).toBe(seen[seen.length - 1]!.filesTotal);
    const { db } = openIndex(indexFile);
    expect((db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(2000);
    db.close();
  });
});

describe('two indexers at once', () => {
  it('joins an index another lookback is creating instead of removing it from under it', () => {
    const path = join(dir, 'creating.db');
    // The other process: its file exists, its schema is not written yet.
    const other = new Database(path);
    other.pragma('journal_mode = WAL');
    const ino = statSync(path).ino;
    const { db, rebuilt } = openIndex(path);
    try {
      expect(rebuilt).toBe('missing');
      expect(statSync(path).ino).toBe(ino);
      // The other connection sees the same schema: it was not left on a removed file.
      expect(other.prepare('SELECT count(*) AS n FROM conversations').get()).toEqual({ n: 0 });
      expect(other.pragma('user_version', { simple: true })).toBe(
        db.pragma('user_version', { simple: true }),
      );
    } finally {
      db.close();
      other.close();
    }
  });

  it('both finish and the index equals one clean pass', async () => {
    const home = join(dir, 'twice');
    generateHistories(home, 120, 12_000, 11);
    const shared = join(dir, 'twice.db');
    const run = () =>
      new Promise<number | null>((done) => {
        const child = spawn(process.execPath, [BIN, 'index', '--json'], {
          env: { ...process.env, ...env(home), LOOKBACK_INDEX: shared },
          stdio: 'ignore',
        });
        child.once('exit', (code) => done(code));
      });
    expect(await Promise.all([run(), run()])).toEqual([0, 0]);
    const a = openIndex(shared);
    const b = openIndex(join(dir, 'twice-clean.db'));
    indexAll(b.db, { env: env(home) });
    const dump = (db: typeof a.db) =>
      db
        .prepare(
          `SELECT c.native_id, c.message_count, m.anchor, m.ordinal, m.text
           FROM conversations c JOIN messages m ON m.conv_id = c.id ORDER BY c.native_id, m.ordinal`,
        )
        .all();
    expect(dump(a.db)).toEqual(dump(b.db));
    a.db.close();
    b.db.close();
  }, 60_000);
});
