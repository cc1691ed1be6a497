/**
 * Relaxed lexical recall (#22): the query form, and the leg itself over real
 * stores (a Hermes store built with its own schema and triggers, and the other
 * agents' index built from a real Claude Code transcript), through the JSON and
 * readable doors.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { relaxedRoute, stem, RELAXED_ALL, RELAXED_REST } from '../../src/store/relaxed.js';
import { routeQuery } from '../../src/store/query.js';
import { discover } from '../../src/store/search.js';
import { searchJson } from '../../src/store/recall.js';
import { Store } from '../../src/store/store.js';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';
import { searchAgentsJson } from '../../src/agents/recall.js';
import { buildStore } from '../helpers/stores.js';
import { lookback } from '../helpers/cli.js';
import { call, startServer } from '../mcp/client.js';

const fts = (q: string) => relaxedRoute(routeQuery(q, { fts: true, trigram: true }));

describe('the relaxed query', () => {
  it('drops filler words, stems the rest to prefixes, and ORs them', () => {
    expect(fts('where did we decide to put the job queue in postgres')).toEqual({
      kind: 'fts',
      match: '(("put" OR "puts") OR ("job" OR "jobs") OR "queue"* OR "postgr"*)',
    });
    // A three-letter word is no prefix (`app*` would match `apply`) but keeps its plural.
    expect(fts('big pdf crash')).toEqual({
      kind: 'fts',
      match: '(("big" OR "bigs") OR ("pdf" OR "pdfs") OR "crash"*)',
    });
    expect(stem('restarting')).toBe('restart');
    expect(stem('invoices')).toBe('invoic');
    expect(stem('class')).toBe('class');
  });

  it('keeps identifiers, quoted phrases and mixed-case words required and exact', () => {
    expect(fts('where is worker/queue_runner.py configured')).toEqual({
      kind: 'fts',
      match: '"queue_runner.py" AND ("work"* OR "configur"*)',
    });
    expect(fts('"connection pool" timeouts at night')).toEqual({
      kind: 'fts',
      match: '"connection pool" AND ("timeout"* OR "night"*)',
    });
    expect(fts('OOMKilled exporter pods')).toEqual({
      kind: 'fts',
      match: '"OOMKilled" AND ("export"* OR "pods"*)',
    });
  });

  it('leaves alone what it cannot loosen: one word, boolean logic, identifiers only', () => {
    expect(fts('redis')).toBeNull();
    expect(fts('webhook OR ledger')).toBeNull();
    expect(fts('alpha NOT beta')).toBeNull();
    expect(fts('queue_runner.py')).toBeNull();
  });

  it('turns a long CJK phrase into its trigrams, any of which may match', () => {
    expect(relaxedRoute({ kind: 'trigram', match: '"定时报表和备份"' })).toEqual({
      kind: 'trigram',
      match: '"定时报" OR "时报表" OR "报表和" OR "表和备" OR "和备份"',
    });
    expect(relaxedRoute({ kind: 'trigram', match: '"数据库"' })).toBeNull();
  });
});

function store(): string {
  return buildStore(30, (db) => {
    const a = insertSession(db, { id: 'queue', started_at: 1_790_000_000, title: 'jobs' });
    insertMessage(db, { session_id: a, content: 'Should the background jobs stay in Redis?' });
    insertMessage(db, {
      session_id: a,
      role: 'assistant',
      content: 'Use a Postgres table as the job queue, polled with SKIP LOCKED.',
    });
    const b = insertSession(db, { id: 'pool', started_at: 1_790_100_000 });
    insertMessage(db, { session_id: b, content: 'postgres connection pool exhausted at night' });
    const c = insertSession(db, { id: 'other', started_at: 1_790_200_000 });
    insertMessage(db, { session_id: c, content: 'the weather is fine today' });
    const d = insertSession(db, { id: 'prose', started_at: 1_790_300_000 });
    insertMessage(db, { session_id: d, content: 'Renewal of the invoices lapsed in March.' });
    // A turn that is only a tool call: the agent's index holds its JSON.
    const e = insertSession(db, { id: 'toolonly', started_at: 1_790_400_000 });
    insertMessage(db, {
      session_id: e,
      role: 'assistant',
      content: '',
      tool_calls: JSON.stringify([
        { function: { name: 'terminal', arguments: '{"command": "grep -r lapsed invoices"}' } },
      ]),
    });
  });
}

describe('relaxed hits over a Hermes store', () => {
  const path = store();

  it('follow the exact hits, marked, closest first, each with its own snippet', () => {
    const s = Store.open(path);
    try {
      const exact = discover(s, 'postgres queue', { limit: 5 });
      expect(exact.results.map((r) => [r.session_id, r.match ?? 'exact'])).toEqual([
        ['queue', 'exact'],
        ['pool', 'relaxed'],
      ]);
      expect(exact.relaxed).toEqual({ count: 1, message: RELAXED_REST });
      expect(exact.results[1]!.snippet).toBe('>>>postgres<<< connection pool exhausted at night');
      const loose = discover(s, 'where did we put the queue in postgres', { limit: 5 });
      expect(loose.results.map((r) => r.session_id)).toEqual(['queue', 'pool']);
      expect(loose.results.every((r) => r.match === 'relaxed')).toBe(true);
      expect(loose.relaxed?.message).toBe(RELAXED_ALL);
      // Off, the answer is the agent's exact one.
      expect(
        discover(s, 'where did we put the queue in postgres', { relaxed: false }).results,
      ).toEqual([]);
      // The relaxed leg ranks what was said, not a tool call's JSON; the exact search still finds it.
      const said = discover(s, 'which invoices lapsed last spring', { limit: 5 });
      expect(said.results.map((r) => [r.session_id, r.match])).toEqual([['prose', 'relaxed']]);
      const both = discover(s, 'lapsed invoices', { limit: 5 }).results;
      expect(both.map((r) => r.session_id).sort()).toEqual(['prose', 'toolonly']);
      expect(both.every((r) => r.match === undefined)).toBe(true);
      // An identifier nobody wrote finds nothing, relaxed or not.
      expect(discover(s, 'where is queue_runner.py for postgres').results).toEqual([]);
    } finally {
      s.close();
    }
  });

  it("keep the agent's JSON shape for exact hits and add match/relaxed_count/message", () => {
    const s = Store.open(path);
    try {
      const only = searchJson(s, 'SKIP LOCKED', { limit: 5 });
      expect(only.count).toBe(1);
      expect(Object.keys(only)).not.toContain('relaxed_count');
      expect(Object.keys((only.results as Record<string, unknown>[])[0]!)).not.toContain('match');
      const both = searchJson(s, 'postgres queue', { limit: 5 });
      const rows = both.results as Record<string, unknown>[];
      expect(rows.map((r) => r.match ?? null)).toEqual([null, 'relaxed']);
      expect(both.relaxed_count).toBe(1);
      expect(both.message).toBe(RELAXED_REST);
    } finally {
      s.close();
    }
  });

  it('are listed under a separator line by `lookback search`', () => {
    const out = lookback(['search', 'postgres queue', '--db', path, '--detail', 'compact']);
    expect(out.code).toBe(0);
    const lines = out.stdout.split('\n');
    const sep = lines.indexOf(`── ${RELAXED_REST} ──`);
    expect(sep).toBeGreaterThan(0);
    expect(lines.slice(0, sep).join('\n')).toContain('SKIP LOCKED');
    expect(lines.slice(sep).join('\n')).toContain('connection pool exhausted');
  });
});

describe('relaxed hits through MCP', () => {
  it('come marked from a real `lookback mcp` server', async () => {
    const server = await startServer(['--db', store()]);
    try {
      const r = await call(server, { query: 'where did we put the queue in postgres', limit: 5 });
      expect(r.isError).toBe(false);
      const rows = r.json.results as Record<string, unknown>[];
      expect(rows.map((x) => [x.session_id, x.match])).toEqual([
        ['queue', 'relaxed'],
        ['pool', 'relaxed'],
      ]);
      expect(r.json.message).toBe(RELAXED_ALL);
      expect(r.json.relaxed_count).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe("relaxed hits over the other agents' index", () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookback-relaxed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('follow the exact ones, marked, in the same JSON', () => {
    const home = join(dir, 'home');
    const proj = join(home, '.claude', 'projects', '-home-dev-app');
    mkdirSync(proj, { recursive: true });
    const write = (id: string, text: string, day: number) =>
      writeFileSync(
        join(proj, `${id}.jsonl`),
        JSON.stringify({
          type: 'user',
          uuid: `${id}-0`,
          sessionId: id,
          cwd: '/home/dev/app',
          timestamp: new Date(Date.UTC(2026, 7, day)).toISOString(),
          message: { role: 'user', content: text },
        }) + '\n',
      );
    write('00000000-0000-4000-8000-000000000001', 'move the job queue into postgres', 1);
    write('00000000-0000-4000-8000-000000000002', 'postgres vacuum settings', 2);
    const file = join(dir, 'agents.db');
    const { db } = openIndex(file);
    try {
      indexAll(db, { env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' } });
      const out = searchAgentsJson(db, 'postgres queue', AGENTS, { limit: 5, all: false });
      const rows = out.results as Record<string, unknown>[];
      expect(rows.map((r) => [r.session_id, r.match ?? 'exact'])).toEqual([
        ['00000000-0000-4000-8000-000000000001', 'exact'],
        ['00000000-0000-4000-8000-000000000002', 'relaxed'],
      ]);
      expect(rows[1]!.snippet).toBe('>>>postgres<<< vacuum settings');
      expect(out.relaxed_count).toBe(1);
      expect(out.message).toBe(RELAXED_REST);
    } finally {
      db.close();
    }
  });
});
