/**
 * The app on a profile kept in PostgreSQL (issue #19): the fixture's rows are
 * loaded into a real PostgreSQL server in the schema the agent would create
 * for profile `team`; the app's store choice (the same one `lookback --profile
 * team` makes) syncs them into lookback's mirror and opens it. Typed searches,
 * the results and the conversation opened at the hit show the same text,
 * frame for frame, as the app on the SQLite copy of the same rows
 * (hermes-v26.db has the full-text layout the mirror builds). The PostgreSQL
 * rows are the same before and after.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseStore } from '../../src/recall/storeChoice.js';
import { schemaCandidates } from '../../src/store/postgresConfig.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import {
  freshDatabase,
  loadHermesSchema,
  postgresProfileHome,
  schemaDigest,
  stopServer,
} from '../helpers/postgres.js';
import { KEY, startHarness, WIDE, type Harness } from './harness.js';

let url: string;
let schema: string;
let digest: string;
let mirror: string;
let lite: string;

beforeAll(async () => {
  const dir = tempDir();
  const home = join(dir, 'home', '.hermes', 'profiles', 'team');
  mkdirSync(home, { recursive: true });
  url = await freshDatabase();
  schema = schemaCandidates('team', home, {}).candidates[0]!;
  await loadHermesSchema(url, schema, join(FIXTURE_DIR, 'hermes-v26.db'));
  digest = await schemaDigest(url, schema);
  postgresProfileHome(home, url);
  const env = {
    ...process.env,
    HOME: join(dir, 'home'),
    HERMES_HOME: '',
    XDG_CACHE_HOME: join(dir, 'cache'),
  };
  const choice = await chooseStore({ profile: 'team' }, { env, home: env.HOME });
  expect(choice.postgres?.profile).toBe('team');
  mirror = choice.path;
  expect(mirror).toContain(join(dir, 'cache'));
  lite = join(dir, 'lite', 'state.db');
  mkdirSync(join(dir, 'lite'));
  copyFileSync(join(FIXTURE_DIR, 'hermes-v26.db'), lite);
}, 120_000);

afterAll(async () => {
  expect(await schemaDigest(url, schema)).toBe(digest);
  stopServer();
});

/** The frame without its first line (the header names the store's file). */
const body = (h: Harness) => h.frame().split('\n').slice(1).join('\n');

/** Waits until the frame stops changing (hit counts and the preview come in after the rows). */
async function settled(h: Harness): Promise<string> {
  let last = '';
  let same = 0;
  await h.waitFor(() => {
    const now = body(h);
    same = now === last ? same + 1 : 0;
    last = now;
    return same >= 20;
  }, 'a settled frame');
  return last;
}

async function both<T>(fn: (h: Harness) => Promise<T>): Promise<[T, T]> {
  const out: T[] = [];
  for (const path of [mirror, lite]) {
    const h = await startHarness(path, WIDE, { now: () => Date.parse('2026-11-26T12:00:00Z') });
    try {
      out.push(await fn(h));
    } finally {
      await h.close();
    }
  }
  return out as [T, T];
}

describe('the app on a PostgreSQL profile', () => {
  for (const query of ['connection pool', '数据', 'webhook OR ledger'])
    it(`“${query}”: the same results, and the same conversation opened at the hit`, async () => {
      const [pg, sq] = await both(async (h) => {
        await h.waitFor(() => h.state().recent.rows.length > 0, 'Recent');
        const recent = await settled(h);
        await h.press('/');
        await h.type(query);
        await h.waitFor(
          () => h.state().results.forText === query && h.state().results.items.length > 0,
          'the results',
        );
        await h.waitFor(() => /Results: \d/.test(h.frame()), 'the count');
        const results = await settled(h);
        const titles = h.state().results.items.map((i) => i.title);
        await h.press(KEY.enter);
        await h.waitFor(
          () => h.state().pane === 'messages' && !h.frame().includes('loading…'),
          'the hit opened',
        );
        return { recent, results, titles, opened: await settled(h) };
      });
      expect(pg.titles.length).toBeGreaterThan(0);
      // The opened conversation shows the words searched for (not an empty or loading pane).
      expect(pg.opened.toLowerCase()).toContain(query.split(' ')[0]!.toLowerCase());
      expect(pg.recent).toBe(sq.recent);
      expect(pg.titles).toEqual(sq.titles);
      expect(pg.results).toBe(sq.results);
      expect(pg.opened).toBe(sq.opened);
    }, 60_000);
});
