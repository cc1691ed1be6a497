/**
 * Codex CLI ≥ 0.150 paginated threads (AGENTS.md §8.1): one thread written as a
 * stub rollout plus continuation files (`<thread>_<rollout>.jsonl`), each with a
 * `history_base`; a revert that takes back the predecessor's tail; a duplicate
 * ordinal after a crash with a line of NUL bytes. Through the built CLI, asserting
 * on the text shown, with the sources hashed before and after.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { hashTree } from './samples.js';
import { exactCount } from '../helpers/exact.js';
import { waitOutFreshPass } from '../helpers/fresh.js';

type Obj = Record<string, unknown>;
const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

const T = '019a1b2c-0000-7000-8000-00000000000a';
const R2 = '019a1b2c-1111-7000-8000-00000000000b';
const R3 = '019a1b2c-2222-7000-8000-00000000000c';

const at = (day: number, min: number) =>
  `2026-09-${String(day).padStart(2, '0')}T10:${String(min).padStart(2, '0')}:00.000Z`;
const meta = (ordinal: number, ts: string, extra: Obj = {}) => ({
  timestamp: ts,
  ordinal,
  type: 'session_meta',
  payload: {
    id: T,
    session_id: T,
    timestamp: ts,
    cwd: '/home/ana/site',
    originator: 'codex_cli_rs',
    cli_version: '0.151.0',
    source: 'cli',
    model_provider: 'openai',
    history_mode: 'paginated',
    ...extra,
  },
});
const say = (ordinal: number, ts: string, role: 'user' | 'assistant', text: string) => ({
  timestamp: ts,
  ordinal,
  type: 'response_item',
  payload: {
    type: 'message',
    role,
    content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
  },
});
const tokens = (ordinal: number, ts: string) => ({
  timestamp: ts,
  ordinal,
  type: 'event_msg',
  payload: { type: 'token_count', info: null },
});

let dir: string;
let home: string;
let day: string;
let env: NodeJS.ProcessEnv;
function run(args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) =>
  (p.messages as Obj[]).map((m) => `${String(m.role)}: ${String(m.content)}`);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-codexpage-'));
  home = join(dir, 'home');
  day = join(home, '.codex', 'sessions', '2026', '09', '14');
  mkdirSync(day, { recursive: true });
  env = { HOME: home, LOOKBACK_INDEX: join(dir, 'index.db'), CODEX_HOME: '' };
  // The stub: the first rollout holds only the thread's session_meta.
  writeFileSync(join(day, `rollout-2026-09-14T10-00-00-${T}.jsonl`), jl([meta(0, at(14, 0))]));
  // The first continuation: the whole stub as its base, then the turns.
  writeFileSync(
    join(day, `rollout-2026-09-14T10-05-00-${T}_${R2}.jsonl`),
    jl([
      meta(1, at(14, 5), {
        history_base: { thread_id: T, end_ordinal_exclusive: 1, end_byte_offset: 400 },
      }),
      {
        timestamp: at(14, 5),
        ordinal: 2,
        type: 'turn_context',
        payload: { model: 'gpt-5.3-codex' },
      },
      say(3, at(14, 6), 'user', 'the css extraction stalls on big pages'),
      say(4, at(14, 7), 'assistant', 'gm7_decision: css extraction runs in the worker pool'),
      say(5, at(14, 8), 'user', 'and the source maps?'),
      say(6, at(14, 9), 'assistant', 'Source maps stay inline for now.'),
      tokens(7, at(14, 9)),
    ]),
  );
  // A revert to before the decision (base ends at ordinal 4), then a crash: a
  // line of NUL bytes and the same ordinal written twice (openai/codex#41566).
  const day15 = join(home, '.codex', 'sessions', '2026', '09', '15');
  mkdirSync(day15, { recursive: true });
  writeFileSync(
    join(day15, `rollout-2026-09-15T08-40-03-${T}_${R3}.jsonl`),
    jl([
      meta(4, at(15, 40), {
        history_base: { thread_id: R2, end_ordinal_exclusive: 4, end_byte_offset: 900 },
      }),
      say(5, at(15, 41), 'user', 'no: keep css extraction on the main thread'),
      say(6, at(15, 42), 'assistant', 'css extraction now stays on the main thread.'),
      tokens(7, at(15, 42)),
      say(8, at(15, 43), 'user', 'is the build green now?'),
    ]) +
      '\u0000'.repeat(24) +
      '\n' +
      jl([say(8, at(15, 50), 'assistant', 'The build is green after the resume.')]),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Codex paginated threads', () => {
  it('reads a thread split over three files as one conversation, one copy of each message', () => {
    const before = hashTree(home);
    const recent = run(['recent', '--agent', 'codex', '--json']);
    expect((recent.results as Obj[]).map((r) => r.session_id)).toEqual([T]);
    expect((recent.results as Obj[])[0]).toMatchObject({
      message_count: 5,
      preview: 'the css extraction stalls on big pages',
    });
    const read = run(['read', '--agent', 'codex', T, '--json']);
    expect(texts(read)).toEqual([
      'user: the css extraction stalls on big pages',
      'user: no: keep css extraction on the main thread',
      'assistant: css extraction now stays on the main thread.',
      'user: is the build green now?',
      'assistant: The build is green after the resume.',
    ]);
    expect(read.session_meta).toMatchObject({ cwd: '/home/ana/site', model: 'gpt-5.3-codex' });
    const src = run(['sources', '--json']);
    expect((src.sources as Obj[]).find((s) => s.agent === 'codex')).toMatchObject({
      files: 3,
      conversations: 1,
    });
    expect(hashTree(home)).toEqual(before);
  });

  it('keeps the reverted turns out of default answers and marks them with --all', () => {
    const miss = run(['search', 'worker pool', '--agent', 'codex', '--json']);
    expect(exactCount(miss)).toBe(0);
    expect(String(miss.message)).toContain('--all');
    const all = run(['search', 'worker pool', '--agent', 'codex', '--all', '--json']);
    const hit = (all.results as Obj[])[0]!;
    expect(hit).toMatchObject({ session_id: T, taken_back: true, match_message_id: `4@${R2}` });
    const shown = (hit.messages as Obj[]).find((m) => m.anchor === true)!;
    expect(shown).toMatchObject({
      content: 'gm7_decision: css extraction runs in the worker pool',
      taken_back: true,
    });
    const read = run(['read', '--agent', 'codex', T, '--all', '--json']);
    expect((read.messages as Obj[]).filter((m) => m.taken_back).map((m) => m.content)).toEqual([
      'gm7_decision: css extraction runs in the worker pool',
      'and the source maps?',
      'Source maps stay inline for now.',
    ]);
    const text = lookback(['read', '--agent', 'codex', T, '--all'], env);
    expect(text.stdout).toContain('assistant (taken back): gm7_decision');
  });

  it('keeps both records of a duplicate ordinal, opened at the hit', () => {
    const s = run(['search', 'green after the resume', '--agent', 'codex', '--json']);
    const hit = (s.results as Obj[])[0]!;
    expect(hit.match_message_id).toMatch(new RegExp(`^8@${R3}~\\d+$`));
    const scroll = run(['scroll', '--agent', 'codex', T, String(hit.match_message_id), '--json']);
    const anchored = (scroll.messages as Obj[]).find((m) => m.anchor === true)!;
    expect(anchored.content).toBe('The build is green after the resume.');
    expect(texts(scroll)).toContain('user: is the build green now?');
  });

  it('appends to the newest file incrementally and still holds one copy of each message', () => {
    const before = hashTree(home);
    appendFileSync(
      join(
        home,
        '.codex',
        'sessions',
        '2026',
        '09',
        '15',
        `rollout-2026-09-15T08-40-03-${T}_${R3}.jsonl`,
      ),
      jl([say(9, at(15, 55), 'user', 'ship the fix to staging')]),
    );
    waitOutFreshPass();
    const read = run(['read', '--agent', 'codex', T, '--json']);
    expect(read.message_count).toBe(6);
    expect(texts(read).filter((t) => t.includes('css extraction stalls'))).toHaveLength(1);
    expect(texts(read).at(-1)).toBe('user: ship the fix to staging');
    const after = hashTree(home);
    // Only the appended file changed, and only by what the test wrote.
    expect(Object.keys(after).filter((k) => after[k] !== before[k])).toHaveLength(1);
  });
});
