/**
 * A home with every case `lookback stats` must count right (STATS.md): a Hermes
 * store in the agent's real schema with a multi-day session, a compression
 * chain, sessions with and without usage and costs, a second profile in an old
 * layout (no cwd, no tokens); Claude Code files where a resumed session copies
 * earlier calls (same message.id and requestId in two files), a streamed call
 * whose output grows over its lines, a microsecond timestamp and `"usage" : {`
 * spacing; a Codex rollout with cumulative totals and a re-emit; a Gemini chat
 * as a legacy `.json` and its `.jsonl` twin.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';

const t = (iso: string) => Date.parse(iso) / 1000;
const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function hermesHome(home: string): void {
  const main = buildStore(30, (db) => {
    insertSession(db, {
      id: 'sA',
      started_at: t('2026-08-10T10:00:00Z'),
      model: 'anthropic/claude-sonnet-4',
      cwd: '/home/ana/shop',
      end_reason: 'compression',
      input_tokens: 1000,
      output_tokens: 200,
      cache_read_tokens: 500,
      cache_write_tokens: 100,
      actual_cost_usd: 0.5,
    });
    insertMessage(db, {
      session_id: 'sA',
      role: 'user',
      content: 'fix checkout',
      timestamp: t('2026-08-10T10:00:00Z'),
    });
    insertMessage(db, {
      session_id: 'sA',
      role: 'assistant',
      content: 'looking',
      timestamp: t('2026-08-10T10:01:00Z'),
    });
    insertMessage(db, {
      session_id: 'sA',
      role: 'tool',
      content: 'ok',
      tool_call_id: 'c1',
      timestamp: t('2026-08-10T10:02:00Z'),
    });
    insertMessage(db, {
      session_id: 'sA',
      role: 'assistant',
      content: 'done',
      timestamp: t('2026-08-10T10:03:00Z'),
    });
    insertMessage(db, {
      session_id: 'sA',
      role: 'user',
      content: 'and refunds?',
      timestamp: t('2026-08-11T09:00:00Z'),
    });
    insertMessage(db, {
      session_id: 'sA',
      role: 'assistant',
      content: 'also',
      timestamp: t('2026-08-11T09:01:00Z'),
    });
    insertSession(db, {
      id: 'sB',
      parent_session_id: 'sA',
      started_at: t('2026-08-11T09:10:00Z'),
      model: 'anthropic/claude-sonnet-4',
      cwd: '/home/ana/shop',
      input_tokens: 300,
      output_tokens: 60,
      estimated_cost_usd: 0.1,
    });
    insertMessage(db, {
      session_id: 'sB',
      role: 'user',
      content: 'go on',
      timestamp: t('2026-08-11T09:10:00Z'),
    });
    insertMessage(db, {
      session_id: 'sB',
      role: 'assistant',
      content: 'went on',
      timestamp: t('2026-08-11T09:11:00Z'),
    });
    insertSession(db, {
      id: 'sC',
      started_at: t('2026-08-12T12:00:00Z'),
      model: 'nous/hermes-4-405b',
      cwd: '/home/ana/blog',
    });
    insertMessage(db, {
      session_id: 'sC',
      role: 'user',
      content: 'draft a post',
      timestamp: t('2026-08-12T12:00:00Z'),
    });
    insertMessage(db, {
      session_id: 'sC',
      role: 'assistant',
      content: 'drafted',
      timestamp: t('2026-08-12T12:00:30Z'),
    });
    insertSession(db, {
      id: 'sD',
      started_at: t('2026-08-12T13:00:00Z'),
      model: 'nous/hermes-4-405b',
      cwd: '/home/ana/blog',
      input_tokens: 400,
      output_tokens: 100,
    });
    insertMessage(db, {
      session_id: 'sD',
      role: 'assistant',
      content: 'hello',
      timestamp: t('2026-08-12T13:00:00Z'),
    });
  });
  const work = buildStore(6, (db) => {
    insertSession(db, { id: 'sW', started_at: t('2026-08-13T08:00:00Z'), model: 'openai/gpt-5' });
    insertMessage(db, {
      session_id: 'sW',
      role: 'user',
      content: 'cron report',
      timestamp: t('2026-08-13T08:00:00Z'),
    });
    insertMessage(db, {
      session_id: 'sW',
      role: 'assistant',
      content: 'report',
      timestamp: t('2026-08-13T08:00:10Z'),
    });
  });
  mkdirSync(join(home, '.hermes', 'profiles', 'work'), { recursive: true });
  copyFileSync(main, join(home, '.hermes', 'state.db'));
  copyFileSync(work, join(home, '.hermes', 'profiles', 'work', 'state.db'));
}

const CLAUDE_MODEL = 'claude-sonnet-4-5-20250929';

function claudeLine(o: {
  uuid: string;
  parent: string | null;
  session: string;
  ts: string;
  id: string;
  req: string;
  usage: Record<string, number>;
  text: string;
}): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: o.uuid,
    parentUuid: o.parent,
    sessionId: o.session,
    cwd: '/home/ana/shop',
    isSidechain: false,
    requestId: o.req,
    timestamp: o.ts,
    message: {
      id: o.id,
      role: 'assistant',
      model: CLAUDE_MODEL,
      content: [{ type: 'text', text: o.text }],
      usage: o.usage,
    },
  };
}

export const CLAUDE_S1 = '11111111-2222-4333-8444-000000000001';
export const CLAUDE_S2 = '11111111-2222-4333-8444-000000000002';

export function claudeHome(home: string): void {
  const proj = join(home, '.claude', 'projects', '-home-ana-shop');
  mkdirSync(proj, { recursive: true });
  const user = (uuid: string, session: string, ts: string, text: string) => ({
    type: 'user',
    uuid,
    parentUuid: null,
    sessionId: session,
    cwd: '/home/ana/shop',
    isSidechain: false,
    timestamp: ts,
    message: { role: 'user', content: text },
  });
  const a1 = (session: string) =>
    claudeLine({
      uuid: 'a-1',
      parent: 'u-1',
      session,
      ts: '2026-08-10T10:00:05.123456Z',
      id: 'msg_A',
      req: 'req_1',
      usage: {
        input_tokens: 10000,
        output_tokens: 5,
        cache_read_input_tokens: 100000,
        cache_creation_input_tokens: 20000,
      },
      text: 'part one',
    });
  const a1b = (session: string) =>
    claudeLine({
      uuid: 'a-1b',
      parent: 'a-1',
      session,
      ts: '2026-08-10T10:00:06.000Z',
      id: 'msg_A',
      req: 'req_1',
      usage: {
        input_tokens: 10000,
        output_tokens: 30000,
        cache_read_input_tokens: 100000,
        cache_creation_input_tokens: 20000,
      },
      text: 'part two',
    });
  // `"usage" : {` with spaces, as some writers emit: parsed as JSON, not matched as text.
  const a2 = (session: string) =>
    JSON.stringify(
      claudeLine({
        uuid: 'a-2',
        parent: 'a-1b',
        session,
        ts: '2026-08-10T10:04:00+00:00',
        id: 'msg_B',
        req: 'req_2',
        usage: { input_tokens: 4000, output_tokens: 6000 },
        text: 'second answer',
      }),
    )
      .replace('"usage":{', '"usage" : { ')
      .replace(/}}$/, '} }');
  writeFileSync(
    join(proj, `${CLAUDE_S1}.jsonl`),
    jl([
      user('u-1', CLAUDE_S1, '2026-08-10T10:00:00.000Z', 'why does checkout double-charge?'),
      a1(CLAUDE_S1),
      a1b(CLAUDE_S1),
    ]) +
      a2(CLAUDE_S1) +
      '\n',
  );
  // The resumed session starts with copies of the first one's lines (same ids), then its own call.
  writeFileSync(
    join(proj, `${CLAUDE_S2}.jsonl`),
    jl([
      user('u-1', CLAUDE_S2, '2026-08-10T10:00:00.000Z', 'why does checkout double-charge?'),
      a1(CLAUDE_S2),
      a1b(CLAUDE_S2),
    ]) +
      a2(CLAUDE_S2) +
      '\n' +
      jl([
        user('u-3', CLAUDE_S2, '2026-08-11T08:00:00.000Z', 'now the refunds'),
        claudeLine({
          uuid: 'a-3',
          parent: 'u-3',
          session: CLAUDE_S2,
          ts: '2026-08-11T08:00:09.000Z',
          id: 'msg_C',
          req: 'req_3',
          usage: { input_tokens: 7000, output_tokens: 8000 },
          text: 'refunds fixed',
        }),
      ]),
  );
}

export const CODEX_ID = '0199a3e2-7c1d-7000-8000-00000000abcd';

export function codexHome(home: string): void {
  const day = join(home, '.codex', 'sessions', '2026', '08', '12');
  mkdirSync(day, { recursive: true });
  const tc = (ts: string, total: number[], last: number[]) => {
    const u = (v: number[]) => ({
      input_tokens: v[0],
      cached_input_tokens: v[1],
      output_tokens: v[2],
      reasoning_output_tokens: v[3],
      total_tokens: v[4],
    });
    return {
      timestamp: ts,
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: { total_token_usage: u(total), last_token_usage: u(last) },
      },
    };
  };
  writeFileSync(
    join(day, `rollout-2026-08-12T09-00-00-${CODEX_ID}.jsonl`),
    jl([
      {
        timestamp: '2026-08-12T09:00:00.000Z',
        type: 'session_meta',
        payload: {
          id: CODEX_ID,
          timestamp: '2026-08-12T09:00:00.000Z',
          cwd: '/home/ana/api',
          originator: 'codex_cli_rs',
          cli_version: '0.50.0',
          source: 'cli',
          model_provider: 'openai',
        },
      },
      {
        timestamp: '2026-08-12T09:00:01.000Z',
        type: 'turn_context',
        payload: { cwd: '/home/ana/api', model: 'gpt-5-codex' },
      },
      {
        timestamp: '2026-08-12T09:00:02.000Z',
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'add a rate limiter' }],
        },
      },
      tc(
        '2026-08-12T09:00:10.000Z',
        [1_000_000, 400_000, 200_000, 50_000, 1_200_000],
        [1_000_000, 400_000, 200_000, 50_000, 1_200_000],
      ),
      // The same total again: a re-emit, not a call.
      tc(
        '2026-08-12T09:00:11.000Z',
        [1_000_000, 400_000, 200_000, 50_000, 1_200_000],
        [1_000_000, 400_000, 200_000, 50_000, 1_200_000],
      ),
      {
        timestamp: '2026-08-12T09:00:12.000Z',
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'added' }],
        },
      },
      tc(
        '2026-08-12T09:00:20.000Z',
        [1_500_000, 600_000, 300_000, 80_000, 1_800_000],
        [500_000, 200_000, 100_000, 30_000, 600_000],
      ),
    ]),
  );
}

export const GEMINI_ID = '8d7e41aa-0000-4000-8000-0000000000aa';

export function geminiHome(home: string): void {
  const dir = join(home, '.gemini', 'tmp', 'web', 'chats');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.gemini', 'tmp', 'web', '.project_root'), '/home/ana/web\n');
  const msgs = [
    { id: 'm1', timestamp: '2026-08-13T10:00:00.000Z', type: 'user', content: 'run the tests' },
    {
      id: 'm2',
      timestamp: '2026-08-13T10:00:05.000Z',
      type: 'gemini',
      content: 'all green',
      model: 'gemini-2.5-pro',
      tokens: {
        input: 100_000,
        output: 20_000,
        cached: 40_000,
        thoughts: 10_000,
        tool: 0,
        total: 130_000,
      },
    },
  ];
  const header = {
    sessionId: GEMINI_ID,
    projectHash: 'c0ffee',
    startTime: '2026-08-13T10:00:00.000Z',
    lastUpdated: '2026-08-13T10:00:05.000Z',
  };
  writeFileSync(
    join(dir, `session-2026-08-13T10-00-${GEMINI_ID.slice(0, 8)}.json`),
    JSON.stringify({ ...header, messages: msgs }),
  );
  writeFileSync(
    join(dir, `session-2026-08-13T10-00-${GEMINI_ID.slice(0, 8)}.jsonl`),
    jl([header, ...msgs]),
  );
}

export function statsHome(home: string): void {
  hermesHome(home);
  claudeHome(home);
  codexHome(home);
  geminiHome(home);
}
