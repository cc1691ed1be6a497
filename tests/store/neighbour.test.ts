/**
 * Being a good neighbour to the agent (STORE.md): no descriptor on state.db,
 * -wal or -shm while idle, change detection from stat() alone, a transparent
 * reconnection on the next read, a replaced file reopened, odd path names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { recentJson, searchJson } from '../../src/store/recall.js';
import { fileUri } from '../../src/store/open.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { fixtureCopy, tempDir } from '../helpers/fixtures.js';
import { openStoreFiles, sleep, waitFor } from '../helpers/fds.js';
import { lookback } from '../helpers/cli.js';

const IDLE = 300;
const opened: Store[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

function open(path: string, opts: Parameters<typeof Store.open>[1] = {}): Store {
  const s = Store.open(path, { idleCloseMs: IDLE, ...opts });
  opened.push(s);
  return s;
}

/** A store with one conversation titled `title`, whose files are older than the settle time. */
function storeWith(title: string, name = 'state.db', dir = tempDir()): string {
  const path = join(dir, name);
  copyFileSync(
    buildStore(30, (db) => {
      insertSession(db, { id: 's1', title, started_at: 1_780_000_000 });
      insertMessage(db, { session_id: 's1', role: 'user', content: `tell me about ${title}` });
    }),
    path,
  );
  return path;
}

/** Sets the files' mtimes into the past, so the idle close need not wait for them to settle. */
function age(path: string): void {
  const past = new Date(Date.now() - 60_000);
  for (const f of [path, `${path}-wal`])
    try {
      // utimes only touches the inode's times: no descriptor is opened.
      utimesSync(f, past, past);
    } catch {
      // No -wal.
    }
}

const titles = (s: Store) =>
  (recentJson(s, { limit: 5 }).results as { title: string }[]).map((r) => r.title);

describe('idle: the store holds no descriptor on state.db, -wal or -shm', () => {
  it('closes after the idle time, then a read reconnects and answers the same', async () => {
    const path = storeWith('osprey migration');
    age(path);
    const store = open(path);
    expect(titles(store)).toEqual(['osprey migration']);
    expect(openStoreFiles(path).length).toBeGreaterThan(0);
    expect(await waitFor(() => openStoreFiles(path).length === 0, 5_000)).toBe(true);
    expect(store.connected).toBe(false);
    expect(titles(store)).toEqual(['osprey migration']);
    expect(store.reconnects).toBe(1);
    expect(store.warnings).toEqual([]);
  });

  it('polling dataVersion while idle opens nothing when nothing changed', async () => {
    const path = storeWith('kestrel');
    age(path);
    const store = open(path);
    titles(store);
    await waitFor(() => !store.connected, 5_000);
    const v = store.dataVersion();
    for (let i = 0; i < 5; i++) {
      expect(store.dataVersion()).toBe(v);
      await sleep(50);
    }
    expect(store.connected).toBe(false);
    expect(openStoreFiles(path)).toEqual([]);
    expect(store.reconnects).toBe(0);
  });

  it('a commit while idle moves dataVersion (from stat) and the next read sees it', async () => {
    const path = storeWith('heron');
    age(path);
    const store = open(path);
    titles(store);
    await waitFor(() => !store.connected, 5_000);
    const v = store.dataVersion();
    const writer = new Database(path);
    insertSession(writer, { id: 's2', title: 'egret survey', started_at: 1_790_000_000 });
    insertMessage(writer, { session_id: 's2', role: 'user', content: 'egret counts' });
    writer.close();
    expect(store.dataVersion()).toBeGreaterThan(v);
    expect(titles(store)).toEqual(['egret survey', 'heron']);
  });

  it('keeps the connection while the files changed too recently for stat() to be trusted', async () => {
    const path = storeWith('plover'); // just written: not settled for 2 s
    const store = open(path);
    titles(store);
    await sleep(IDLE + 200);
    expect(store.connected).toBe(true);
    expect(await waitFor(() => !store.connected, 5_000)).toBe(true);
  });

  it('a rollback-journal store (schema 26 fixture) closes too, and its reads leave no lock', async () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    copyFileSync(join(import.meta.dirname, '../fixtures/hermes-v26.db'), path);
    age(path);
    const store = open(path);
    expect(titles(store).length).toBeGreaterThan(0);
    // Between reads no SHARED lock is held: a writer commits at once.
    const writer = new Database(path, { timeout: 0 });
    expect(writer.pragma('journal_mode', { simple: true })).toBe('delete');
    writer.exec('BEGIN IMMEDIATE; CREATE TEMP TABLE t(x); COMMIT');
    writer.exec('BEGIN EXCLUSIVE; COMMIT');
    writer.close();
    age(path);
    expect(await waitFor(() => openStoreFiles(path).length === 0, 5_000)).toBe(true);
  });
});

describe('a replaced store is reopened', () => {
  it('a new inode (renamed over while idle): reopens with a warning and shows the new content', async () => {
    const dir = tempDir();
    const path = storeWith('old content', 'state.db', dir);
    age(path);
    const store = open(path);
    expect(titles(store)).toEqual(['old content']);
    await waitFor(() => !store.connected, 5_000);
    const other = storeWith('restored content', 'restored.db', dir);
    renameSync(other, path);
    store.dataVersion();
    expect(titles(store)).toEqual(['restored content']);
    expect(store.generation).toBe(1);
    expect(store.warnings.join('\n')).toMatch(/was replaced on disk/);
  });

  it('a new inode while connected: the next read reopens', () => {
    const dir = tempDir();
    const path = storeWith('first', 'state.db', dir);
    const store = open(path, { idleCloseMs: 0 });
    expect(titles(store)).toEqual(['first']);
    renameSync(storeWith('second', 'b.db', dir), path);
    expect(titles(store)).toEqual(['second']);
    expect(store.generation).toBe(1);
  });

  it('another database written over the same inode (new application_id): reopened as replaced', async () => {
    const dir = tempDir();
    const path = storeWith('before', 'state.db', dir);
    age(path);
    const store = open(path);
    expect(titles(store)).toEqual(['before']);
    await waitFor(() => !store.connected, 5_000);
    const other = storeWith('after', 'other.db', dir);
    const w = new Database(other);
    w.pragma('application_id = 1213');
    w.close();
    // Written through the same inode (as `cp` over a file does), while lookback holds nothing.
    writeFileSync(path, readFileSync(other));
    store.dataVersion();
    expect(titles(store)).toEqual(['after']);
    expect(store.generation).toBe(1);
    expect(store.warnings.join('\n')).toMatch(/was replaced on disk/);
  });
});

describe('path names with ?, #, % and spaces', () => {
  const odd = ['a?b', 'c#d', 'e%20f', 'g h', 'x?y#z%41 w'];

  it.each(odd)('opens the right file in %j (in place, by the CLI, and as immutable)', (name) => {
    const dir = join(tempDir(), name);
    mkdirSync(dir);
    const path = storeWith(`store in ${name}`, 'state.db', dir);
    const store = open(path);
    expect(titles(store)).toEqual([`store in ${name}`]);
    store.close();
    const r = lookback(['recent', '--db', path, '--json']);
    expect(r.code).toBe(0);
    expect((r.json().results as { title: string }[])[0]!.title).toBe(`store in ${name}`);
    // WAL store, no -shm, directory treated as unwritable: read as immutable through a URI.
    const wal = join(dir, 'wal.db');
    copyFileSync(fixtureCopy(30), wal);
    const imm = open(wal, { dirWritable: () => false });
    expect(imm.openPlan.kind).toBe('immutable');
    expect(searchJson(imm, 'the', { limit: 1 }).count).toBe(1);
  });

  it('fileUri percent-encodes everything but unreserved characters and /', () => {
    expect(fileUri('/t/a?b#c%d e/ü.db', { immutable: '1' })).toBe(
      'file:/t/a%3Fb%23c%25d%20e/%C3%BC.db?immutable=1',
    );
  });
});
