import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmptyStore,
  generateStore,
  insertMessage,
  insertSession,
  type GenerateOptions,
  type Layout,
} from '../../src/demo/generate.js';
import { fixtureCopy } from '../helpers/fixtures.js';

type Row = Record<string, unknown>;

const LAYOUTS: Layout[] = [6, 16, 30];
const SMALL = { sessions: 45, targetMessages: 1400, seed: 3 } as const;

let dir: string;
const stores = new Map<Layout, string>();

function open(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

function withDb<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = open(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function scalar(db: Database.Database, sql: string, ...params: unknown[]): number {
  return Number(
    db
      .prepare(sql)
      .pluck()
      .get(...params),
  );
}

function tableHash(db: Database.Database, sql: string): string {
  const h = createHash('sha256');
  for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) {
    h.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)));
    h.update('\n');
  }
  return h.digest('hex');
}

function contentHash(path: string): string {
  return withDb(path, (db) =>
    [
      tableHash(db, 'SELECT * FROM sessions ORDER BY id'),
      tableHash(db, 'SELECT * FROM messages ORDER BY id'),
      tableHash(db, 'SELECT * FROM sqlite_sequence'),
    ].join(':'),
  );
}

function build(name: string, opts: GenerateOptions): string {
  const path = join(dir, name);
  generateStore(path, opts);
  return path;
}

function store(layout: Layout): string {
  const path = stores.get(layout);
  if (!path) throw new Error(`no store for layout ${layout}`);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-demo-'));
  for (const layout of LAYOUTS) stores.set(layout, build(`v${layout}.db`, { layout, ...SMALL }));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('generateStore', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = build('det-a.db', { layout: 30, ...SMALL });
    const b = build('det-b.db', { layout: 30, ...SMALL });
    const c = build('det-c.db', { layout: 30, ...SMALL, seed: 4 });
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).toBe(contentHash(store(30)));
    expect(contentHash(c)).not.toBe(contentHash(a));
  });

  it.each(LAYOUTS)(
    'layout %i: version, journal mode and the exact schema of the reference store',
    (layout) => {
      const fixture = fixtureCopy(layout);
      const schemaOf = (path: string) =>
        withDb(path, (db) =>
          db
            .prepare(
              "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
            )
            .all(),
        );
      withDb(store(layout), (db) => {
        expect(scalar(db, 'SELECT version FROM schema_version')).toBe(layout);
        expect(scalar(db, 'SELECT count(*) FROM schema_version')).toBe(1);
        expect(db.pragma('journal_mode', { simple: true })).toBe(layout === 6 ? 'delete' : 'wal');
      });
      expect(schemaOf(store(layout))).toEqual(schemaOf(fixture));
    },
  );

  it.each(LAYOUTS)('layout %i: counters match the rows', (layout) => {
    withDb(store(layout), (db) => {
      const bad = db
        .prepare(
          `SELECT s.id FROM sessions s
            WHERE s.message_count <> (SELECT count(*) FROM messages m WHERE m.session_id = s.id)
               OR s.tool_call_count <> (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.role = 'tool')`,
        )
        .all();
      expect(bad).toEqual([]);
      expect(scalar(db, 'SELECT count(*) FROM messages')).toBeGreaterThan(
        SMALL.targetMessages * 0.8,
      );
      expect(scalar(db, "SELECT seq FROM sqlite_sequence WHERE name = 'messages'")).toBe(
        scalar(db, 'SELECT max(id) FROM messages'),
      );
      expect(db.pragma('foreign_key_check')).toEqual([]);
    });
  });

  it.each(LAYOUTS)('layout %i: full-text indexes are filled by the triggers', (layout) => {
    withDb(store(layout), (db) => {
      expect(
        scalar(db, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'migration'"),
      ).toBeGreaterThan(0);
      expect(
        scalar(db, `SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '"we decided to"'`),
      ).toBeGreaterThan(0);
      const hasTrigram =
        scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'messages_fts_trigram'") === 1;
      expect(hasTrigram).toBe(layout !== 6);
      if (hasTrigram) {
        expect(
          scalar(
            db,
            "SELECT count(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '数据迁移'",
          ),
        ).toBeGreaterThan(0);
        expect(
          scalar(
            db,
            "SELECT count(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '接続プール'",
          ),
        ).toBeGreaterThan(0);
      }
      // two-character CJK terms are only reachable by a substring scan
      expect(
        scalar(db, "SELECT count(*) FROM messages WHERE content LIKE '%迁移%'"),
      ).toBeGreaterThan(0);
    });
    const copy = join(dir, `fts-check-v${layout}.db`);
    copyFileSync(store(layout), copy);
    const rw = new Database(copy);
    try {
      for (const table of layout === 6
        ? ['messages_fts']
        : ['messages_fts', 'messages_fts_trigram']) {
        expect(() =>
          rw.exec(`INSERT INTO ${table}(${table}, rank) VALUES('integrity-check', 1)`),
        ).not.toThrow();
      }
    } finally {
      rw.close();
    }
  });

  it.each(LAYOUTS)('layout %i: compression chains of length 2 to 4 are well formed', (layout) => {
    withDb(store(layout), (db) => {
      const links = db
        .prepare(
          `SELECT c.id, c.started_at AS child_start, p.ended_at AS parent_end,
                  (SELECT role || '|' || substr(content, 1, 17) FROM messages m WHERE m.session_id = c.id ORDER BY id LIMIT 1) AS head
             FROM sessions c JOIN sessions p ON p.id = c.parent_session_id
            WHERE p.end_reason = 'compression' AND c.source <> 'subagent'`,
        )
        .all() as { id: string; child_start: number; parent_end: number; head: string }[];
      expect(links.length).toBeGreaterThan(0);
      for (const l of links) {
        expect(l.child_start - l.parent_end).toBeGreaterThanOrEqual(1);
        expect(l.head).toBe('user|[CONTEXT SUMMARY]');
      }
      const lengths = db
        .prepare(
          `WITH RECURSIVE chain(id, root, depth) AS (
             SELECT id, id, 1 FROM sessions WHERE parent_session_id IS NULL
             UNION ALL
             SELECT c.id, chain.root, chain.depth + 1 FROM sessions c
               JOIN chain ON c.parent_session_id = chain.id
               JOIN sessions p ON p.id = chain.id AND p.end_reason = 'compression'
              WHERE c.source <> 'subagent')
           SELECT DISTINCT max(depth) FROM chain GROUP BY root HAVING max(depth) > 1`,
        )
        .pluck()
        .all() as number[];
      expect(new Set(lengths)).toEqual(new Set([2, 3, 4]));
      expect(
        scalar(
          db,
          "SELECT count(*) FROM sessions WHERE end_reason = 'compression' AND ended_at IS NULL",
        ),
      ).toBe(0);
    });
  });

  it.each(LAYOUTS)('layout %i: branches, delegates, cron and (v30) reset children', (layout) => {
    withDb(store(layout), (db) => {
      const branch = db
        .prepare(
          "SELECT c.model_config, p.id, p.end_reason FROM sessions c JOIN sessions p ON p.id = c.parent_session_id WHERE c.model_config LIKE '%_branched_from%'",
        )
        .get() as Row;
      expect(JSON.parse(String(branch.model_config))).toEqual({ _branched_from: branch.id });
      expect(branch.end_reason).toBe('branched');
      const delegates = db
        .prepare(
          `SELECT c.model_config, p.id AS parent, c.started_at > p.started_at AND (p.ended_at IS NULL OR c.started_at < p.ended_at) AS during
             FROM sessions c JOIN sessions p ON p.id = c.parent_session_id WHERE c.source = 'subagent'`,
        )
        .all() as { model_config: string; parent: string; during: number }[];
      expect(delegates.length).toBeGreaterThan(0);
      for (const d of delegates) {
        expect(JSON.parse(d.model_config)).toEqual({ _delegate_from: d.parent });
        expect(d.during).toBe(1);
      }
      expect(scalar(db, "SELECT count(*) FROM sessions WHERE source = 'cron'")).toBeGreaterThan(0);
      const resets = scalar(
        db,
        "SELECT count(*) FROM sessions c JOIN sessions p ON p.id = c.parent_session_id WHERE p.end_reason = 'session_reset' AND c.model_config LIKE '%_reset_from%'",
      );
      if (layout === 30) expect(resets).toBeGreaterThan(0);
      else expect(resets).toBe(0);
    });
  });

  it.each(LAYOUTS)(
    'layout %i: rewound, archived and hidden rows where the layout has them',
    (layout) => {
      withDb(store(layout), (db) => {
        const cols = (t: string) =>
          new Set(
            db.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[],
          );
        if (layout >= 16) {
          expect(scalar(db, 'SELECT count(*) FROM messages WHERE active = 0')).toBeGreaterThan(0);
          expect(
            scalar(
              db,
              'SELECT count(*) FROM sessions s WHERE rewind_count > 0 AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.active = 0)',
            ),
          ).toBeGreaterThan(0);
          expect(scalar(db, 'SELECT count(*) FROM sessions WHERE archived = 1')).toBeGreaterThan(0);
          expect(
            scalar(db, "SELECT count(*) FROM sessions WHERE cwd LIKE '/home/dev/projects/%'"),
          ).toBeGreaterThan(0);
        } else {
          expect(cols('messages').has('active')).toBe(false);
          expect(cols('sessions').has('archived')).toBe(false);
        }
        if (layout === 30) {
          // In-place compaction: archived history, a summary, tail copies sharing display_order.
          expect(
            scalar(db, 'SELECT count(*) FROM messages WHERE active = 0 AND compacted = 1'),
          ).toBeGreaterThan(0);
          expect(
            scalar(
              db,
              `SELECT count(*) FROM messages c JOIN messages o ON o.session_id = c.session_id
                 AND o.display_order = c.display_order AND o.id < c.id
               WHERE c.active = 1 AND o.compacted = 1 AND o.content = c.content`,
            ),
          ).toBeGreaterThan(0);
          expect(
            scalar(
              db,
              "SELECT count(*) FROM messages WHERE active = 1 AND content LIKE '[CONTEXT COMPACTION%'",
            ),
          ).toBeGreaterThan(0);
          expect(scalar(db, 'SELECT count(*) FROM sessions WHERE hidden = 1')).toBeGreaterThan(0);
          expect(
            scalar(db, "SELECT count(*) FROM messages WHERE display_kind = 'hidden'"),
          ).toBeGreaterThan(0);
          expect(
            scalar(db, 'SELECT count(*) FROM messages WHERE display_order IS NOT NULL'),
          ).toBeGreaterThan(0);
          expect(
            scalar(
              db,
              'SELECT count(*) FROM sessions s LEFT JOIN system_prompts p ON p.hash = s.system_prompt_hash WHERE p.hash IS NULL',
            ),
          ).toBe(0);
          expect(
            scalar(
              db,
              'SELECT count(*) FROM sessions WHERE last_activity_at IS NULL OR last_activity_at < started_at',
            ),
          ).toBe(0);
        } else {
          expect(cols('messages').has('display_kind')).toBe(false);
        }
      });
    },
  );

  it.each(LAYOUTS)('layout %i: awkward content readers must survive', (layout) => {
    withDb(store(layout), (db) => {
      const multimodal = db
        .prepare("SELECT content FROM messages WHERE instr(content, 'json:') = 2")
        .pluck()
        .all() as string[];
      expect(multimodal.length).toBeGreaterThan(0);
      for (const c of multimodal) {
        expect(c.startsWith('\u0000json:')).toBe(true);
        const parts = JSON.parse(c.slice(6)) as { type: string }[];
        expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
      }
      expect(
        scalar(
          db,
          'SELECT count(*) FROM messages WHERE tool_calls IS NOT NULL AND NOT json_valid(tool_calls)',
        ),
      ).toBeGreaterThan(0);
      expect(scalar(db, 'SELECT count(*) FROM messages WHERE content IS NULL')).toBeGreaterThan(0);
      expect(
        scalar(
          db,
          "SELECT count(*) FROM messages WHERE role = 'assistant' AND content = '' AND tool_calls IS NOT NULL",
        ),
      ).toBeGreaterThan(0);
      expect(
        scalar(db, "SELECT max(length(content)) FROM messages WHERE role = 'tool'"),
      ).toBeGreaterThan(20_000);
      const regressions = scalar(
        db,
        `SELECT count(DISTINCT session_id) FROM (
           SELECT session_id, timestamp < lag(timestamp) OVER (PARTITION BY session_id ORDER BY id) AS back FROM messages)
         WHERE back`,
      );
      expect(regressions).toBeGreaterThanOrEqual(1);
      expect(regressions).toBeLessThanOrEqual(3);
      // hostile escape sequences are for tests to add, never in a default store
      expect(
        scalar(
          db,
          'SELECT count(*) FROM messages WHERE instr(content, char(27)) OR instr(tool_calls, char(27))',
        ),
      ).toBe(0);
      expect(scalar(db, 'SELECT count(*) FROM sessions WHERE instr(title, char(27))')).toBe(0);
    });
  });

  it.each(LAYOUTS)('layout %i: ids, titles, sources and the live tail', (layout) => {
    withDb(store(layout), (db) => {
      const sessions = db
        .prepare('SELECT id, started_at, ended_at, title, source FROM sessions')
        .all() as {
        id: string;
        started_at: number;
        ended_at: number | null;
        title: string | null;
        source: string;
      }[];
      for (const s of sessions) {
        expect(s.id).toMatch(/^\d{8}_\d{6}_[0-9a-f]{6}$/);
        const iso = new Date(Math.floor(s.started_at) * 1000).toISOString();
        expect(s.id.slice(0, 15)).toBe(iso.slice(0, 19).replace(/[-:]/g, '').replace('T', '_'));
        expect(s.started_at).toBeLessThanOrEqual(1795000000);
      }
      const titles = sessions.map((s) => s.title).filter((t): t is string => t !== null);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles.length / sessions.length).toBeGreaterThan(0.3);
      expect(new Set(sessions.map((s) => s.source))).toEqual(
        new Set([
          'cli',
          'tui',
          'telegram',
          'discord',
          'cron',
          'subagent',
          'tool',
          ...(layout === 30 ? ['kanban'] : []),
        ]),
      );
      const live = sessions.filter((s) => s.ended_at === null);
      expect(live.length).toBeGreaterThanOrEqual(1);
      expect(live.length).toBeLessThanOrEqual(2);
      const mostRecent = db
        .prepare('SELECT session_id FROM messages ORDER BY timestamp DESC LIMIT 1')
        .pluck()
        .get();
      expect(live.map((s) => s.id)).toContain(mostRecent);
      const lastMessage = scalar(db, 'SELECT max(timestamp) FROM messages');
      expect(lastMessage).toBeLessThanOrEqual(1795000000);
      expect(lastMessage).toBeGreaterThan(1795000000 - 600);
      const oldest = Math.min(...sessions.map((s) => s.started_at));
      expect(1795000000 - oldest).toBeGreaterThan(120 * 86400);
    });
  });

  it('builds long sessions on request', () => {
    const path = build('long.db', {
      layout: 16,
      sessions: 12,
      longSessions: 1,
      longSessionMessages: 600,
      seed: 9,
    });
    // checkpointed and closed: the main file alone is the whole store
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
    withDb(path, (db) => {
      expect(scalar(db, 'SELECT max(message_count) FROM sessions')).toBeGreaterThanOrEqual(600);
    });
  });

  it('withFts: false leaves out every FTS table, view and trigger', () => {
    const path = build('nofts.db', { layout: 30, sessions: 20, withFts: false, journal: 'delete' });
    withDb(path, (db) => {
      expect(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'messages_fts%'")).toBe(
        0,
      );
      expect(scalar(db, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'")).toBe(0);
      expect(scalar(db, 'SELECT count(*) FROM messages')).toBeGreaterThan(100);
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    });
  });

  it('refuses to overwrite an existing file', () => {
    const path = join(dir, 'existing.db');
    writeFileSync(path, 'not a database');
    expect(() => generateStore(path, { layout: 16, sessions: 5 })).toThrow(/refusing to overwrite/);
    expect(() => createEmptyStore(path, 6)).toThrow(/refusing to overwrite/);
    expect(readFileSync(path, 'utf8')).toBe('not a database');
    expect(() => generateStore(store(30), { layout: 30, sessions: 5 })).toThrow(
      /refusing to overwrite/,
    );
  });

  it('an empty request still yields a valid empty store', () => {
    const path = build('zero.db', { layout: 16, sessions: 0 });
    withDb(path, (db) => {
      expect(scalar(db, 'SELECT count(*) FROM sessions')).toBe(0);
      expect(scalar(db, 'SELECT version FROM schema_version')).toBe(16);
    });
  });
});

describe('createEmptyStore + insertSession/insertMessage', () => {
  it.each(LAYOUTS)('layout %i: writes edge-case rows through the real triggers', (layout) => {
    const path = join(dir, `empty-v${layout}.db`);
    createEmptyStore(path, layout);
    const db = new Database(path);
    try {
      expect(scalar(db, 'SELECT count(*) FROM sessions')).toBe(0);
      const a = insertSession(db, {
        id: 'cycle_a',
        started_at: 1790000000,
        title: 'A',
        archived: 1,
        last_activity_at: 1790000100,
      });
      const b = insertSession(db, { started_at: 1790000050, parent_session_id: a });
      expect(b).toMatch(/^20260921_\d{6}_[0-9a-f]{6}$/);
      db.prepare('UPDATE sessions SET parent_session_id = ? WHERE id = ?').run(b, a); // a cycle
      const hostile = 'pwned \u001b]0;evil\u0007 \u001b[2J needle-ünïcode';
      const id1 = insertMessage(db, {
        session_id: a,
        content: hostile,
        display_kind: 'hidden',
        active: 0,
      });
      const id2 = insertMessage(db, {
        session_id: a,
        role: 'tool',
        content: 'x'.repeat(100_000),
        tool_name: 'terminal',
        tool_call_id: 'call_1',
      });
      expect(id2).toBe(id1 + 1);
      const row = db.prepare('SELECT * FROM messages WHERE id = ?').get(id1) as Row;
      expect(row.content).toBe(hostile);
      expect(row.timestamp).toBe(1790000001);
      expect('display_kind' in row).toBe(layout === 30);
      const s = db
        .prepare('SELECT message_count, tool_call_count FROM sessions WHERE id = ?')
        .get(a) as Row;
      expect(s).toEqual({ message_count: 2, tool_call_count: 1 });
      expect(
        scalar(db, `SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '"needle"'`),
      ).toBe(1);
    } finally {
      db.close();
    }
  });

  it('creates a store without FTS when asked', () => {
    const path = join(dir, 'empty-nofts.db');
    createEmptyStore(path, 16, { withFts: false, journal: 'wal' });
    withDb(path, (db) => {
      expect(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'messages_fts%'")).toBe(
        0,
      );
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    });
  });
});
