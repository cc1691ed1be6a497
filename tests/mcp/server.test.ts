/**
 * `lookback mcp` driven through the MCP SDK's own client, as an agent drives
 * it: every answer must be exactly what `lookback <cmd> --json` prints for the
 * same arguments, and the text in it must be the store's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pkg from '../../package.json' with { type: 'json' };
import { link, scrollCall } from '../../src/anchors/format.js';
import { parseAnchor } from '../../src/anchors/parse.js';
import { lookback } from '../helpers/cli.js';
import { fixtureCopy, sha256 } from '../helpers/fixtures.js';
import { expectedBrowse, loadSnapshot, type Snapshot } from '../helpers/oracle.js';
import { call, startServer, type Server } from './client.js';

let db: string;
let hash: string;
let snap: Snapshot;
let server: Server;
/** The longest session of the fixture, and a message in its middle. */
let long: { session_id: string; mid: number };

interface Row {
  id: number;
  session_id: string;
  role: string;
  content: string | null;
}

/** A message's content as the agent's tool shapes it: multimodal rows (`\0json:` + parts) decoded. */
function shown(row: Row): unknown {
  const c = row.content;
  return c !== null && c.startsWith('\u0000json:') ? JSON.parse(c.slice(6)) : c;
}

function rows(ids: number[]): Map<number, Row> {
  const conn = new Database(db, { readonly: true });
  try {
    const found = conn
      .prepare(
        `SELECT id, session_id, role, content FROM messages WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as Row[];
    return new Map(found.map((r) => [r.id, r]));
  } finally {
    conn.close();
  }
}

beforeAll(async () => {
  db = fixtureCopy(30);
  hash = sha256(db);
  snap = loadSnapshot(db);
  const conn = new Database(db, { readonly: true });
  const top = conn
    .prepare(
      `SELECT session_id, count(*) AS n, min(id) AS lo, max(id) AS hi FROM messages
       GROUP BY session_id ORDER BY n DESC LIMIT 1`,
    )
    .get() as { session_id: string; lo: number; hi: number };
  const mid = conn
    .prepare(`SELECT id FROM messages WHERE session_id = ? AND id >= ? ORDER BY id LIMIT 1`)
    .get(top.session_id, Math.floor((top.lo + top.hi) / 2)) as { id: number };
  conn.close();
  long = { session_id: top.session_id, mid: mid.id };
  server = await startServer(['--db', db]);
});

afterAll(async () => {
  await server?.close();
  // Whatever the server answered, the store's main file is byte-for-byte what it was.
  expect(sha256(db)).toBe(hash);
});

/** What `lookback …--json` prints for the same request. */
function cli(args: string[]): Record<string, unknown> {
  return lookback([...args, '--db', db, '--json']).json();
}

describe('the handshake', () => {
  it('names itself and lists session_search with its schema', async () => {
    expect(server.client.getServerVersion()).toMatchObject({
      name: 'lookback',
      version: pkg.version,
    });
    expect(server.client.getInstructions()).toContain('session_search');
    const { tools } = await server.client.listTools();
    // session_search first, the reading tools after it (tests/mcp/tools.test.ts calls each).
    expect(tools.map((t) => t.name)).toEqual([
      'session_search',
      'list_sessions',
      'session_overview',
      'session_messages',
      'stats',
    ]);
    const tool = tools[0]!;
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.inputSchema.additionalProperties).toBe(false);
    const props = tool.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props)).toEqual([
      'query',
      'session_id',
      'around_message_id',
      'window',
      'limit',
      'sort',
      'detail',
      'role_filter',
      'after',
      'before',
      'exclude_session_ids',
      'profile',
      'host',
      'agent',
      'mode',
    ]);
    expect(props.mode!.enum).toEqual(['lexical', 'semantic', 'hybrid']);
    expect(props.around_message_id).toMatchObject({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
    });
    expect(props.sort!.enum).toEqual(['relevance', 'newest', 'oldest']);
    // The description teaches the four shapes and what to do with a pasted anchor.
    for (const words of ['DISCOVER', 'SCROLL', 'READ', 'BROWSE', '@session:'])
      expect(tool.description).toContain(words);
  });
});

describe('the four shapes answer what the CLI prints', () => {
  it('browse: recent conversations, 3 by default like the agent', async () => {
    const a = await call(server, {});
    expect(a.isError).toBe(false);
    expect(a.json).toEqual(cli(['recent', '--limit', '3']));
    expect(a.structured).toEqual(a.json);
    expect((a.json.results as { session_id: string }[]).map((r) => r.session_id)).toEqual(
      expectedBrowse(snap, 3).map((r) => r.session_id),
    );
  });

  it('browse: limit is clamped to 1..10 as the agent clamps it', async () => {
    const big = await call(server, { limit: 50 });
    expect(big.json).toEqual(cli(['recent', '--limit', '10']));
    expect(big.json.count).toBe(10);
    const zero = await call(server, { limit: 0 });
    expect(zero.json).toEqual(cli(['recent', '--limit', '1']));
  });

  it('discover: the same results, snippets and windows, and the text is the store text', async () => {
    const a = await call(server, {
      query: 'billing migration',
      limit: 4,
      sort: 'newest',
      role_filter: 'user, assistant,tool',
    });
    expect(a.isError).toBe(false);
    expect(a.json).toEqual(
      cli([
        'search',
        'billing migration',
        '--limit',
        '4',
        '--sort',
        'newest',
        '--roles',
        'user,assistant,tool',
      ]),
    );
    const results = a.json.results as {
      session_id: string;
      match_message_id: number;
      snippet: string;
      messages: { id: number; content: unknown; anchor?: boolean }[];
    }[];
    expect(results.length).toBeGreaterThan(1);
    const stored = rows(results.flatMap((r) => r.messages.map((m) => m.id)));
    for (const r of results) {
      expect(r.snippet.toLowerCase()).toMatch(/>>>(billing|migration)/);
      const anchor = r.messages.find((m) => m.anchor)!;
      expect(anchor.id).toBe(r.match_message_id);
      for (const m of r.messages) {
        expect(stored.get(m.id)!.session_id).toBe(r.session_id);
        expect(m.content).toEqual(shown(stored.get(m.id)!));
      }
    }
  });

  it('scroll: the raw window around a message', async () => {
    const a = await call(server, {
      session_id: long.session_id,
      around_message_id: long.mid,
      window: 3,
    });
    expect(a.isError).toBe(false);
    expect(a.json).toEqual(cli(['scroll', long.session_id, String(long.mid), '--window', '3']));
    const messages = a.json.messages as { id: number; content: unknown; role: string }[];
    expect(messages).toHaveLength(7);
    const stored = rows(messages.map((m) => m.id));
    for (const m of messages) {
      expect(m.content).toEqual(shown(stored.get(m.id)!));
      expect(m.role).toBe(stored.get(m.id)!.role);
    }
  });

  it('read: a whole (long: head and tail) session', async () => {
    const a = await call(server, { session_id: long.session_id });
    expect(a.isError).toBe(false);
    expect(a.json).toEqual(cli(['read', long.session_id]));
    expect(a.json.truncated).toBe(true);
    expect(a.json.message_count).toBe(snap.bySession.get(long.session_id)!.length);
  });
});

describe('filters and detail, as the CLI applies them', () => {
  it('discover with after, before, exclude_session_ids and detail', async () => {
    const all = await call(server, { query: 'migration', limit: 6 });
    const first = (all.json.results as { session_id: string }[])[0]!.session_id;
    const args = {
      query: 'migration',
      limit: 4,
      after: '2026-01-01',
      before: '2026-10-01',
      detail: 'full',
      exclude_session_ids: [first],
    };
    const a = await call(server, args);
    expect(a.isError, a.text).toBe(false);
    expect(a.json).toEqual(
      cli([
        'search',
        'migration',
        '--limit',
        '4',
        '--after',
        '2026-01-01',
        '--before',
        '2026-10-01',
        '--detail',
        'full',
        '--exclude',
        first,
      ]),
    );
    const results = a.json.results as { session_id: string; when: string; detail: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((r) => r.session_id)).not.toContain(first);
    for (const r of results) expect(r.detail).toBe('full');
    const adaptive = await call(server, { ...args, detail: undefined });
    const details = (adaptive.json.results as { detail: string }[]).map((r) => r.detail);
    expect(details).toEqual(['full', ...details.slice(1).map(() => 'compact')]);
  });

  it('browse with a date range, and without a conversation', async () => {
    const a = await call(server, { limit: 5, after: '2026-03-01', before: '2026-09-01' });
    expect(a.json).toEqual(
      cli(['recent', '--limit', '5', '--after', '2026-03-01', '--before', '2026-09-01']),
    );
    const top = (await call(server, { limit: 5 })).json.results as { session_id: string }[];
    const without = await call(server, { limit: 4, exclude_session_ids: [top[0]!.session_id] });
    expect((without.json.results as { session_id: string }[]).map((r) => r.session_id)).toEqual(
      top.slice(1).map((r) => r.session_id),
    );
  });
});

describe('anchors copied from the app', () => {
  it('a scroll call, turned into arguments as a model does, opens the same window', async () => {
    const copied = scrollCall({ sessionId: long.session_id, messageId: long.mid });
    const anchor = parseAnchor(copied);
    expect(anchor).toMatchObject({ kind: 'scroll' });
    if (anchor?.kind !== 'scroll') return;
    const a = await call(server, {
      session_id: anchor.sessionId,
      around_message_id: anchor.messageId,
      window: anchor.window,
    });
    expect(a.json).toEqual(cli(['scroll', long.session_id, String(long.mid), '--window', '5']));
    const messages = a.json.messages as { id: number; anchor?: boolean }[];
    expect(messages.find((m) => m.anchor)!.id).toBe(long.mid);
  });

  it('the whole scroll call pasted as session_id works too', async () => {
    const copied = scrollCall({ sessionId: long.session_id, messageId: long.mid }, 2);
    const a = await call(server, { session_id: copied });
    expect(a.json).toEqual(cli(['scroll', long.session_id, String(long.mid), '--window', '2']));
  });

  it('a link (with the profile the app names) reads the session', async () => {
    // A --db store outside ~/.hermes/profiles is the `default` profile's.
    const copied = link({ profile: 'default', sessionId: long.session_id });
    expect(copied).toBe(`@session:default/${long.session_id}`);
    const a = await call(server, { session_id: copied });
    expect(a.json).toEqual(cli(['read', long.session_id]));
    const split = await call(server, { session_id: long.session_id, profile: 'default' });
    expect(split.json).toEqual(a.json);
  });

  it('a link with around_message_id scrolls in it', async () => {
    const a = await call(server, {
      session_id: `@session:default/${long.session_id}`,
      around_message_id: long.mid,
    });
    expect(a.json).toEqual(cli(['scroll', long.session_id, String(long.mid)]));
  });
});

describe('bad calls get one line and the server keeps answering', () => {
  async function expectError(args: Record<string, unknown>, pattern: RegExp) {
    const a = await call(server, args);
    expect(a.isError).toBe(true);
    expect(a.json.success).toBe(false);
    expect(a.json.error).toMatch(pattern);
    expect(a.text).not.toContain('\n');
    expect(a.text).not.toMatch(/\bat .*\.js:\d+/);
    // …and the next call is answered as usual.
    const next = await call(server, { limit: 1 });
    expect(next.isError).toBe(false);
    expect(next.json.count).toBe(1);
    return a;
  }

  it('wrong types and unknown arguments', async () => {
    await expectError(
      { limit: 'three', sort: 'sideways', colour: 'red' },
      /^bad arguments: limit: .*number.*; sort: .*"relevance"\|"newest"\|"oldest".*; unknown argument colour$/,
    );
    await expectError({ around_message_id: 1.5, session_id: 'x' }, /around_message_id: /);
    // A string anchor in a Hermes session is a recovered scroll now: tests/mcp/anchors.test.ts.
    await expectError({ exclude_session_ids: 'abc' }, /exclude_session_ids: .*array/);
  });

  it('a null argument is taken as left out', async () => {
    const a = await call(server, { query: null, limit: null });
    expect(a.json).toEqual(cli(['recent', '--limit', '3']));
  });

  it('an unknown session: the CLI error, word for word', async () => {
    const a = await expectError(
      { session_id: '20990101_000000_abcdef' },
      /session_id not found: 20990101_000000_abcdef/,
    );
    const r = lookback(['read', '20990101_000000_abcdef', '--db', db, '--json']);
    expect(r.code).toBe(1);
    expect(a.json).toEqual(r.json());
  });

  it('a message not in the session: a bounded read with scroll_recovery, not an error', async () => {
    const a = await call(server, { session_id: long.session_id, around_message_id: 1 });
    expect(a.isError).toBe(false);
    const { scroll_recovery, ...read } = a.json;
    // The read is the CLI's read of the session, word for word.
    expect(read).toEqual(cli(['read', long.session_id]));
    expect(scroll_recovery).toEqual({
      requested_around_message_id: 1,
      reason: cli(['scroll', long.session_id, '1']).error,
      hint: expect.stringMatching(/^The anchor is not a message of this session/),
    });
  });

  it('contradictions and half anchors', async () => {
    await expectError({ around_message_id: long.mid }, /around_message_id needs the session_id/);
    await expectError(
      { session_id: `@session:work/${long.session_id}`, profile: 'default' },
      /link to profile "work" but profile is "default"/,
    );
    await expectError(
      {
        session_id: scrollCall({ sessionId: long.session_id, messageId: 7 }),
        around_message_id: 9,
      },
      /scroll call around message 7 but around_message_id is 9/,
    );
  });

  it('an agent lookback does not know', async () => {
    await expectError({ agent: 'windsurf', query: 'billing' }, /^agent "windsurf" not indexed/);
    // `all` is accepted, as `--agent all` on the command line (issue #17): tests/mcp/agents.test.ts.
    const hermes = await call(server, { agent: 'Hermes', limit: 2 });
    // Named, Hermes' rows say whose they are, as with --agent hermes on the command line.
    expect(hermes.json).toEqual(cli(['recent', '--limit', '2', '--agent', 'hermes']));
  });

  it('dates it cannot read, and an empty range', async () => {
    await expectError({ query: 'billing', after: 'soon' }, /^after takes a date .*, not "soon"$/);
    await expectError(
      { after: '2026-06-01', before: '2026-01-01' },
      /^after must be earlier than before$/,
    );
    await expectError({ detail: 'full' }, /^detail is for a query/);
  });

  it('a profile that is not a name, or has no store', async () => {
    await expectError(
      { profile: '../../etc', limit: 1 },
      /profile "..\/..\/etc" is not a profile name/,
    );
    const none = await expectError({ profile: 'nosuch', limit: 1 }, /^no profile named nosuch/);
    // The command line's store choice, in its words.
    const r = lookback(['recent', '--profile', 'nosuch', '--limit', '1', '--json']);
    expect(r.code).toBe(1);
    expect(none.json).toEqual(r.json());
  });
});
