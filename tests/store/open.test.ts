import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { StoreError } from '../../src/store/errors.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { fixtureCopy, sha256, tempDir } from '../helpers/fixtures.js';
import { lookback } from '../helpers/cli.js';

const readOnlyDir = { dirWritable: () => false };

describe('a stopped writer’s WAL store in a directory lookback cannot write', () => {
  it('with an empty -wal: reads it as immutable and creates nothing beside it', () => {
    const path = fixtureCopy(30);
    const before = readdirSync(dirname(path));
    const hash = sha256(path);
    const store = Store.open(path, readOnlyDir);
    expect(store.warnings[0]).toMatch(/not writable, so reading the store as immutable/);
    expect(browse(store, { limit: 5 })).toHaveLength(5);
    store.close();
    expect(readdirSync(dirname(path))).toEqual(before);
    expect(sha256(path)).toBe(hash);
  });

  it('with data still in its -wal: reads a private copy that includes it', () => {
    const dir = tempDir();
    const path = join(dir, 'state.db');
    copyFileSync(
      buildStore(30, (db) => {
        insertSession(db, { id: 'old', started_at: 1_780_000_000 });
        insertMessage(db, { session_id: 'old', content: 'checkpointed osprey' });
      }),
      path,
    );
    // A writer that stopped before checkpointing: its last commit lives only in the -wal.
    const writer = new Database(path);
    writer.pragma('wal_autocheckpoint = 0');
    insertMessage(writer, { session_id: 'old', content: 'uncheckpointed osprey' });
    const wal = readFileSync(`${path}-wal`);
    writer.close(); // a clean close checkpoints; put back the -wal a crash would have left
    writeFileSync(`${path}-wal`, wal);
    expect(existsSync(`${path}-shm`)).toBe(false);
    const store = Store.open(path, readOnlyDir);
    expect(store.warnings[0]).toMatch(/private copy/);
    expect(discover(store, 'osprey', { limit: 5, views: false }).results).toHaveLength(1);
    store.close();
    expect(existsSync(`${path}-shm`)).toBe(false);
  });
});

describe('a writer holding the lock', () => {
  it('is reported as "store busy" after a short wait, not a freeze or a stack trace', () => {
    const path = fixtureCopy(6); // rollback journal: an exclusive lock blocks readers
    const writer = new Database(path);
    writer.exec('BEGIN EXCLUSIVE');
    try {
      const t = Date.now();
      let err: unknown;
      try {
        const store = Store.open(path);
        store.close();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StoreError);
      expect((err as StoreError).message).toMatch(/^store busy/);
      expect(Date.now() - t).toBeLessThan(5_000);
      const r = lookback(['recent', '--db', path, '--json']);
      expect(r.code).toBe(1);
      expect(r.json().error).toMatch(/^store busy/);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });
});
