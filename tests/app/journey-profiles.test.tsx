/**
 * A link naming another profile (`@session:work/<id>`) pasted while the app
 * shows `default`: it must never open default's session of that id.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { messagesAfter } from '../../src/store/messages.js';
import { startHarness } from './harness.js';

const root = mkdtempSync(join(tmpdir(), 'lookback-profiles-'));
const defaultPath = join(root, 'state.db');
const workPath = join(root, 'profiles', 'work', 'state.db');
mkdirSync(join(root, 'profiles', 'work'), { recursive: true });
generateStore(defaultPath, { layout: 30, sessions: 12, seed: 11 });
generateStore(workPath, { layout: 30, sessions: 12, seed: 29 });

describe('a link naming another profile', () => {
  it('says which profile holds it instead of opening default', async () => {
    const work = Store.open(workPath, { profile: 'work' });
    const def = Store.open(defaultPath, { profile: 'default' });
    const ids = work.db.prepare('SELECT id FROM sessions ORDER BY id').pluck().all() as string[];
    const id = ids[0]!;
    const workText = JSON.stringify(messagesAfter(work, id, 0, 1)[0]?.content ?? '');
    const defText = JSON.stringify(messagesAfter(def, id, 0, 1)[0]?.content ?? null);
    // The default store has no such session, or a different conversation under the same id.
    expect(defText).not.toBe(workText);
    work.close();
    def.close();
    const h = await startHarness(
      defaultPath,
      { cols: 120, rows: 30 },
      {
        profiles: ['default', 'work'],
      },
    );
    try {
      await h.press('/', `@session:work/${id}`);
      await h.waitFor(() => h.frame().includes('profile work'), 'the other-profile line');
      expect(h.state().results.items).toEqual([]);
      expect(h.state().view).toBeNull();
      expect(h.frame()).toContain("profile work's link (this is default)");
      expect(h.state().results.message).toBe(
        "profile work's link (this is default): lookback --profile work",
      );
      expect(h.frame()).not.toContain(workText.slice(1, 30));

      await h.press('\x15', '@session:nosuch/abc');
      await h.waitFor(() => h.frame().includes('no profile "nosuch"'), 'unknown profile line');
      expect(h.state().results.message).toBe('no profile "nosuch" (profiles: default, work)');
    } finally {
      await h.close();
    }
  });
});
