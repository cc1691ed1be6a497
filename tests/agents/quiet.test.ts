/**
 * A pass that finds nothing new writes nothing: the open app watches the index's
 * PRAGMA data_version once a second and reloads on any commit, so an idle pass
 * every second must not look like a change. And the CLI's freshness stamp.
 */
import Database from 'better-sqlite3';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex, passIsFresh, stampPass } from '../../src/agents/indexDb.js';
import { IDS, buildHome } from './samples.js';

let dir: string;
let home: string;
let indexFile: string;
const env = () => ({ HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-quiet-'));
  home = join(dir, 'home');
  indexFile = join(dir, 'agents.db');
  buildHome(home);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('leaves data_version alone when nothing changed, and moves it when a file grew', () => {
  const { db } = openIndex(indexFile);
  const reader = new Database(indexFile, { readonly: true });
  const version = () => reader.pragma('data_version', { simple: true }) as number;
  try {
    indexAll(db, { env: env() });
    const v0 = version();
    for (let i = 0; i < 3; i++) expect(indexAll(db, { env: env() }).parsed).toBe(0);
    expect(version()).toBe(v0);
    const proj = join(home, '.claude', 'projects', '-home-ana-shop');
    const file = join(proj, `${IDS.claude}.jsonl`);
    appendFileSync(
      file,
      JSON.stringify({
        type: 'user',
        uuid: 'u-quiet',
        parentUuid: null,
        sessionId: IDS.claude,
        timestamp: '2026-08-21T10:00:00.000Z',
        message: { role: 'user', content: 'one more question about refunds' },
      }) + '\n',
    );
    expect(indexAll(db, { env: env() }).parsed).toBe(1);
    expect(version()).not.toBe(v0);
  } finally {
    reader.close();
    db.close();
  }
});

it('stays still when no agent has anything to index, and indexes the first file that comes', () => {
  const empty = join(dir, 'empty-home');
  mkdirSync(join(empty, '.claude', 'projects'), { recursive: true });
  const emptyEnv = { HOME: empty, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' };
  const { db } = openIndex(indexFile);
  const reader = new Database(indexFile, { readonly: true });
  const version = () => reader.pragma('data_version', { simple: true }) as number;
  try {
    indexAll(db, { env: emptyEnv });
    const v0 = version();
    for (let i = 0; i < 3; i++) expect(indexAll(db, { env: emptyEnv }).parsed).toBe(0);
    expect(version()).toBe(v0);
    // The first session of a new user: written through the triggers, found by search.
    cpSync(join(home, '.claude'), join(empty, '.claude'), { recursive: true });
    expect(indexAll(db, { env: emptyEnv }).parsed).toBeGreaterThan(0);
    expect(version()).not.toBe(v0);
    const hits = reader
      .prepare(`SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'refund*'`)
      .get() as { n: number };
    expect(hits.n).toBeGreaterThan(0);
  } finally {
    reader.close();
    db.close();
  }
});

it('stamps a finished pass so a command-line call within seconds can skip its own', () => {
  expect(passIsFresh(indexFile, 3_000)).toBe(false);
  stampPass(indexFile);
  expect(passIsFresh(indexFile, 3_000)).toBe(true);
  expect(passIsFresh(indexFile, 3_000, Date.now() + 5_000)).toBe(false);
});
