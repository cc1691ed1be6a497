/**
 * Search by meaning over the other agents' histories (issue 22): Claude Code
 * and Gemini CLI files in their real formats, read into lookback's index,
 * embedded into vectors.db under the index's own namespace by a model2vec
 * folder the test writes (and an Ollama-shaped embedder on loopback that
 * counts what it is sent). The command line and the MCP server give the same
 * answer; every hit's reasons are true to the message it names; what was
 * taken back is out unless asked for; a second search embeds nothing, a grown
 * file only its new message; the agents' files are unchanged.
 */
import Database from 'better-sqlite3';
import { appendFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { startEmbedding } from '../../src/app/worker/embedding.js';
import { agentsUnits } from '../../src/ids/units.js';
import { openStore } from '../../src/lib.js';
import { openEmbedder } from '../../src/semantic/spec.js';
import { canonical } from '../../src/semantic/vectors.js';
import { hashTree } from '../agents/samples.js';
import { lookback, lookbackAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { call, startServer, type Server } from '../mcp/client.js';
import { writeTinyModel } from './tinyModel.js';
import { EXACT, PROJ, SEM, claudeLines, writeHome } from './agentHome.js';

type Obj = Record<string, unknown>;

let dir: string;
let home: string;
let env: Record<string, string>;
let model: string;
let server: Server;
let before: Record<string, string>;

beforeAll(async () => {
  dir = tempDir();
  home = join(dir, 'home');
  writeHome(home);
  model = `model2vec:${writeTinyModel(join(dir, 'model'))}`;
  env = {
    HOME: home,
    HERMES_HOME: '',
    LOOKBACK_INDEX: join(dir, 'index', 'agents.db'),
    LOOKBACK_VECTORS_DB: join(dir, 'cache', 'vectors.db'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    XDG_DATA_HOME: '',
    XDG_CONFIG_HOME: '',
    LOOKBACK_EMBEDDER: model,
  };
  before = files();
  server = await startServer([], env);
});

afterAll(async () => {
  await server?.close();
});

/** Every file of every source (SQLite's -wal/-shm companions of the Hermes store aside). */
function files(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(hashTree(home)).filter(([k]) => !/state\.db-(wal|shm)$/.test(k)),
  );
}

const cli = (args: string[], more: Record<string, string> = {}) =>
  lookback([...args, '--json'], { ...env, ...more });

/** The message a hit names, read from the index: its text by conversation and anchor. */
function messageText(hit: Obj): string {
  const db = new Database(env.LOOKBACK_INDEX!, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conv_id
         WHERE c.agent = ? AND c.native_id = ? AND m.anchor = ?`,
      )
      .pluck()
      .get(hit.agent, hit.session_id, hit.match_message_id) as string;
  } finally {
    db.close();
  }
}

/** The index's user and assistant messages with text (what is embedded; a copy never is). */
function indexed(): number {
  const db = new Database(env.LOOKBACK_INDEX!, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT count(*) FROM messages WHERE role IN ('user', 'assistant') AND text <> '' AND flags & 32 = 0`,
      )
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

describe('search by meaning over the other agents', () => {
  it('semantic: the conversation without the words, its reasons true; CLI and MCP alike', async () => {
    const c = cli(['search', '证书', '--agent', 'claude', '--mode', 'semantic']);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    const a = c.json();
    expect(a).toMatchObject({
      mode_requested: 'semantic',
      mode_realized: 'semantic',
      embedder: model,
    });
    // Every user and assistant message of the index is embedded (the search had the time).
    expect(a.embedded).toEqual({ messages: indexed(), of: indexed() });
    const results = a.results as Obj[];
    expect(results[0]).toMatchObject({ agent: 'claude', session_id: SEM, match: 'semantic' });
    expect(results.every((r) => r.agent === 'claude')).toBe(true);
    // Each hit's snippet is the head of the message it names; its cosine is that message's.
    const e = await openEmbedder(model);
    const [qv] = await e.embed(['证书'], 'query');
    for (const r of results) {
      const text = messageText(r);
      expect(r.snippet).toBe(text.replace(/\s+/g, ' ').slice(0, 200));
      const [mv] = await e.embed([canonical(text)], 'doc');
      const parts = r.score_parts as Obj;
      expect(Math.abs(Number(parts.cosine) - cosine(qv!, mv!))).toBeLessThan(0.02);
      expect(parts.lexical_rank).toBeNull();
    }
    const ranks = results.map((r) => (r.score_parts as Obj).semantic_rank);
    expect(ranks).toEqual(results.map((_, i) => i + 1));
    const m = await call(server, { query: '证书', agent: 'claude', mode: 'semantic' });
    expect(m.isError).toBeFalsy();
    expect(m.json).toEqual(a);
  });

  it('hybrid: the exact hit first as it is, then the one found by meaning; CLI and MCP alike', async () => {
    const c = cli(['search', '证书', '--agent', 'claude', '--mode', 'hybrid', '--limit', '3']);
    expect(c.code, c.stderr).toBe(0);
    const a = c.json();
    const results = a.results as Obj[];
    expect(results[0]).toMatchObject({ session_id: EXACT, match_message_id: `${EXACT}-0` });
    expect(results[0]!.match).toBeUndefined();
    expect(String(results[0]!.snippet)).toContain('证书');
    expect((results[0]!.score_parts as Obj).lexical_rank).toBe(1);
    const sem = results.find((r) => r.session_id === SEM)!;
    expect(sem.match).toBe('semantic');
    expect((sem.score_parts as Obj).lexical_rank).toBeNull();
    expect(typeof (sem.score_parts as Obj).cosine).toBe('number');
    expect(sem.snippet).toBe(messageText(sem).slice(0, 200));
    const m = await call(server, { query: '证书', agent: 'claude', mode: 'hybrid', limit: 3 });
    expect(m.json).toEqual(a);
    // The library's door: the same answer.
    const lb = openStore({ agent: 'claude' }, { env: { ...process.env, ...env } });
    try {
      expect(
        await lb.searchByMeaning('证书', { mode: 'hybrid', embedder: model, limit: 3 }),
      ).toEqual(a);
    } finally {
      lb.close();
    }
  });

  it('what was taken back is out unless asked for (--all)', () => {
    const plain = cli(['search', '证书', '--agent', 'gemini', '--mode', 'semantic']);
    expect(plain.code, plain.stderr).toBe(0);
    const hits = plain.json().results as Obj[];
    expect(hits.some((r) => r.match_message_id === 'g3')).toBe(false);
    expect(hits.every((r) => r.taken_back === undefined)).toBe(true);
    const all = cli(['search', '证书', '--agent', 'gemini', '--mode', 'semantic', '--all']);
    expect(all.code, all.stderr).toBe(0);
    const first = (all.json().results as Obj[])[0]!;
    expect(first).toMatchObject({ match_message_id: 'g3', taken_back: true, match: 'semantic' });
  });

  it('every source at once, and the filters the vector leg cannot apply: one line each, alike', async () => {
    const c = lookback(['search', 'job', '--agent', 'all', '--mode', 'semantic'], env);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/^lookback: --mode semantic searches one source: [^\n]*history\n/);
    const lb = openStore({}, { env: { ...process.env, ...env } });
    try {
      await expect(
        lb.searchByMeaning('job', { mode: 'semantic', embedder: model }),
      ).rejects.toThrow(/^mode semantic searches one source: /);
    } finally {
      lb.close();
    }
    const m = await call(server, { query: 'job', agent: 'all', mode: 'semantic' });
    expect(m.isError).toBe(true);
    expect(String(m.json.error)).toMatch(/^mode "semantic" searches one source: /);
    const f = lookback(
      ['search', 'job', '--agent', 'claude', '--mode', 'hybrid', '--after', '7d'],
      env,
    );
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(
      /^lookback: --mode hybrid does not take --after yet \(the vector leg cannot apply it\); refused\n/,
    );
    const g = await call(server, { query: 'job', agent: 'claude', mode: 'hybrid', after: '7d' });
    expect(g.isError).toBe(true);
    expect(g.json.error).toBe(
      'mode "hybrid" does not take after yet (the vector leg cannot apply it); refused',
    );
  });

  it('no Hermes store: the other agents are the one source, at both doors alike', async () => {
    const none = { HERMES_HOME: join(dir, 'no-hermes') };
    const c = cli(['search', '证书', '--mode', 'semantic', '--limit', '5'], none);
    expect(c.code, c.stderr).toBe(0);
    const a = c.json();
    expect((a.results as Obj[])[0]).toMatchObject({ agent: 'claude', session_id: SEM });
    // Every other agent's history: Gemini's too.
    expect(new Set((a.results as Obj[]).map((r) => r.agent))).toEqual(
      new Set(['claude', 'gemini']),
    );
    const s = await startServer([], { ...env, ...none });
    try {
      const m = await call(s, { query: '证书', mode: 'semantic', limit: 5 });
      expect(m.json).toEqual(a);
    } finally {
      await s.close();
    }
  });

  it('the agents files are byte for byte as they were', () => {
    expect(files()).toEqual(before);
  });
});

describe('embedding the agents index: incremental, by content', () => {
  let http: HttpServer;
  let base: string;
  const seen: string[][] = [];

  beforeAll(async () => {
    // An Ollama-shaped embedder on loopback: a vector per text from its letters, and a log.
    http = createServer((req, res) => {
      let raw = '';
      req.on('data', (b: Buffer) => (raw += b.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as { input: string[] };
        seen.push(body.input);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            embeddings: body.input.map((t) =>
              Array.from(
                { length: 8 },
                (_, j) => ((t.charCodeAt(j % t.length) * (j + 3)) % 13) + 1,
              ),
            ),
          }),
        );
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  });

  const search = (vectors: string, index: string) =>
    lookbackAsync(['search', '证书', '--agent', 'claude', '--mode', 'semantic', '--json'], {
      ...env,
      LOOKBACK_EMBEDDER: `ollama:tiny@${base}`,
      LOOKBACK_VECTORS_DB: vectors,
      LOOKBACK_INDEX: index,
    });
  const docs = () => seen.flat().filter((t) => t !== '证书');

  it('a second search embeds nothing; a grown file embeds only its new message', async () => {
    const fresh = tempDir();
    const vectors = join(fresh, 'vectors.db');
    const index = join(fresh, 'agents.db');
    const first = await search(vectors, index);
    expect(first.code, first.stderr).toBe(0);
    const all = docs();
    expect(all).toHaveLength(6);
    expect(new Set(all).size).toBe(6);
    seen.length = 0;
    const second = await search(vectors, index);
    expect(second.code, second.stderr).toBe(0);
    expect(docs()).toEqual([]);
    expect(second.json().results).toEqual(first.json().results);
    // The agent writes one more turn.
    appendFileSync(
      join(home, ...PROJ, `${EXACT}.jsonl`),
      claudeLines(EXACT, [['user', 'and the dead letter jobs?']], 2).join('\n') + '\n',
    );
    seen.length = 0;
    const third = await search(vectors, index);
    expect(third.code, third.stderr).toBe(0);
    expect(docs()).toEqual(['and the dead letter jobs?']);
    expect(third.json().embedded).toEqual({ messages: 7, of: 7 });
    // Units live in the index's own namespace of vectors.db, one per message.
    const v = new Database(vectors, { readonly: true });
    const units = v
      .prepare(`SELECT count(*) FROM units WHERE store = ?`)
      .pluck()
      .get(agentsUnits(index));
    v.close();
    expect(units).toBe(7);
  });
});

describe("the app's embed worker", () => {
  it("embeds the Hermes store, then the agents' index, each message once, and says so", async () => {
    const fresh = tempDir();
    const index = join(fresh, 'agents.db');
    const vectors = join(fresh, 'vectors.db');
    // The index as the app's indexer leaves it (the worker only reads it).
    const { db } = openIndex(index);
    indexAll(db, { env: { ...process.env, HOME: home } });
    db.close();
    const store = join(home, '.hermes', 'state.db');
    const hermes = new Database(store, { readonly: true });
    const hermesMessages = hermes
      .prepare(
        `SELECT count(*) FROM messages WHERE role IN ('user', 'assistant') AND content IS NOT NULL AND content <> ''`,
      )
      .pluck()
      .get() as number;
    hermes.close();
    const agentsMessages = new Database(index, { readonly: true });
    const want = agentsMessages
      .prepare(
        `SELECT count(*) FROM messages WHERE role IN ('user', 'assistant') AND text <> '' AND flags & 32 = 0`,
      )
      .pluck()
      .get() as number;
    agentsMessages.close();
    const seen: { done: number; total: number }[] = [];
    const errors: string[] = [];
    const run = startEmbedding(
      join(import.meta.dirname, '../../dist/embed-worker.js'),
      { path: store, profile: 'default', embedder: model, vectors, index, recheckMs: 200 },
      { onProgress: (p) => seen.push(p), onError: (m) => errors.push(m) },
    );
    const t0 = Date.now();
    while (!seen.some((p) => p.total > hermesMessages && p.done === p.total)) {
      if (Date.now() - t0 > 20_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await run.stop();
    expect(errors).toEqual([]);
    expect(seen.at(-1)).toMatchObject({
      done: hermesMessages + want,
      total: hermesMessages + want,
    });
    const v = new Database(vectors, { readonly: true });
    const units = v
      .prepare(`SELECT count(*) FROM units WHERE store = ?`)
      .pluck()
      .get(agentsUnits(index));
    v.close();
    expect(units).toBe(want);
  });
});
