/**
 * session_search's `mode` argument over the built server and the SDK client:
 * the same answer as `lookback search --mode … --json` for the same question
 * (one core answers both doors), refused in one line without a model, with a
 * filter the vector leg cannot apply, or over the other agents' index.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { writeTinyModel } from '../semantic/tinyModel.js';
import { call, startServer, type Server } from './client.js';

let db: string;
let needle: string;
let spec: string;
let env: Record<string, string>;
let withModel: Server;
let without: Server;

beforeAll(async () => {
  const dir = tempDir();
  db = join(dir, 'state.db');
  generateStore(db, { layout: 30, sessions: 20, seed: 5 });
  const w = new Database(db);
  needle = insertSession(w, { source: 'cli', title: 'pets' });
  insertMessage(w, { session_id: needle, role: 'user', content: 'cat dog cat dog' });
  insertMessage(w, { session_id: needle, role: 'assistant', content: 'dog cat' });
  w.close();
  spec = `model2vec:${writeTinyModel(join(dir, 'model'))}`;
  env = { LOOKBACK_VECTORS_DB: join(dir, 'cache', 'vectors.db') };
  withModel = await startServer(['--db', db, '--embedder', spec], env);
  without = await startServer(['--db', db], { ...env, LOOKBACK_EMBEDDER: '' });
});

afterAll(async () => {
  await withModel?.close();
  await without?.close();
});

const cli = (args: string[]) => {
  const r = lookback(['search', ...args, '--db', db, '--embedder', spec, '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
};

describe('session_search mode', () => {
  it('semantic and hybrid: the answer of lookback search --mode --json, with why each hit matched', async () => {
    for (const [mode, query] of [
      ['semantic', 'Dog cat'],
      ['hybrid', 'cat dog'],
      ['hybrid', 'queue postgres'],
    ] as const) {
      const m = await call(withModel, { query, mode, limit: 5 });
      expect(m.isError, m.text).toBe(false);
      const c = cli([query, '--mode', mode, '--limit', '5']);
      expect(m.json).toEqual(c);
      expect(m.structured).toEqual(c);
      expect(m.json).toMatchObject({ mode_requested: mode, mode_realized: mode, embedder: spec });
    }
    const sem = await call(withModel, { query: 'Dog cat', mode: 'semantic', limit: 3 });
    const first = (sem.json.results as Record<string, unknown>[])[0]!;
    expect(first).toMatchObject({
      session_id: needle,
      match: 'semantic',
      snippet: 'cat dog cat dog',
    });
    expect(first.score_parts).toMatchObject({
      lexical_rank: null,
      semantic_rank: 1,
      quality: 'strong',
    });
    // lexical (and no mode) stay the plain search, with or without a model.
    const lex = await call(withModel, { query: 'cat dog', mode: 'lexical' });
    const plain = await call(without, { query: 'cat dog' });
    expect(lex.json).toEqual(plain.json);
    expect(lex.json.mode_realized).toBeUndefined();
  });

  it('refused in one line: no model, a filter the vector leg cannot apply, no query', async () => {
    const cases: [Server, Record<string, unknown>, string][] = [
      [
        without,
        { query: 'cat', mode: 'semantic' },
        'mode "semantic" needs an embedding model: start lookback mcp with --embedder SPEC (or LOOKBACK_EMBEDDER=SPEC), SPEC one of model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or openai:MODEL@BASE_URL; mode "lexical" needs none',
      ],
      [
        without,
        { query: 'cat', mode: 'hybrid' },
        'mode "hybrid" needs an embedding model: start lookback mcp with --embedder SPEC (or LOOKBACK_EMBEDDER=SPEC), SPEC one of model2vec:DIR, onnx:DIR, ollama:MODEL[@URL] or openai:MODEL@BASE_URL; mode "lexical" needs none',
      ],
      [
        withModel,
        { query: 'cat', mode: 'hybrid', after: '7d', role_filter: 'user' },
        'mode "hybrid" does not take after, role_filter yet (the vector leg cannot apply them); refused',
      ],
      [
        withModel,
        { mode: 'semantic' },
        'mode "semantic" is for the discover shape: pass query (and no session_id)',
      ],
      [
        withModel,
        { query: 'cat', mode: 'semantic', agent: 'all' },
        'mode "semantic" searches one source: pass agent="hermes" (or profile=), or agent="AGENT" for another agent\'s history',
      ],
      [withModel, { query: 'cat', mode: 'vector' }, 'bad arguments: mode:'],
    ];
    for (const [server, args, want] of cases) {
      const r = await call(server, args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.json.success).toBe(false);
      expect(String(r.json.error)).toContain(want);
      expect(String(r.json.error)).not.toContain('\n');
    }
  });

  it("a model that cannot load is the call's one-line error, and the server keeps serving", async () => {
    const bad = await startServer(['--db', db, '--embedder', 'model2vec:/nonexistent'], env);
    try {
      const r = await call(bad, { query: 'cat', mode: 'semantic' });
      expect(r.isError).toBe(true);
      expect(r.json.error).toBe(
        'model2vec:/nonexistent: /nonexistent/tokenizer.json is missing (a model2vec folder holds tokenizer.json and model.safetensors)',
      );
      const h = await call(bad, { query: 'cat dog', mode: 'hybrid' });
      expect(h.isError).toBe(false);
      expect(h.json).toMatchObject({ mode_requested: 'hybrid', mode_realized: 'lexical' });
      expect(String(h.json.fallback_reason)).toContain('tokenizer.json is missing');
      expect((await call(bad, { query: 'cat dog' })).isError).toBe(false);
    } finally {
      await bad.close();
    }
  });
});
