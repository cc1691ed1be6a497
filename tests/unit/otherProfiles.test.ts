/**
 * The app's door to the other profiles' stores (src/tui/otherProfiles.ts):
 * which can be read, opening one read-only and letting its connection go after
 * idle like the main store, and one clear line for a profile that cannot be read.
 */
import { IDLE_CLOSE_MS } from '../../src/budgets.js';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { StoreError } from '../../src/store/errors.js';

import { otherProfiles } from '../../src/tui/otherProfiles.js';
import { sha256 } from '../helpers/fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'lookback-other-profiles-'));
for (const dir of ['profiles/work', 'profiles/pg', 'profiles/empty'])
  mkdirSync(join(root, dir), { recursive: true });
generateStore(join(root, 'state.db'), { layout: 30, sessions: 3, seed: 3 });
generateStore(join(root, 'profiles/work/state.db'), { layout: 30, sessions: 3, seed: 5 });
writeFileSync(join(root, 'profiles/pg/config.yaml'), 'database:\n  backend: postgres\n');
const where = { env: { HERMES_HOME: root }, home: '/nonexistent' };

describe('otherProfiles', () => {
  it('lists the readable profiles with their stores', () => {
    expect(otherProfiles(where).list()).toEqual([
      { name: 'default', path: join(root, 'state.db') },
      { name: 'work', path: join(root, 'profiles/work/state.db') },
    ]);
  });

  it('opens a profile read-only and lets the connection go after idle', async () => {
    const before = sha256(join(root, 'profiles/work/state.db'));
    const store = otherProfiles(where).open('work');
    try {
      expect(store.profile).toBe('work');
      const n = store.read(() => store.db.prepare('SELECT count(*) FROM sessions').pluck().get());
      const plain = new Database(join(root, 'profiles/work/state.db'), { readonly: true });
      expect(n).toBe(plain.prepare('SELECT count(*) FROM sessions').pluck().get());
      plain.close();
      expect(store.connected).toBe(true);
      const end = Date.now() + IDLE_CLOSE_MS * 3;
      while (store.connected && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(store.connected).toBe(false);
    } finally {
      store.close();
    }
    expect(sha256(join(root, 'profiles/work/state.db'))).toBe(before);
  });

  it('refuses in one line a profile it cannot read', () => {
    const o = otherProfiles(where);
    const why = (name: string): string => {
      try {
        o.open(name).close();
        return 'opened';
      } catch (err) {
        expect(err).toBeInstanceOf(StoreError);
        return (err as Error).message;
      }
    };
    expect(why('nosuch')).toBe('no profile "nosuch"');
    expect(why('pg')).toBe(
      `profile pg keeps its sessions in PostgreSQL, but HERMES_DATABASE_URL was not found in ${join(root, 'profiles/pg')}/.env`,
    );
    expect(why('empty')).toMatch(/^no store at /);
  });
});
