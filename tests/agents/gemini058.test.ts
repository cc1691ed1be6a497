/**
 * Gemini CLI 0.58 chats (AGENTS.md §8.3): messages both inside `$set.messages`
 * batches and as bare records, a batch repeating earlier messages, the injected
 * `<session_context>` that opens each chat, and a `$rewindTo` that takes a
 * decision back. Through the built CLI, asserting on the text shown.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { hashTree } from './samples.js';
import { exactCount } from '../helpers/exact.js';

type Obj = Record<string, unknown>;
const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const SID = '9b1e0c58-0000-4000-8000-000000000058';
const CONTEXT = [
  '<session_context>',
  'This is the Gemini CLI. We are setting up the context for our chat.',
  "Today's date is Thursday, October 1, 2026.",
  'My operating system is: linux',
  "I'm currently working in the directory: /home/ana/bundler",
  'Here is the folder structure of the current working directories:',
  '/home/ana/bundler/',
  '├───package.json',
  '├───src/',
  '│   ├───extract.ts',
  '│   └───workerPool.ts',
  '└───tsconfig.json',
  '</session_context>',
].join('\n');

const at = (min: number) => `2026-10-01T09:${String(min).padStart(2, '0')}:00.000Z`;
const msg = (id: string, type: string, content: unknown, min: number, extra: Obj = {}) => ({
  id,
  timestamp: at(min),
  type,
  content,
  ...extra,
});

let dir: string;
let home: string;
let file: string;
let env: NodeJS.ProcessEnv;
function run(args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) =>
  (p.messages as Obj[]).map((m) => `${String(m.role)}: ${String(m.content).split('\n')[0]}`);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-gemini58-'));
  home = join(dir, 'home');
  // No .project_root: the directory comes from the injected context.
  const chats = join(home, '.gemini', 'tmp', 'a1b2c3', 'chats');
  mkdirSync(chats, { recursive: true });
  env = { HOME: home, LOOKBACK_INDEX: join(dir, 'index.db'), XDG_DATA_HOME: '' };
  file = join(chats, `session-2026-10-01T09-00-${SID.slice(0, 8)}.jsonl`);
  const ctx = msg('c0', 'user', [{ text: CONTEXT }], 0);
  const u1 = msg('u1', 'user', [{ text: 'css extraction stalls the build on large pages' }], 1);
  const g1 = msg('g1', 'gemini', 'gm7_decision: css extraction runs in the worker pool', 2, {
    model: 'gemini-3-pro',
  });
  const u2 = msg('u2', 'user', [{ text: 'no, that breaks source maps; keep it inline' }], 3);
  const g2 = msg('g2', 'gemini', 'Kept inline; source maps are intact.', 4, {
    model: 'gemini-3-pro',
  });
  writeFileSync(
    file,
    jl([
      { sessionId: SID, projectHash: 'a1b2c3', startTime: at(0), lastUpdated: at(0), kind: 'main' },
      ctx,
      // A batch holds the context and the first turn; u1 exists only here.
      { $set: { messages: [ctx, u1, g1], lastUpdated: at(2) } },
      // Then bare records: the person takes g1 back and goes on.
      { $rewindTo: 'g1' },
      u2,
      g2,
      // A later batch repeats what came before it: one copy each.
      { $set: { messages: [ctx, u1, u2, g2], lastUpdated: at(4) } },
      msg('u3', 'user', [{ text: 'now add a test for the inline path' }], 5),
    ]),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Gemini CLI 0.58', () => {
  it('reads batches and bare records once each, the context as context', () => {
    const before = hashTree(home);
    const read = run(['read', '--agent', 'gemini', SID, '--json']);
    expect(texts(read)).toEqual([
      'system: <session_context>',
      'user: css extraction stalls the build on large pages',
      'user: no, that breaks source maps; keep it inline',
      'assistant: Kept inline; source maps are intact.',
      'user: now add a test for the inline path',
    ]);
    expect(read.session_meta).toMatchObject({
      title: 'css extraction stalls the build on large pages',
      cwd: '/home/ana/bundler',
      model: 'gemini-3-pro',
    });
    const recent = run(['recent', '--agent', 'gemini', '--json']);
    expect((recent.results as Obj[])[0]).toMatchObject({
      preview: 'css extraction stalls the build on large pages',
      message_count: 5,
    });
    // The directory tree is not the person's words: no default hit.
    expect(exactCount(run(['search', 'workerPool.ts', '--agent', 'gemini', '--json']))).toBe(0);
    expect(hashTree(home)).toEqual(before);
  });

  it('keeps the rewound decision out by default and marks it with --all', () => {
    expect(exactCount(run(['search', 'gm7_decision', '--agent', 'gemini', '--json']))).toBe(0);
    const all = run(['search', 'gm7_decision', '--agent', 'gemini', '--all', '--json']);
    expect((all.results as Obj[])[0]).toMatchObject({ match_message_id: 'g1', taken_back: true });
    const text = lookback(['search', 'gm7_decision', '--agent', 'gemini', '--all'], env).stdout;
    expect(text).toContain('taken back');
  });

  it('opens at a hit in a bare record appended later', () => {
    appendFileSync(file, jl([msg('g3', 'gemini', 'Added a test: inline path keeps maps.', 6)]));
    const hit = run(['search', 'inline path keeps maps', '--agent', 'gemini', '--json']);
    const r = (hit.results as Obj[])[0]!;
    expect(r.match_message_id).toBe('g3');
    const scroll = run(['scroll', '--agent', 'gemini', SID, 'g3', '--json']);
    expect((scroll.messages as Obj[]).find((m) => m.anchor === true)!.content).toBe(
      'Added a test: inline path keeps maps.',
    );
  });
});
