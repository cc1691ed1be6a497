/**
 * `lookback search --mode semantic|hybrid` end to end: the built binary, a
 * real store, a model2vec folder the test writes, vectors.db in a temp cache;
 * an embedder that cannot answer is one line (semantic) or a said fallback (hybrid).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateStore } from '../../src/demo/generate.js';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { writeTinyModel } from './tinyModel.js';

function setup(sessions = 20): {
  db: string;
  model: string;
  env: NodeJS.ProcessEnv;
  needle: string;
} {
  const dir = tempDir();
  const db = join(dir, 'state.db');
  generateStore(db, { layout: 30, sessions, seed: 5 });
  const w = new Database(db);
  const needle = insertSession(w, { source: 'cli', title: 'pets' });
  insertMessage(w, { session_id: needle, role: 'user', content: 'cat dog cat dog' });
  insertMessage(w, { session_id: needle, role: 'assistant', content: 'dog cat' });
  w.close();
  return {
    db,
    needle,
    model: writeTinyModel(join(dir, 'model')),
    env: { LOOKBACK_VECTORS_DB: join(dir, 'cache', 'vectors.db') },
  };
}

describe('search --mode', () => {
  it('semantic answers with score parts; hybrid keeps exact hits first', () => {
    const s = setup();
    const sem = lookback(
      [
        'search',
        'Dog cat',
        '--db',
        s.db,
        '--mode',
        'semantic',
        '--embedder',
        `model2vec:${s.model}`,
        '--json',
      ],
      s.env,
    );
    expect(sem.stderr).toBe('');
    expect(sem.code).toBe(0);
    const a = sem.json();
    expect(a).toMatchObject({ mode_requested: 'semantic', mode_realized: 'semantic' });
    expect(a.embedder).toBe(`model2vec:${s.model}`);
    const first = (a.results as Record<string, unknown>[])[0]!;
    expect(first).toMatchObject({
      session_id: s.needle,
      match: 'semantic',
      snippet: 'cat dog cat dog',
    });
    expect(first.score_parts).toMatchObject({
      lexical_rank: null,
      semantic_rank: 1,
      quality: 'strong',
    });
    expect((first.score_parts as { cosine: number }).cosine).toBeGreaterThan(0.99);
    // Hybrid: "cat dog" has every word in the needle: an exact hit, first, without a match field.
    const hyb = lookback(
      [
        'search',
        'cat dog',
        '--db',
        s.db,
        '--mode',
        'hybrid',
        '--embedder',
        `model2vec:${s.model}`,
        '--json',
      ],
      s.env,
    ).json();
    const top = (hyb.results as Record<string, unknown>[])[0]!;
    expect(hyb.mode_realized).toBe('hybrid');
    expect(top.session_id).toBe(s.needle);
    expect(top.match).toBeUndefined();
    expect(top.score_parts).toMatchObject({ lexical_rank: 1, semantic_rank: 1 });
  });

  it('an embedder that cannot answer: semantic fails in one line, hybrid says it fell back', async () => {
    const s = setup();
    // spawnSync blocks this process: the failing server runs in its own process.
    const { spawn } = await import('node:child_process');
    const serverProc = spawn(
      process.execPath,
      [
        '-e',
        `require('node:http').createServer((q,r)=>{r.writeHead(500);r.end('model not loaded')}).listen(0,'127.0.0.1',function(){console.log(this.address().port)})`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const port = await new Promise<string>((r) =>
        serverProc.stdout.once('data', (d: Buffer) => r(d.toString().trim())),
      );
      const spec = `ollama:m@http://127.0.0.1:${port}`;
      const sem = lookback(
        ['search', 'cat', '--db', s.db, '--mode', 'semantic', '--embedder', spec],
        s.env,
      );
      expect(sem.code).toBe(1);
      expect(sem.stdout).toBe('');
      expect(sem.stderr).toBe(
        `lookback: ollama:m (http://127.0.0.1:${port}/api/embed): HTTP 500 after 3 tries: model not loaded\n`,
      );
      const hyb = lookback(
        ['search', 'cat dog', '--db', s.db, '--mode', 'hybrid', '--embedder', spec, '--json'],
        s.env,
      );
      expect(hyb.code).toBe(0);
      const a = hyb.json();
      expect(a).toMatchObject({ mode_requested: 'hybrid', mode_realized: 'lexical' });
      expect(a.fallback_reason).toMatch(/HTTP 500 after 3 tries/);
      expect((a.results as Record<string, unknown>[])[0]!.session_id).toBe(s.needle);
    } finally {
      serverProc.kill();
    }
  });

  it('answers from what is embedded and says how much: each search embeds one more page', () => {
    const s = setup(80);
    const total = (() => {
      const db = new Database(s.db, { readonly: true });
      try {
        return db
          .prepare(
            `SELECT count(*) FROM messages WHERE role IN ('user','assistant') AND content IS NOT NULL AND content <> ''`,
          )
          .pluck()
          .get() as number;
      } finally {
        db.close();
      }
    })();
    expect(total).toBeGreaterThan(1024);
    const env = { ...s.env, LOOKBACK_EMBED_BUDGET_MS: '0' };
    const args = ['search', 'Dog cat', '--db', s.db, '--mode', 'semantic'];
    const first = lookback([...args, '--embedder', `model2vec:${s.model}`, '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const a = first.json();
    // A budget of 0: one page of 512 messages, then the answer from those.
    expect(a.embedded).toEqual({ messages: 512, of: total });
    expect(a.vectors).toBe(512);
    expect(a.embedding_note).toBe(
      `the semantic leg searched 512 of ${total.toLocaleString('en-US')} messages (${Math.floor((100 * 512) / total)} %); each search embeds ~1.5 s more; LOOKBACK_EMBED_BUDGET_MS=600000 gives one search ten minutes to embed the rest`,
    );
    // Text output: the same note on stderr, once.
    const text = lookback([...args, '--embedder', `model2vec:${s.model}`], env);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain(`lookback: note: the semantic leg searched 1,024 of`);
    // The default budget embeds the rest: the whole store, no note.
    const rest = lookback([...args, '--embedder', `model2vec:${s.model}`, '--json'], s.env).json();
    expect(rest.embedded).toEqual({ messages: total, of: total });
    expect(rest.embedding_note).toBeUndefined();
    expect((rest.results as Record<string, unknown>[])[0]!.session_id).toBe(s.needle);
  });

  it('usage mistakes are one line and exit 2', () => {
    const s = setup();
    const cases: [string[], string][] = [
      [['--mode', 'vector'], '--mode takes lexical, semantic or hybrid, not "vector"'],
      [['--mode', 'semantic'], '--mode semantic needs --embedder (or LOOKBACK_EMBEDDER)'],
      [['--embedder', 'ollama:m'], '--embedder is for --mode semantic or hybrid'],
      [
        ['--mode', 'hybrid', '--embedder', 'ollama:m', '--after', '7d'],
        '--mode hybrid does not take --after yet (the vector leg cannot apply it); refused',
      ],
    ];
    for (const [args, want] of cases) {
      const r = lookback(['search', 'cat', '--db', s.db, ...args], {
        ...s.env,
        LOOKBACK_EMBEDDER: '',
      });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(want);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    const noModel = lookback(
      ['search', 'cat', '--db', s.db, '--mode', 'semantic', '--embedder', 'model2vec:/nonexistent'],
      s.env,
    );
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toBe(
      'lookback: model2vec:/nonexistent: /nonexistent/tokenizer.json is missing (a model2vec folder holds tokenizer.json and model.safetensors)\n',
    );
  });
});
