/**
 * Search by meaning in the app (#22): `v` cycles lexical → hybrid → semantic
 * when an embedder is configured, and says how to configure one when not;
 * after real key input the frame shows the mode chip, the conversation found
 * by a paraphrase and why it matched, true to the answer of
 * `lookback search --mode hybrid --json` for the same question (same ids, same order).
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage, insertSession } from '../../src/demo/store.js';
import { SEARCH_LIMIT } from '../../src/budgets.js';
import { buildStore } from '../helpers/stores.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { writeTinyModel } from '../semantic/tinyModel.js';
import { meaningResults } from './meaningWait.js';
import { WIDE, startHarness, type Harness } from './harness.js';

let path: string;
let spec: string;
let vectors: string;
const was = process.env.LOOKBACK_VECTORS_DB;

beforeAll(() => {
  path = buildStore(30, (db) => {
    const a = insertSession(db, { id: 'pets', started_at: 1_790_000_000, title: 'Pets at home' });
    insertMessage(db, { session_id: a, content: 'cat dog cat dog' });
    insertMessage(db, { session_id: a, role: 'assistant', content: 'dog cat' });
    const b = insertSession(db, { id: 'queue', started_at: 1_790_100_000, title: 'Job queue' });
    insertMessage(db, { session_id: b, content: 'postgres queue for the jobs' });
    const c = insertSession(db, { id: 'certs', started_at: 1_790_200_000, title: 'TLS' });
    insertMessage(db, { session_id: c, content: 'the certificate expired' });
  });
  const dir = tempDir();
  spec = `model2vec:${writeTinyModel(join(dir, 'model'))}`;
  vectors = join(dir, 'cache', 'vectors.db');
  // src/semantic keeps its vectors where LOOKBACK_VECTORS_DB says (the app passes no path).
  process.env.LOOKBACK_VECTORS_DB = vectors;
});
afterAll(() => {
  if (was === undefined) delete process.env.LOOKBACK_VECTORS_DB;
  else process.env.LOOKBACK_VECTORS_DB = was;
});

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** A result's two lines (title, then why and snippet), from the Results pane on the left. */
const row = (frame: string, title: string): string => {
  const lines = frame.split('\n').map((l) => l.split('││')[0]!);
  const i = lines.findIndex((l) => l.startsWith('│') && l.includes(title));
  return i < 0 ? '' : `${lines[i]}\n${lines[i + 1] ?? ''}`;
};

describe('v: search by meaning', () => {
  it('without an embedder, says how to configure one and stays lexical', async () => {
    h = await startHarness(path, WIDE);
    await h.press('v');
    expect(h.state().search.meaning).toBe('lexical');
    const status = h.frame().split('\n').at(-1) ?? '';
    expect(h.frame()).toContain('search by meaning needs an embedding model');
    expect(h.state().status?.text).toMatch(/--embedder SPEC or set LOOKBACK_EMBEDDER/);
    expect(status.length).toBeGreaterThan(0);
    expect(h.frame()).not.toContain('mode: hybrid');
    // The help lists the key.
    await h.press('?');
    expect(h.frame()).toMatch(/v +Search by meaning: lexical → hybrid → semantic/);
  });

  it('hybrid: the chip, the conversation a paraphrase means, why it matched; as the CLI answers', async () => {
    h = await startHarness(path, WIDE, { embedder: spec });
    await h.press('v');
    expect(h.state().search.meaning).toBe('hybrid');
    await h.press('/');
    // A paraphrase: no conversation has the word "and"; the pets one has the others.
    const q = 'dog and cat';
    const items = await meaningResults(h, q, 'results by meaning');
    expect(items[0]!.sessionId).toBe('pets');
    const frame = h.frame();
    expect(frame).toContain('mode: hybrid');
    // The same answer as the command line's, in the same order, with the same reasons.
    const cli = lookback(
      [
        'search',
        q,
        '--db',
        path,
        '--mode',
        'hybrid',
        '--embedder',
        spec,
        '--json',
        '--limit',
        String(SEARCH_LIMIT),
      ],
      { LOOKBACK_VECTORS_DB: vectors },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const a = cli.json() as {
      mode_realized: string;
      results: { session_id: string; score_parts: Record<string, number | string | null> }[];
    };
    expect(a.mode_realized).toBe('hybrid');
    expect(items.map((r) => r.sessionId)).toEqual(a.results.map((r) => r.session_id));
    const parts = a.results[0]!.score_parts;
    expect(parts.semantic_rank).toBe(1);
    const why = [
      ...(parts.lexical_rank !== null ? [`lexical #${parts.lexical_rank}`] : []),
      `semantic #1`,
      `similarity ${(parts.cosine as number).toFixed(2)} (${parts.quality})`,
    ].join(' · ');
    expect(items[0]!.why).toBe(why);
    const shown = row(frame, 'Pets at home');
    expect(shown).toContain(why);
    expect(shown).toContain('cat dog cat dog');

    // v again: semantic alone; again: back to lexical, and the chip goes.
    await h.press('\x1b');
    await h.press('v');
    expect(h.state().search.meaning).toBe('semantic');
    await h.waitFor(
      () => !h!.state().results.busy && h!.frame().includes('mode: semantic'),
      'semantic results',
      20_000,
    );
    expect(h.state().results.items[0]!.why).toMatch(/^semantic #1 · similarity /);
    expect(h.state().results.items[0]!.why).not.toContain('lexical');
    // Fuzzy search (f) is never by meaning: no chip while it answers.
    await h.press('f');
    await h.waitFor(() => h!.state().search.mode === 'fuzzy', 'fuzzy');
    expect(h.frame()).not.toContain('mode: semantic');
    await h.press('f');
    await h.waitFor(
      () => !h!.state().results.busy && h!.frame().includes('mode: semantic'),
      'semantic again',
      20_000,
    );
    await h.press('v');
    expect(h.state().search.meaning).toBe('lexical');
    await h.waitFor(() => !h!.state().results.busy, 'lexical results');
    expect(h.frame()).not.toContain('mode: ');
  });

  it('a filter the vector leg cannot apply is refused in one line', async () => {
    h = await startHarness(path, WIDE, { embedder: spec });
    await h.press('v', '/');
    await h.type('source:cli cats');
    await h.waitFor(
      () => !h!.state().results.busy && h!.state().results.forText === 'source:cli cats',
      'refusal',
    );
    expect(h.state().results.items).toEqual([]);
    expect(h.state().status?.text).toBe(
      'hybrid search does not take filters yet (the vector leg cannot apply it); refused: press v for lexical',
    );
  });
});
