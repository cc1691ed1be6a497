/**
 * One server, several Hermes profiles: the server's own store by default, and
 * the store of the profile a call (or a pasted link) names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { link } from '../../src/anchors/format.js';
import { lookback } from '../helpers/cli.js';
import { FIXTURE_DIR, sha256, tempDir } from '../helpers/fixtures.js';
import { call, startServer, type Server } from './client.js';

let home: string;
let env: Record<string, string>;
let server: Server;
const hashes = new Map<string, string>();

function store(path: string, layout: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  copyFileSync(join(FIXTURE_DIR, `hermes-v${layout}.db`), path);
  hashes.set(path, sha256(path));
}

beforeAll(async () => {
  home = join(tempDir(), 'hermes');
  store(join(home, 'state.db'), 30);
  store(join(home, 'profiles', 'work', 'state.db'), 16);
  env = { HERMES_HOME: home };
  server = await startServer([], env);
});

afterAll(async () => {
  await server?.close();
  for (const [path, hash] of hashes) expect(sha256(path)).toBe(hash);
});

const cli = (args: string[]) => lookback([...args, '--json'], env).json();

describe('profiles', () => {
  it('reads the default profile unless a call names another', async () => {
    const own = await call(server, { limit: 4 });
    expect(own.json).toEqual(cli(['recent', '--limit', '4']));
    const work = await call(server, { limit: 4, profile: 'work' });
    expect(work.json).toEqual(cli(['recent', '--limit', '4', '--profile', 'work']));
    // Two different stores, not the same answer twice.
    expect(work.json.results).not.toEqual(own.json.results);
  });

  it("a link copied from the work profile's store opens that session there", async () => {
    const work = await call(server, { profile: 'work', query: 'migration', limit: 1 });
    const sid = (work.json.results as { session_id: string }[])[0]!.session_id;
    const copied = link({ profile: 'work', sessionId: sid });
    const read = await call(server, { session_id: copied });
    expect(read.isError).toBe(false);
    expect(read.json).toEqual(cli(['read', sid, '--profile', 'work']));
    // Without the profile, the default store does not have it: the CLI's error.
    const missing = await call(server, { session_id: sid });
    expect(missing.isError).toBe(true);
    expect(missing.json).toEqual(lookback(['read', sid, '--json'], env).json());
  });
});
