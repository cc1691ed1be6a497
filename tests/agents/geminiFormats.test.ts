/**
 * Gemini CLI chats beyond plain upserts (AGENTS.md §3.2): `$patch` records that
 * edit, remove and reorder messages by id, and legacy whole-file `.json` chats
 * (read alone, and read once when Gemini left a `.jsonl` twin beside one). Through
 * the built CLI, asserting on the text shown.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';

type Obj = Record<string, unknown>;
const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-gemini-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function home(name: string): { env: NodeJS.ProcessEnv; chats: string } {
  const h = join(dir, name);
  const chats = join(h, '.gemini', 'tmp', 'infra', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(h, '.gemini', 'tmp', 'infra', '.project_root'), '/home/ana/infra\n');
  return {
    chats,
    env: { HOME: h, LOOKBACK_INDEX: join(h, 'index.db'), XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' },
  };
}

function run(env: NodeJS.ProcessEnv, args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) => (p.messages as Obj[]).map((m) => `${String(m.id)}: ${String(m.content)}`);

const SID = '3c9a0b12-0000-4000-8000-0000000000aa';
const header = {
  sessionId: SID,
  projectHash: 'c0ffee',
  startTime: '2026-09-02T08:00:00.000Z',
  lastUpdated: '2026-09-02T08:00:00.000Z',
  kind: 'main',
};
const msg = (id: string, type: string, content: unknown, minute: number) => ({
  id,
  timestamp: `2026-09-02T08:${String(minute).padStart(2, '0')}:00.000Z`,
  type,
  content,
});

describe('Gemini $patch records', () => {
  it('merges updates, keeps removed messages flagged, and follows orderIds', () => {
    const { env, chats } = home('patch');
    writeFileSync(
      join(chats, `session-2026-09-02T08-00-${SID.slice(0, 8)}.jsonl`),
      jl([
        header,
        msg('m1', 'user', [{ text: 'the worker pod is OOMKilled every night' }], 1),
        { ...msg('m2', 'gemini', 'Draft: restart the pod.', 2), model: 'gemini-2.5-pro' },
        msg('m3', 'user', 'and the cron job too?', 3),
        msg('m4', 'info', 'Request cancelled.', 4),
        {
          $patch: {
            id: 'm2',
            content: 'Raise the memory limit to 2Gi; the nightly batch peaks at 1.7Gi.',
            removeIds: ['m4'],
            orderIds: ['m1', 'm2', 'm3'],
          },
        },
        { $patch: { updates: [{ id: 'm3', content: 'and the reindex cron job too?' }] } },
      ]),
    );
    const read = run(env, ['read', '--agent', 'gemini', SID, '--json']);
    expect(texts(read)).toEqual([
      'm1: the worker pod is OOMKilled every night',
      'm2: Raise the memory limit to 2Gi; the nightly batch peaks at 1.7Gi.',
      'm3: and the reindex cron job too?',
    ]);
    // The removed message is kept, taken back: shown with --all and marked.
    const all = run(env, ['read', '--agent', 'gemini', SID, '--all', '--json']);
    expect((all.messages as Obj[]).filter((m) => m.taken_back).map((m) => m.content)).toEqual([
      'Request cancelled.',
    ]);
    const hit = run(env, ['search', 'memory limit', '--agent', 'gemini', '--json']);
    expect((hit.results as Obj[]).map((r) => r.match_message_id)).toEqual(['m2']);
    // The draft the patch replaced is gone from the index; the model stays.
    expect(run(env, ['search', 'Draft restart', '--agent', 'gemini', '--json']).count).toBe(0);
    expect(read.session_meta).toMatchObject({ model: 'gemini-2.5-pro', cwd: '/home/ana/infra' });
    const src = run(env, ['sources', '--json']);
    expect((src.sources as Obj[]).find((s) => s.agent === 'gemini')).toMatchObject({
      conversations: 1,
      messages: 3,
      problems: [],
    });
  });

  it('reorders by orderIds: the listed messages first, in that order', () => {
    const { env, chats } = home('order');
    writeFileSync(
      join(chats, `session-2026-09-02T08-00-${SID.slice(0, 8)}.jsonl`),
      jl([
        header,
        msg('m1', 'user', 'first question about the ingress', 1),
        msg('m2', 'user', 'second question about the ingress', 2),
        { $patch: { orderIds: ['m2', 'm1'] } },
      ]),
    );
    expect(texts(run(env, ['read', '--agent', 'gemini', SID, '--json']))).toEqual([
      'm2: second question about the ingress',
      'm1: first question about the ingress',
    ]);
  });
});

describe('Gemini legacy .json chats', () => {
  const legacy = {
    ...header,
    lastUpdated: '2026-09-02T08:05:00.000Z',
    summary: 'Nightly OOM on the worker',
    messages: [
      msg('m1', 'user', 'the worker pod is OOMKilled every night', 1),
      msg('m2', 'gemini', 'Raise the memory limit to 2Gi.', 2),
    ],
  };

  it('reads a whole-file chat', () => {
    const { env, chats } = home('legacy');
    writeFileSync(
      join(chats, `session-2026-09-02T08-00-${SID.slice(0, 8)}.json`),
      JSON.stringify(legacy),
    );
    const read = run(env, ['read', '--agent', 'gemini', SID, '--json']);
    expect(read.session_meta).toMatchObject({ title: 'Nightly OOM on the worker' });
    expect(texts(read)).toEqual([
      'm1: the worker pod is OOMKilled every night',
      'm2: Raise the memory limit to 2Gi.',
    ]);
  });

  it('reads a resumed chat once: the .jsonl twin wins over the .json', () => {
    const { env, chats } = home('twin');
    const stem = join(chats, `session-2026-09-02T08-00-${SID.slice(0, 8)}`);
    writeFileSync(`${stem}.json`, JSON.stringify(legacy));
    writeFileSync(
      `${stem}.jsonl`,
      jl([header, ...legacy.messages, msg('m3', 'user', 'did the limit hold overnight?', 9)]),
    );
    const s = run(env, ['search', 'OOMKilled', '--agent', 'gemini', '--json']);
    expect(s.count).toBe(1);
    expect(texts(run(env, ['read', '--agent', 'gemini', SID, '--json']))).toHaveLength(3);
    const src = run(env, ['sources', '--json']);
    expect((src.sources as Obj[]).find((x) => x.agent === 'gemini')).toMatchObject({
      conversations: 1,
      messages: 3,
    });
  });
});
