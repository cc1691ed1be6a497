/**
 * opencode before 1.2 kept JSON under `storage/` (AGENTS.md §4.1); 1.2+ imports it
 * into opencode.db once and leaves it on disk. Read for sessions the database
 * lacks, with the database's anchors; a session in both is one conversation, from
 * the database. Through the built CLI, asserting on the text shown.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { IDS, hashTree, opencodeDb } from './samples.js';

type Obj = Record<string, unknown>;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-opencode-legacy-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function home(name: string): { env: NodeJS.ProcessEnv; data: string } {
  const h = join(dir, name);
  const data = join(h, '.local', 'share', 'opencode');
  mkdirSync(data, { recursive: true });
  return {
    data,
    env: { HOME: h, LOOKBACK_INDEX: join(h, 'index.db'), XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' },
  };
}

function run(env: NodeJS.ProcessEnv, args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) => (p.messages as Obj[]).map((m) => `${String(m.id)}: ${String(m.content)}`);
const put = (path: string, v: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof v === 'string' ? v : JSON.stringify(v));
};

/** A pre-1.2 tree: one project, a session with a tool call, and `extra` more sessions. */
function legacyTree(data: string, sessionId: string, title: string): void {
  const s = join(data, 'storage');
  put(join(s, 'project', 'prj_legacy.json'), {
    id: 'prj_legacy',
    worktree: '/home/ana/api',
    vcs: 'git',
  });
  put(join(s, 'session', 'prj_legacy', `${sessionId}.json`), {
    id: sessionId,
    projectID: 'prj_legacy',
    title,
    version: '0.15.2',
    time: { created: 1750000000000, updated: 1750000300000 },
  });
  put(join(s, 'message', sessionId, 'msg_L1.json'), {
    id: 'msg_L1',
    sessionID: sessionId,
    role: 'user',
    time: { created: 1750000001000 },
  });
  put(join(s, 'part', 'msg_L1', 'prt_L1.json'), {
    id: 'prt_L1',
    messageID: 'msg_L1',
    sessionID: sessionId,
    type: 'text',
    text: 'the CSV importer chokes on semicolon separators',
  });
  put(join(s, 'message', sessionId, 'msg_L2.json'), {
    id: 'msg_L2',
    sessionID: sessionId,
    role: 'assistant',
    modelID: 'claude-sonnet-x',
    providerID: 'anthropic',
    path: { cwd: '/home/ana/api', root: '/home/ana/api' },
    time: { created: 1750000002000, completed: 1750000009000 },
  });
  put(join(s, 'part', 'msg_L2', 'prt_L2a.json'), {
    id: 'prt_L2a',
    messageID: 'msg_L2',
    sessionID: sessionId,
    type: 'tool',
    callID: 'toolu_9',
    tool: 'grep',
    state: {
      status: 'completed',
      input: { pattern: 'csv.reader' },
      output: 'src/import.py:14: csv.reader(f)',
    },
  });
  put(join(s, 'part', 'msg_L2', 'prt_L2b.json'), {
    id: 'prt_L2b',
    messageID: 'msg_L2',
    sessionID: sessionId,
    type: 'text',
    text: 'Sniff the dialect with csv.Sniffer before building the reader.',
  });
}

describe('opencode legacy storage/', () => {
  it('reads the JSON tree read-only, with the same anchors as the database', () => {
    const { env, data } = home('only');
    legacyTree(data, 'ses_L001', 'CSV import dialects');
    put(join(data, 'storage', 'part', 'msg_L1', 'prt_bad.json'), '{"id": "prt_bad", "ty');
    const before = hashTree(data);
    const read = run(env, ['read', '--agent', 'opencode', 'ses_L001', '--json']);
    expect(read.session_meta).toMatchObject({ title: 'CSV import dialects', cwd: '/home/ana/api' });
    expect(texts(read)).toEqual([
      'msg_L1: the CSV importer chokes on semicolon separators',
      'msg_L2: Sniff the dialect with csv.Sniffer before building the reader.',
      'prt_L2a: src/import.py:14: csv.reader(f)',
    ]);
    const hit = run(env, ['search', 'Sniffer dialect', '--agent', 'opencode', '--json']);
    expect((hit.results as Obj[]).map((r) => [r.session_id, r.match_message_id])).toEqual([
      ['ses_L001', 'msg_L2'],
    ]);
    const src = (run(env, ['sources', '--json']).sources as Obj[]).find(
      (s) => s.agent === 'opencode',
    );
    expect(src).toMatchObject({
      conversations: 1,
      problems: [
        {
          reason: 'legacy storage file is not valid JSON (truncated or garbage)',
          count: 1,
          files: 1,
        },
      ],
    });
    expect(hashTree(data)).toEqual(before);
  });

  it('a session the database imported is read from the database, once', () => {
    const { env, data } = home('both');
    opencodeDb(join(data, '..', '..', '..'));
    // The tree 1.2 imported (same session id, an older state) plus a session it never imported.
    legacyTree(data, IDS.opencode, 'an older title');
    legacyTree(data, 'ses_L002', 'CSV import dialects');
    run(env, ['index', '--json']);
    const read = run(env, ['read', '--agent', 'opencode', IDS.opencode, '--json']);
    expect(read.session_meta).toMatchObject({ title: 'Fix hydration warning' });
    expect(texts(read)[0]).toBe('msg_9Aa: the hydration warning on the pricing page is back');
    const s = run(env, ['search', 'semicolon separators', '--agent', 'opencode', '--json']);
    expect((s.results as Obj[]).map((r) => r.session_id)).toEqual(['ses_L002']);
    const src = (run(env, ['sources', '--json']).sources as Obj[]).find(
      (x) => x.agent === 'opencode',
    );
    expect(src).toMatchObject({ conversations: 3 });
  });
});
