import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureCopy, sha256, tempDir } from '../helpers/fixtures.js';
import { lookback } from '../helpers/cli.js';
import {
  expectedBrowse,
  expectedDiscover,
  loadSnapshot,
  visible,
  type Snapshot,
} from '../helpers/oracle.js';

let db: string;
let hash: string;
let snap: Snapshot;

beforeAll(() => {
  db = fixtureCopy(30);
  hash = sha256(db);
  snap = loadSnapshot(db);
});
afterAll(() => {
  // Whatever ran, the store's main file is byte-for-byte what it was.
  expect(sha256(db)).toBe(hash);
});

describe('recent', () => {
  it('prints the agent browse shape with the default limit of 20', () => {
    const r = lookback(['recent', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const out = r.json();
    expect(Object.keys(out)).toEqual(['success', 'mode', 'results', 'count', 'message']);
    const results = out.results as Record<string, unknown>[];
    expect(results.map((x) => x.session_id)).toEqual(
      expectedBrowse(snap, 20).map((x) => x.session_id),
    );
    expect(Object.keys(results[0]!)).toEqual([
      'session_id',
      'link',
      'title',
      'source',
      'started_at',
      'last_active',
      'message_count',
      'preview',
    ]);
    expect(typeof results[0]!.started_at).toBe('number');
  });

  it('honours --limit without clamping it', () => {
    const out = lookback(['recent', '--db', db, '--json', '--limit', '40']).json();
    expect(out.count).toBe(Math.min(40, expectedBrowse(snap, 1000).length));
  });

  it('prints readable text without --json', () => {
    const r = lookback(['recent', '--db', db, '--limit', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stdout).not.toContain('{');
  });
});

describe('search', () => {
  it('returns the same conversations and anchors the agent would, limit 10 by default', () => {
    const out = lookback(['search', 'billing migration', '--db', db, '--json']).json();
    const want = expectedDiscover(snap, snap.ftsOrder('billing migration'), 10);
    const results = out.results as Record<string, unknown>[];
    expect(results.map((x) => [x.session_id, x.match_message_id])).toEqual(
      want.map((w) => [w.session_id, w.match_message_id]),
    );
    expect(Object.keys(out)).toEqual([
      'success',
      'mode',
      'query',
      'detail',
      'results',
      'count',
      'sessions_searched',
    ]);
    const first = results[0]!;
    expect(Object.keys(first).slice(0, 14)).toEqual([
      'session_id',
      'when',
      'source',
      'model',
      'title',
      'matched_role',
      'match_message_id',
      'snippet',
      'bookend_start',
      'messages',
      'bookend_end',
      'messages_before',
      'messages_after',
      'detail',
    ]);
    expect(first.link).toBe(`@session:default/${String(first.session_id)}`);
    const anchor = (first.messages as Record<string, unknown>[]).filter((m) => m.anchor === true);
    expect(anchor.map((m) => m.id)).toEqual([first.match_message_id]);
  });

  it('treats everything after -- as the query', () => {
    const r = lookback(['search', '--db', db, '--json', '--', '-stripe']);
    expect(r.code).toBe(0);
    expect(r.json().query).toBe('-stripe');
  });

  it('answers an unparseable query with an empty list and a message', () => {
    const out = lookback(['search', 'AND OR NOT ) ( "', '--db', db, '--json']).json();
    expect(out).toMatchObject({ success: true, results: [], count: 0 });
    expect(typeof out.message).toBe('string');
  });

  it('filters roles and sorts by time on request', () => {
    const out = lookback([
      'search',
      'stripe',
      '--db',
      db,
      '--json',
      '--roles',
      'tool',
      '--sort',
      'newest',
    ]).json();
    const results = out.results as Record<string, unknown>[];
    for (const r of results) expect(r.matched_role).toBe('tool');
  });
});

describe('scroll and read', () => {
  const session = () =>
    [...snap.bySession.entries()].find(([, m]) => m.filter(visible).length > 40)!;

  it('scroll prints the slice with the anchor flagged, window clamped to 1..20', () => {
    const [sid, msgs] = session();
    const list = msgs.filter(visible);
    const anchor = list[25]!.id;
    const out = lookback([
      'scroll',
      sid,
      String(anchor),
      '--db',
      db,
      '--json',
      '--window',
      '50',
    ]).json();
    expect(out.window).toBe(20);
    expect((out.messages as { id: number }[]).map((m) => m.id)).toEqual(
      list.slice(5, 46).map((m) => m.id),
    );
    expect(Object.keys(out)).toEqual([
      'success',
      'mode',
      'session_id',
      'around_message_id',
      'session_meta',
      'window',
      'messages',
      'messages_before',
      'messages_after',
    ]);
    const def = lookback(['scroll', sid, String(anchor), '--db', db, '--json']).json();
    expect(def.window).toBe(5);
  });

  it('read truncates long sessions to the first 20 and last 10', () => {
    const [sid, msgs] = session();
    const out = lookback(['read', sid, '--db', db, '--json']).json();
    const list = msgs.filter(visible).map((m) => m.id);
    expect(out.truncated).toBe(true);
    expect((out.messages as { id: number }[]).map((m) => m.id)).toEqual([
      ...list.slice(0, 20),
      ...list.slice(-10),
    ]);
  });

  it('an unknown session is a JSON error with exit 1', () => {
    const r = lookback(['read', 'no_such_session', '--db', db, '--json']);
    expect(r.code).toBe(1);
    expect(r.json()).toEqual({ success: false, error: 'session_id not found: no_such_session' });
  });
});

describe('usage mistakes exit 2 with one line', () => {
  it.each([
    [['scroll', 'abc', '--db', 'x']],
    [['scroll', 'abc', 'notanumber', '--db', 'x']],
    [['search', '--db', 'x']],
    [['recent', '--limit', 'ten', '--db', 'x']],
    [['search', 'q', '--sort', 'sideways', '--db', 'x']],
    [['frobnicate']],
    [['recent', '--bogus']],
  ])('%j', (args) => {
    const r = lookback(args);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('bad stores get a one-line error naming the problem', () => {
  const dir = tempDir();
  const cases: [string, () => string, RegExp][] = [
    ['missing path', () => join(dir, 'missing.db'), /no store at/],
    [
      'a directory',
      () => {
        const d = join(dir, 'adir');
        mkdirSync(d, { recursive: true });
        return d;
      },
      /is a directory/,
    ],
    [
      'not SQLite',
      () => {
        const f = join(dir, 'text.db');
        writeFileSync(f, 'hello, not a database\n'.repeat(100));
        return f;
      },
      /not a SQLite database/,
    ],
    [
      'empty file',
      () => {
        const f = join(dir, 'empty.db');
        writeFileSync(f, '');
        return f;
      },
      /empty/,
    ],
  ];
  it.each(cases)('%s', (_name, make, pattern) => {
    const path = make();
    for (const json of [true, false]) {
      const r = lookback(['recent', '--db', path, ...(json ? ['--json'] : [])]);
      expect(r.code).toBe(1);
      const text = json ? String(r.json().error) : r.stderr;
      expect(text).toMatch(pattern);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      if (json) expect(r.json().success).toBe(false);
    }
  });
});

describe('no TTY', () => {
  it('the app explains the JSON subcommands and exits 2', () => {
    const r = lookback(['--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lookback recent --json/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('--demo', () => {
  it('creates the demo store once in the cache directory and reads it', () => {
    const cache = tempDir();
    const first = lookback(['recent', '--demo', '--json'], { XDG_CACHE_HOME: cache });
    expect(first.code).toBe(0);
    expect((first.json().results as unknown[]).length).toBe(20);
    const path = join(cache, 'lookback', 'demo-v1.db');
    const hash = sha256(path);
    const again = lookback(['search', 'migration', '--demo', '--json'], { XDG_CACHE_HOME: cache });
    expect(again.code).toBe(0);
    expect((again.json().results as unknown[]).length).toBeGreaterThan(0);
    expect(sha256(path)).toBe(hash);
  });
});

describe('filters and detail on the v26 store the August agent wrote', () => {
  let v26: string;
  let v26hash: string;
  beforeAll(() => {
    v26 = fixtureCopy(26);
    v26hash = sha256(v26);
  });
  afterAll(() => expect(sha256(v26)).toBe(v26hash));
  const search = (...args: string[]) =>
    lookback(['search', 'Can you help', '--db', v26, '--json', '--limit', '500', ...args]);
  const starts = (out: Record<string, unknown>) => {
    const s = loadSnapshot(v26);
    return (out.results as Record<string, unknown>[]).map(
      (r) => s.sessions.get(String(r.parent_session_id ?? r.session_id))!.started_at,
    );
  };

  it('--after is inclusive and --before exclusive on the conversation start', () => {
    const all = starts(search().json()).sort((a, b) => a - b);
    const cut = all[Math.floor(all.length / 2)]!;
    const iso = new Date(cut * 1000).toISOString();
    const after = starts(search('--after', iso).json());
    const before = starts(search('--before', iso).json());
    expect(after.length).toBeGreaterThan(0);
    expect(before.length).toBeGreaterThan(0);
    expect(after.every((t) => t >= Math.floor(cut))).toBe(true);
    expect(before.every((t) => t < cut)).toBe(true);
    expect(after.length + before.length).toBe(all.length);
  });

  it('--exclude leaves out the whole lineage of an id; --source keeps only those sources', () => {
    const out = search().json();
    const first = (out.results as Record<string, unknown>[])[0]!;
    const root = String(first.parent_session_id ?? first.session_id);
    const without = search('--exclude', String(first.session_id)).json();
    for (const r of without.results as Record<string, unknown>[])
      expect(String(r.parent_session_id ?? r.session_id)).not.toBe(root);
    const cron = search('--source', 'cron').json();
    const sources = (cron.results as Record<string, unknown>[]).map((r) => r.source);
    expect(sources.length).toBeGreaterThan(0);
    expect(new Set(sources)).toEqual(new Set(['cron']));
  });

  it('--detail full hydrates every result, compact none', () => {
    for (const [d, want] of [
      ['full', 'full'],
      ['compact', 'compact'],
    ] as const) {
      const out = lookback([
        'search',
        'Can you help',
        '--db',
        v26,
        '--json',
        '--limit',
        '3',
        '--detail',
        d,
      ]).json();
      expect(out.detail).toBe(d);
      expect((out.results as Record<string, unknown>[]).map((r) => r.detail)).toEqual([
        want,
        want,
        want,
      ]);
    }
  });

  it('--model and --source filter recent too', () => {
    const out = lookback([
      'recent',
      '--db',
      v26,
      '--json',
      '--model',
      'GPT-5',
      '--limit',
      '100',
    ]).json();
    const s = loadSnapshot(v26);
    const rows = out.results as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      // Filters apply to the conversation's first row; the row shown is its tip.
      const root = [...s.sessions.values()].find((x) => x.id === r.session_id)!;
      let cur = root;
      while (cur.parent_session_id && s.sessions.has(cur.parent_session_id))
        cur = s.sessions.get(cur.parent_session_id)!;
      expect(cur.model?.toLowerCase()).toContain('gpt-5');
    }
  });

  it.each([
    [['--after', 'last tuesday'], /--after takes a date/],
    [['--before', '2026-02-30'], /--before takes a date/],
    [['--detail', 'huge'], /--detail takes adaptive, full or compact/],
    [['--exclude', Array.from({ length: 21 }, (_, i) => `s${i}`).join(',')], /at most 20/],
    [['--source', ','], /--source needs at least one value/],
    [['--after', '2026-09-01', '--before', '2026-08-01'], /earlier than/],
  ])('a bad value is a one-line usage error: %s', (args, pattern) => {
    const r = search(...args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(pattern);
    // With --json the same error is JSON on stdout (issue 9).
    const out = r.json();
    expect(out.success).toBe(false);
    expect(out.usage).toBe(true);
    expect(String(out.error)).toMatch(pattern);
  });

  it('--exclude and --detail are for search only', () => {
    const r = lookback(['recent', '--db', v26, '--detail', 'full']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--detail is for search only/);
  });
});

describe('command-line rough edges (issue 9)', () => {
  const session = () =>
    [...snap.bySession.entries()].find(([, m]) => m.filter(visible).length > 40)!;
  const usage = (args: string[]) => {
    const r = lookback(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('Run "lookback --help" for usage.');
    return lines[0]!;
  };

  it('-h prints the help, as --help does', () => {
    const short = lookback(['-h']);
    const long = lookback(['--help']);
    expect(short.code).toBe(0);
    expect(short.stdout).toContain('lookback recent');
    expect(short.stdout).toBe(long.stdout);
  });

  it('usage errors say lookback: and point at --help', () => {
    expect(usage(['recent', '--bogus'])).toBe('lookback: unknown option --bogus');
    expect(usage(['recent', '-Z'])).toBe('lookback: unknown option -Z');
    expect(usage(['frobnicate'])).toMatch(/^lookback: unknown command "frobnicate"/);
  });

  it('a flag that needs a value says so', () => {
    expect(usage(['recent', '--limit'])).toBe('lookback: --limit needs a value');
    expect(usage(['recent', '--db', '--all'])).toBe('lookback: --db needs a value');
    expect(usage(['search', 'q', '--db', db, '--roles'])).toBe('lookback: --roles needs a value');
  });

  it('--roles with a role that does not exist is a usage error', () => {
    expect(usage(['search', 'q', '--db', db, '--roles', 'user,bogus'])).toBe(
      'lookback: --roles takes user, assistant, tool, system (comma-separated), not "bogus"',
    );
  });

  it('with --json, usage errors are JSON on stdout', () => {
    const r = lookback(['search', 'q', '--db', db, '--roles', 'bogus', '--json']);
    expect(r.code).toBe(2);
    expect(r.json()).toEqual({
      success: false,
      error: '--roles takes user, assistant, tool, system (comma-separated), not "bogus"',
      usage: true,
    });
    const missing = lookback(['recent', '--json', '--limit']);
    expect(missing.code).toBe(2);
    expect(missing.json().error).toBe('--limit needs a value');
  });

  it('read accepts a unique id prefix and lists the candidates of an ambiguous one', () => {
    const sessions = [...snap.sessions.keys()].sort();
    // The shortest prefix naming exactly one session, and one shared by several.
    const unique = sessions
      .map((id) => {
        for (let n = 9; n <= id.length; n++) {
          const p = id.slice(0, n);
          if (sessions.filter((s) => s.startsWith(p)).length === 1) return p;
        }
        return id;
      })
      .find((p) => p.length < 22)!;
    const full = sessions.find((s) => s.startsWith(unique))!;
    const out = lookback(['read', unique, '--db', db, '--json']).json();
    expect(out.session_id).toBe(full);
    expect(out).toEqual(lookback(['read', full, '--db', db, '--json']).json());
    const shared = sessions[0]!.slice(0, 6);
    const matching = sessions.filter((s) => s.startsWith(shared));
    expect(matching.length).toBeGreaterThan(1);
    const r = lookback(['read', shared, '--db', db, '--json']);
    expect(r.code).toBe(1);
    const error = String(r.json().error);
    expect(error).toMatch(
      new RegExp(`^session id prefix ${shared} is ambiguous: ${matching.length}`),
    );
    for (const id of matching.slice(0, 5)) expect(error).toContain(id);
  });

  it('read marks the omitted middle of a long session in readable output', () => {
    const [sid, msgs] = session();
    const list = msgs.filter(visible);
    const r = lookback(['read', sid, '--db', db]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const mark = lines.findIndex((l) => l.includes('omitted here'));
    expect(lines[mark]).toContain(`${list.length - 30} messages omitted here`);
    expect(lines[mark]).toContain(`lookback scroll ${sid} ${list[19]!.id}`);
    // Right after the 20th message, right before the 21st shown (the first of the last 10).
    const before = lines
      .slice(0, mark)
      .reverse()
      .find((l) => /^[ ▶]#\d+ /.test(l))!;
    const after = lines.slice(mark + 1).find((l) => /^[ ▶]#\d+ /.test(l))!;
    expect(before).toMatch(new RegExp(`^ #${list[19]!.id} `));
    expect(after).toMatch(new RegExp(`^ #${list[list.length - 10]!.id} `));
  });

  it('"no store" mentions --demo', () => {
    const r = lookback(['recent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^lookback: no store at \/nonexistent-home\/\.hermes\/state\.db .*--demo/,
    );
    const j = lookback(['recent', '--db', '/nonexistent/state.db', '--json']);
    expect(j.json().error).toMatch(/no store at \/nonexistent\/state\.db.*--demo/);
  });

  it('--profile with an unknown name lists the profiles that exist', () => {
    const home = tempDir();
    for (const p of ['work', 'play'])
      mkdirSync(join(home, '.hermes', 'profiles', p), { recursive: true });
    const r = lookback(['recent', '--profile', 'nope'], { HOME: home });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('lookback: no profile named nope (profiles: default, play, work)');
  });
});
