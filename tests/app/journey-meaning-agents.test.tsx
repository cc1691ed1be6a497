/**
 * Search by meaning over the other agents in the app (#22): with an embedder
 * set, `v` then a search line whose `agent:claude` chip picks Claude Code's
 * conversations searches lookback's agents' index by meaning, after real key
 * input. The frame shows the conversation that holds none of the query's
 * characters in that order, with its `semantic #n · similarity …` line, in the
 * order and with the reasons of `lookback search --agent claude --mode hybrid
 * --json` for the same question.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { SEARCH_LIMIT } from '../../src/budgets.js';
import { lookback } from '../helpers/cli.js';
import { tempDir } from '../helpers/fixtures.js';
import { EXACT, SEM, writeHome } from '../semantic/agentHome.js';
import { writeTinyModel } from '../semantic/tinyModel.js';
import { meaningResults } from './meaningWait.js';
import {
  WIDE,
  agentsOption,
  makeStore,
  startHarness,
  withAgentHome,
  type Harness,
} from './harness.js';

let home: string;
let indexFile: string;
let vectors: string;
let spec: string;
let restore: () => void = () => {};
let h: Harness | null = null;
const was = process.env.LOOKBACK_VECTORS_DB;

beforeAll(() => {
  const dir = tempDir();
  home = join(dir, 'home');
  writeHome(home);
  indexFile = join(dir, 'index', 'agents.db');
  mkdirSync(join(dir, 'index'), { recursive: true });
  restore = withAgentHome(home);
  // The index as the background indexer would leave it (the journey is about the search).
  const { db } = openIndex(indexFile);
  indexAll(db, { env: { ...process.env, HOME: home } });
  db.close();
  spec = `model2vec:${writeTinyModel(join(dir, 'model'))}`;
  vectors = join(dir, 'cache', 'vectors.db');
  process.env.LOOKBACK_VECTORS_DB = vectors;
});

afterAll(async () => {
  await h?.close();
  restore();
  if (was === undefined) delete process.env.LOOKBACK_VECTORS_DB;
  else process.env.LOOKBACK_VECTORS_DB = was;
});

/** A result's two lines (title, then why and snippet), from the Results pane on the left. */
const rowOf = (frame: string, text: string): string => {
  const lines = frame.split('\n').map((l) => l.split('││')[0]!);
  const i = lines.findIndex((l) => l.startsWith('│') && l.includes(text));
  return i < 0 ? '' : `${lines[i]}\n${lines[i + 1] ?? ''}`;
};

describe('v over the other agents', () => {
  it('agent:claude by meaning: the conversation without the words, why it matched, as the CLI answers', async () => {
    h = await startHarness(makeStore(6), WIDE, { embedder: spec, agents: agentsOption(indexFile) });
    await h.press('v');
    expect(h.state().search.meaning).toBe('hybrid');
    await h.press('/');
    const q = 'agent:claude 证书';
    const items = await meaningResults(h, q, 'results by meaning over the agents');
    expect(items.every((r) => r.agent === 'claude')).toBe(true);
    const cli = lookback(
      [
        'search',
        '证书',
        '--agent',
        'claude',
        '--mode',
        'hybrid',
        '--json',
        '--limit',
        String(SEARCH_LIMIT),
      ],
      {
        HOME: home,
        LOOKBACK_INDEX: indexFile,
        LOOKBACK_VECTORS_DB: vectors,
        LOOKBACK_EMBEDDER: spec,
        XDG_CACHE_HOME: join(home, '..', 'cache'),
      },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const a = cli.json() as {
      results: {
        session_id: string;
        match?: string;
        score_parts: Record<string, number | string | null>;
      }[];
    };
    // The same conversations in the same order: the exact one first, then by meaning.
    expect(items.map((r) => r.sessionId)).toEqual(a.results.map((r) => `claude:${r.session_id}`));
    expect(a.results[0]!.session_id).toBe(EXACT);
    const sem = a.results.findIndex((r) => r.session_id === SEM);
    expect(a.results[sem]!.match).toBe('semantic');
    const parts = a.results[sem]!.score_parts;
    const why = `semantic #${parts.semantic_rank} · similarity ${(parts.cosine as number).toFixed(2)} (${parts.quality})`;
    expect(items[sem]!.why).toBe(why);
    // On screen: the conversation found by meaning alone, with its reasons.
    const frame = h.frame();
    expect(frame).toContain('mode: hybrid');
    const shown = rowOf(frame, '书证');
    expect(shown).toContain(why);
  });
});
