/**
 * Claude Code transcripts are a tree by uuid/parentUuid (AGENTS.md §1.4): after a
 * rewind or an edited prompt the file keeps the abandoned branch, and `--resume`
 * starts a new file with a copy of the session it resumes (same uuids). Through the
 * built CLI: the transcript is the live branch, the abandoned one stays indexed
 * (a hit with --all), and a resumed conversation's messages are shown once.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { exactHits } from '../helpers/exact.js';

type Obj = Record<string, unknown>;
const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-claude-tree-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A home with one Claude project directory; returns the env and the project path. */
function home(name: string): { env: NodeJS.ProcessEnv; proj: string } {
  const h = join(dir, name);
  const proj = join(h, '.claude', 'projects', '-home-ana-ledger');
  mkdirSync(proj, { recursive: true });
  return {
    proj,
    env: {
      HOME: h,
      LOOKBACK_INDEX: join(h, 'index.db'),
      XDG_DATA_HOME: '',
      XDG_CONFIG_HOME: '',
    },
  };
}

const base = (sessionId: string) => ({
  sessionId,
  cwd: '/home/ana/ledger',
  gitBranch: 'main',
  version: '2.1.240',
  userType: 'external',
  isSidechain: false,
});
let clock = Date.parse('2026-09-01T10:00:00.000Z');
const ts = () => new Date((clock += 5000)).toISOString();
const user = (sid: string, uuid: string, parent: string | null, text: string) => ({
  type: 'user',
  uuid,
  parentUuid: parent,
  ...base(sid),
  timestamp: ts(),
  message: { role: 'user', content: text },
});
const reply = (sid: string, uuid: string, parent: string, text: string) => ({
  type: 'assistant',
  uuid,
  parentUuid: parent,
  ...base(sid),
  requestId: `req_${uuid}`,
  timestamp: ts(),
  message: {
    id: `msg_${uuid}`,
    role: 'assistant',
    model: 'claude-sonnet-x',
    content: [{ type: 'text', text }],
    usage: { input_tokens: 10, output_tokens: 20 },
  },
});
// Claude Code writes these between turns; they carry a uuid and hang off the last entry.
const progress = (sid: string, uuid: string, parent: string) => ({
  type: 'progress',
  uuid,
  parentUuid: parent,
  ...base(sid),
  timestamp: ts(),
  data: { type: 'hook_progress' },
});

const S = '7a1e0000-0000-4000-8000-000000000001';
const before = [
  user(S, 'u1', null, 'deploy the ledger service to staging'),
  reply(S, 'a1', 'u1', 'Which rollout strategy do you want?'),
  user(S, 'u2', 'a1', 'use a blue-green switchover'),
  reply(S, 'a2', 'u2', 'Blue-green needs a second target group; creating it now.'),
  progress(S, 'p1', 'a2'),
];
// The user rewinds to a1 and sends another prompt: u2b is a sibling of u2.
const after = [
  user(S, 'u2b', 'a1', 'use a canary release instead'),
  reply(S, 'a2b', 'u2b', 'Canary at 5 % of traffic, promoted after ten minutes.'),
];

function run(env: NodeJS.ProcessEnv, args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) => (p.messages as Obj[]).map((m) => `${String(m.id)}: ${String(m.content)}`);
// Exact hits only: relaxed ones (not every word, marked) may follow them.
const hits = (p: Obj) => exactHits(p).map((x) => [x.session_id, x.match_message_id]);

describe('Claude Code branches', () => {
  it('shows the branch ending at the last entry; the abandoned one is a hit only with --all', () => {
    const { env, proj } = home('edit');
    writeFileSync(join(proj, `${S}.jsonl`), jl([...before, ...after]));
    const read = run(env, ['read', '--agent', 'claude', S, '--json']);
    expect(texts(read)).toEqual([
      'u1: deploy the ledger service to staging',
      'a1: Which rollout strategy do you want?',
      'u2b: use a canary release instead',
      'a2b: Canary at 5 % of traffic, promoted after ten minutes.',
    ]);
    expect(read.message_count).toBe(4);
    expect(hits(run(env, ['search', 'blue-green', '--agent', 'claude', '--json']))).toEqual([]);
    const all = run(env, ['search', 'blue-green', '--agent', 'claude', '--all', '--json']);
    expect(hits(all)).toEqual([[S, 'u2']]);
    expect(String((all.results as Obj[])[0]!.snippet)).toContain('>>>blue-green<<<');
    // Scrolling at a live message never interleaves the abandoned branch.
    const sc = run(env, ['scroll', '--agent', 'claude', S, 'a1', '--json']);
    expect((sc.messages as Obj[]).map((m) => m.id)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    const recent = run(env, ['recent', '--agent', 'claude', '--json']);
    expect((recent.results as Obj[])[0]).toMatchObject({ session_id: S, message_count: 4 });
  });

  it('an edit appended after a pass re-places the branch (the file is re-read from the start)', () => {
    const { env, proj } = home('append');
    const file = join(proj, `${S}.jsonl`);
    writeFileSync(file, jl(before));
    expect(texts(run(env, ['read', '--agent', 'claude', S, '--json']))).toHaveLength(4);
    appendFileSync(file, jl(after));
    expect(texts(run(env, ['read', '--agent', 'claude', S, '--json']))).toEqual([
      'u1: deploy the ledger service to staging',
      'a1: Which rollout strategy do you want?',
      'u2b: use a canary release instead',
      'a2b: Canary at 5 % of traffic, promoted after ten minutes.',
    ]);
    // A plain continuation of the live branch is read from the saved offset and stays live.
    appendFileSync(file, jl([user(S, 'u3', 'a2b', 'promote the canary now')]));
    expect(texts(run(env, ['read', '--agent', 'claude', S, '--json'])).slice(-1)).toEqual([
      'u3: promote the canary now',
    ]);
  });

  it('keeps every row live when the entries are not one tree (a parent missing)', () => {
    const { env, proj } = home('broken');
    writeFileSync(
      join(proj, `${S}.jsonl`),
      jl([...before, user(S, 'u9', 'not-in-this-file', 'rerun the migration'), ...after]),
    );
    const read = run(env, ['read', '--agent', 'claude', S, '--json']);
    expect(read.message_count).toBe(7);
    expect(hits(run(env, ['search', 'blue-green', '--agent', 'claude', '--json']))).toEqual([
      [S, 'u2'],
    ]);
  });

  it('reads both conversations of a file spliced before 2.1.251, past the torn seam', () => {
    // Claude Code < 2.1.251 could relocate a session onto a same-id transcript
    // after a directory change (§8.4): a second root, another cwd, older
    // timestamps, and a seam where the first part's last line is cut and the
    // second part's first line glued to it.
    const { env, proj } = home('spliced');
    const first = [
      user(S, 's1', null, 'the ledger export drops the currency column'),
      reply(S, 's2', 's1', 'The CSV writer skips null currencies; default them to EUR.'),
    ];
    const torn = JSON.stringify(reply(S, 's3', 's2', 'half a reply')).slice(0, 70);
    clock -= 3_600_000;
    const other = { ...base(S), cwd: '/home/ana/ledger-v2', gitBranch: 'relocate' };
    const glued = JSON.stringify({ ...user(S, 't1', null, 'lost to the seam'), ...other });
    const second = [
      { ...reply(S, 't2', 't1', 'Moved the fixtures under ledger-v2/testdata.'), ...other },
      { ...user(S, 't3', 't2', 'and the snapshot files?'), ...other },
    ];
    writeFileSync(join(proj, `${S}.jsonl`), jl(first) + torn + glued + '\n' + jl(second));
    const read = run(env, ['read', '--agent', 'claude', S, '--json']);
    expect((read.messages as Obj[]).map((m) => m.content)).toEqual([
      'the ledger export drops the currency column',
      'The CSV writer skips null currencies; default them to EUR.',
      'Moved the fixtures under ledger-v2/testdata.',
      'and the snapshot files?',
    ]);
    // Neither part is an abandoned branch: both are default hits.
    expect(hits(run(env, ['search', 'currency column', '--agent', 'claude', '--json']))).toEqual([
      [S, 's1'],
    ]);
    expect(hits(run(env, ['search', 'snapshot files', '--agent', 'claude', '--json']))).toEqual([
      [S, 't3'],
    ]);
    const src = run(env, ['sources', '--json']);
    expect((src.sources as Obj[]).find((x) => x.agent === 'claude')).toMatchObject({
      conversations: 1,
      messages: 4,
      problems: [{ reason: 'line is not valid JSON (truncated or garbage)', count: 1, files: 1 }],
    });
  });
});

describe('Claude Code --resume across files', () => {
  const A = '7a1e0000-0000-4000-8000-00000000000a';
  const B = '7a1e0000-0000-4000-8000-00000000000b';
  const original = [
    user(A, 'r1', null, 'why is the nightly ledger export slow?'),
    reply(A, 'r2', 'r1', 'The export scans ledger_entries without an index on created_at.'),
  ];
  // `claude --resume A` writes B.jsonl: A's lines as they were (sessionId A, same uuids), then B's own.
  const resumed = [
    ...original,
    user(B, 'r3', 'r2', 'add the index on created_at'),
    reply(B, 'r4', 'r3', 'Added a migration creating ledger_entries_created_at_idx.'),
  ];

  it('shows the resumed conversation’s messages once, wherever they were copied', () => {
    const { env, proj } = home('resume');
    writeFileSync(join(proj, `${A}.jsonl`), jl(original));
    writeFileSync(join(proj, `${B}.jsonl`), jl(resumed));
    const s = run(env, ['search', 'nightly ledger export', '--agent', 'claude', '--json']);
    expect(hits(s)).toEqual([[A, 'r1']]);
    const b = run(env, ['read', '--agent', 'claude', B, '--json']);
    expect(b.session_meta).toMatchObject({ parent_session_id: A, parent_kind: 'resume' });
    expect(texts(b)).toEqual([
      'r3: add the index on created_at',
      'r4: Added a migration creating ledger_entries_created_at_idx.',
    ]);
    expect(texts(run(env, ['read', '--agent', 'claude', A, '--json']))).toEqual([
      'r1: why is the nightly ledger export slow?',
      'r2: The export scans ledger_entries without an index on created_at.',
    ]);
    const src = run(env, ['sources', '--json']);
    const claude = (src.sources as Obj[]).find((x) => x.agent === 'claude')!;
    expect(claude).toMatchObject({ conversations: 2, messages: 4, problems: [] });
  });

  it('keeps the copy while it is the only one, and hides it once the original is indexed', () => {
    const { env, proj } = home('resume-order');
    // The original was pruned (cleanupPeriodDays) before lookback ever read it.
    writeFileSync(join(proj, `${B}.jsonl`), jl(resumed));
    expect(
      hits(run(env, ['search', 'nightly ledger export', '--agent', 'claude', '--json'])),
    ).toEqual([[B, 'r1']]);
    expect(texts(run(env, ['read', '--agent', 'claude', B, '--json']))).toHaveLength(4);
    // It turns up later (restored from a backup): one copy again, the original's.
    writeFileSync(join(proj, `${A}.jsonl`), jl(original));
    expect(
      hits(run(env, ['search', 'nightly ledger export', '--agent', 'claude', '--json'])),
    ).toEqual([[A, 'r1']]);
    expect(texts(run(env, ['read', '--agent', 'claude', B, '--json']))).toHaveLength(2);
  });
});
