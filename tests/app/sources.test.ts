/**
 * Issue #17, the app's data layer over every source: a Hermes store (the real
 * v30 and v6 fixtures) and lookback's index of the other agents' sample
 * histories in their own formats (tests/agents/samples.ts), read through the
 * app's query worker protocol (answerQuery, inline). For each filter and each
 * source: applied, or the source refused in one line that names it (the CLI's
 * wording, src/recall/answer.ts admitFilters); pinned first with every source;
 * true counts summed over sources; a merged list that was cut is not complete.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitAgentSession } from '../../src/ids/app.js';
import { AgentSource } from '../../src/app/data/agentSource.js';
import type { ProfileRef } from '../../src/app/data/everyProfile.js';
import type { AppFilters } from '../../src/app/data/filters.js';
import { resolveLine } from '../../src/app/data/filters.js';
import { answerQuery, type QueryRequest, type QueryResponse } from '../../src/app/data/queries.js';
import { loadRecent } from '../../src/app/data/rows.js';
import type { SessionRow } from '../../src/app/model.js';
import { countConversations } from '../../src/store/search.js';
import { Store } from '../../src/store/store.js';
import { indexSamples } from '../agents/samples.js';
import { FIXTURE_DIR, tempDir } from '../helpers/fixtures.js';
import { storeWithAgents } from './withAgents.js';

let dir: string;
let indexFile: string;
let store: Store;
let agents: AgentSource;
let close: (() => void) | undefined;

beforeAll(() => {
  dir = tempDir();
  indexFile = join(dir, 'index', 'agents.db');
  indexSamples(join(dir, 'home'), indexFile);
  ({ store, agents, close } = storeWithAgents(dir, indexFile));
});

afterAll(() => close?.());

function ask(req: QueryRequest, s = store, openRef?: (r: ProfileRef) => Store): QueryResponse[] {
  const out: QueryResponse[] = [];
  answerQuery(s, req, (r) => out.push(r), agents, openRef ?? null);
  return out;
}

function recent(filters?: AppFilters, limit = 500, s = store) {
  const r = ask(
    { kind: 'recent', generation: 1, all: false, limit, ...(filters ? { filters } : {}) },
    s,
  );
  const err = r.find((x) => x.kind === 'error');
  if (err && err.kind === 'error') throw new Error(err.message);
  const got = r.find((x) => x.kind === 'recent');
  if (!got || got.kind !== 'recent') throw new Error('no recent answer');
  return got;
}

/** The index, read directly (the oracle for the other agents' side). */
function indexIds(where: string, ...args: unknown[]): string[] {
  const db = new Database(indexFile, { readonly: true });
  try {
    return (
      db
        .prepare(
          `SELECT agent || ':' || native_id FROM conversations WHERE message_count > 0
           AND ifnull(parent_kind, '') <> 'subagent' AND ${where}`,
        )
        .pluck()
        .all(...args) as string[]
    ).sort();
  } finally {
    db.close();
  }
}

const agentRows = (rows: SessionRow[]) =>
  rows
    .filter((r) => r.agent !== undefined && r.agent !== 'hermes')
    .map((r) => r.sessionId)
    .sort();
const hermesRows = (rows: SessionRow[]) =>
  rows
    .filter((r) => r.agent === 'hermes')
    .map((r) => r.sessionId)
    .sort();

const PRAISONAI_NO_FOLDER =
  'cwd: praisonai records no working folder; its conversations are left out';

/** The search line as the app reads it (chips to filters). */
const line = (text: string) =>
  resolveLine(text, {
    now: Date.parse('2026-11-26T12:00:00Z'),
    home: '/home/ana',
    profile: 'default',
  });

describe('each filter chip, each source: applied by both, the same rule as the CLI', () => {
  const cases: [string, string, unknown[]][] = [
    ['model:sonnet', `instr(lower(ifnull(model, '')), 'sonnet') > 0`, []],
    ['model:opus', `instr(lower(ifnull(model, '')), 'opus') > 0`, []],
    ['cwd:~/web', `cwd LIKE '/home/ana/web%'`, []],
    ['source:cli', `ifnull(source, agent) = 'cli'`, []],
    ['after:2026-08-20', `started_at >= ?`, [Date.parse('2026-08-20T00:00:00Z')]],
    ['before:2026-08-20', `started_at < ?`, [Date.parse('2026-08-20T00:00:00Z')]],
  ];
  for (const [chip, where, args] of cases)
    it(`${chip}: the other agents' rows are filtered in the index, Hermes' in the store`, () => {
      const l = line(chip);
      expect(l.error).toBeNull();
      const got = recent(l.store);
      // PraisonAI records no folder: under cwd: its conversations are left out, said in one line.
      expect(got.refused ?? []).toEqual(chip.startsWith('cwd:') ? [PRAISONAI_NO_FOLDER] : []);
      // Other agents: exactly the index's conversations that match.
      expect(agentRows(got.rows)).toEqual(indexIds(where, ...args).map((x) => x));
      // Hermes: exactly the store's own answer to the same filter.
      const own = loadRecent(store, 500, false, l.store)
        .rows.map((r) => r.sessionId)
        .sort();
      expect(hermesRows(got.rows)).toEqual(own);
    });

  it('model:opus finds the conversation run on claude-opus (opencode) and no sonnet one', () => {
    const got = recent(line('model:opus').store);
    expect(agentRows(got.rows)).toEqual(['opencode:ses_8Zq001']);
  });

  it('model:sonnet finds the Claude session run on claude-sonnet beside Hermes sessions on sonnet', () => {
    const got = recent(line('model:sonnet').store);
    expect(agentRows(got.rows)).toContain('claude:5f0c1111-2222-4333-8444-555566667777');
    expect(hermesRows(got.rows).length).toBeGreaterThan(0);
  });

  it('agent:claude lists Claude alone; agent:hermes Hermes alone; agent:nobody is one line', () => {
    const c = line('agent:claude');
    expect(c.error).toBeNull();
    const claude = recent(c.store).rows;
    expect(claude.length).toBeGreaterThan(0);
    expect(claude.every((r) => r.agent === 'claude')).toBe(true);
    const h = recent(line('agent:hermes').store).rows;
    expect(h.length).toBe(loadRecent(store, 500, false).rows.length);
    expect(h.every((r) => r.agent === 'hermes')).toBe(true);
    expect(line('agent:nobody').error).toMatch(/^agent:nobody: no such agent/);
  });

  it('a full-text search applies the chips to the other agents too', () => {
    const l = line('model:sonnet idempotency');
    const r = ask({
      kind: 'search',
      generation: 1,
      query: l.text,
      sort: 'relevance',
      roles: [],
      limit: 50,
      filters: l.store,
    });
    const found = r.find((x) => x.kind === 'search');
    expect(found?.kind).toBe('search');
    const items = found!.kind === 'search' ? found!.items : [];
    expect(items.map((i) => i.sessionId)).toContain('claude:5f0c1111-2222-4333-8444-555566667777');
    // codex's idempotency talk ran on gpt-5-codex: filtered out, not listed unfiltered.
    expect(items.some((i) => i.agent === 'codex')).toBe(false);
  });

  it('cwd: on a store without a folder column: that store refused by name in one line, the agents answer', () => {
    const old = join(dir, 'old.db');
    copyFileSync(join(FIXTURE_DIR, 'hermes-v6.db'), old);
    const v6 = Store.open(old, { profile: 'default' });
    try {
      const got = recent(line('cwd:~/shop').store, 500, v6);
      expect(got.refused).toHaveLength(2);
      expect(got.refused![0]).toMatch(
        /^cwd: Hermes profile default records no working folder \(.*\); refused$/,
      );
      expect(got.refused![1]).toBe(PRAISONAI_NO_FOLDER);
      expect(agentRows(got.rows)).toEqual(indexIds(`cwd LIKE '/home/ana/shop%'`));
      expect(hermesRows(got.rows)).toEqual([]);
      // Alone (agent:hermes), nothing is left to answer: the same line is the error.
      expect(() => recent(line('agent:hermes cwd:~/shop').store, 500, v6)).toThrow(
        /^cwd: Hermes profile default records no working folder/,
      );
    } finally {
      v6.close();
    }
  });
});

describe('the merged lists', () => {
  it('pinned conversations first with every source present', () => {
    const path = join(dir, 'pinned.db');
    copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), path);
    const w = new Database(path);
    const oldest = w
      .prepare(
        `SELECT id FROM sessions WHERE parent_session_id IS NULL ORDER BY started_at LIMIT 1`,
      )
      .pluck()
      .get() as string;
    w.prepare(`UPDATE sessions SET pinned = 1 WHERE id = ?`).run(oldest);
    w.close();
    const s = Store.open(path, { profile: 'default' });
    try {
      const rows = recent(undefined, 500, s).rows;
      expect(rows.some((r) => r.agent === 'claude')).toBe(true);
      expect(rows[0]!.pinned).toBe(true);
      expect(rows[0]!.rootId).toBe(oldest);
      // The rest newest activity first, whoever holds them.
      const rest = rows.slice(1).map((r) => r.lastActive);
      expect(rest).toEqual([...rest].sort((a, b) => b - a));
    } finally {
      s.close();
    }
  });

  it('a list cut by the merge is not complete; one that holds everything is', () => {
    const all = recent(undefined, 5_000);
    expect(all.complete).toBe(true);
    const n = all.rows.length;
    // Each source alone fits in n-1 rows, together they do not: the list says it is cut.
    const cut = recent(undefined, n - 1);
    expect(cut.rows.length).toBe(n - 1);
    expect(cut.complete).toBe(false);
    expect(cut.rows.map((r) => r.sessionId)).toEqual(
      all.rows.slice(0, n - 1).map((r) => r.sessionId),
    );
  });

  it('the every-profile view: another profile listed too, and a cut list says so', () => {
    const workPath = join(dir, 'work.db');
    copyFileSync(join(FIXTURE_DIR, 'hermes-v30.db'), workPath);
    const work = Store.open(workPath, { profile: 'work' });
    try {
      const ref: ProfileRef = { name: 'work', path: workPath, slot: 1 };
      const run = (limit: number) => {
        const r = ask(
          { kind: 'recent', generation: 1, all: false, limit, profiles: [ref] },
          store,
          () => work,
        ).find((x) => x.kind === 'recent');
        return r!.kind === 'recent' ? r! : null;
      };
      const whole = run(5_000)!;
      const own = loadRecent(store, 5_000, false).rows.length;
      expect(whole.rows.filter((r) => r.profile === 'work').length).toBe(own);
      expect(whole.complete).toBe(true);
      // Each store alone fits in own+1 rows; together they do not: the merged list is cut.
      const part = run(own + 1)!;
      expect(part.rows.length).toBe(own + 1);
      expect(part.complete).toBe(false);
    } finally {
      work.close();
    }
  });

  it('the count of a search is summed over every source ("N of M")', () => {
    const q = 'payment OR idempotency OR deploy OR wireguard OR limiter';
    const r = ask({
      kind: 'search',
      generation: 1,
      query: q,
      sort: 'relevance',
      roles: [],
      limit: 2,
      count: true,
    });
    const count = r.find((x) => x.kind === 'count');
    expect(count?.kind).toBe('count');
    const hermes = countConversations(store, q, { roles: [] })!.count;
    const db = new Database(indexFile, { readonly: true });
    const index = db
      .prepare(
        `SELECT count(DISTINCT m.conv_id) FROM messages_fts f JOIN messages m ON m.id = f.rowid
         WHERE messages_fts MATCH ? AND m.role IN ('user', 'assistant') AND m.flags & 0 = 0`,
      )
      .pluck()
      .get(q) as number;
    db.close();
    expect(index).toBeGreaterThan(0);
    expect(count!.kind === 'count' && count!.total).toBeGreaterThanOrEqual(hermes + 1);
    expect(count!.kind === 'count' && count!.total).toBeLessThanOrEqual(hermes + index);
  });
});

it('agent ids in rows are the index conversations the app opens', () => {
  const rows = recent().rows.filter((r) => r.agent !== 'hermes');
  for (const r of rows) expect(splitAgentSession(r.sessionId)?.agent).toBe(r.agent);
});
