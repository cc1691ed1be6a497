/**
 * Realistic sample histories for every agent, in the formats docs/spec/AGENTS.md
 * describes, with the awkward cases it lists: streaming chunks sharing one
 * message.id, compaction, a subagent, duplicated Codex prompts, a fork, Gemini
 * upserts and a rewind, an opencode child session, PraisonAI archived turns.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openIndex } from '../../src/agents/indexDb.js';
import { indexAll } from '../../src/agents/indexer.js';
import { AGENTS } from '../../src/agents/model.js';

const jl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export const IDS = {
  claude: '5f0c1111-2222-4333-8444-555566667777',
  claudeAgent: 'a91c',
  codex: '0199a3e2-7c1d-7000-8000-00000000c0de',
  codexFork: '0199a3e2-7c1d-7000-8000-00000000f0f0',
  gemini: '8d7e41aa-0000-4000-8000-000000000001',
  opencode: 'ses_8Zq001',
  opencodeChild: 'ses_8Zq002',
  praisonai: 'tg-4411',
};

/** The main Claude Code transcript claudeFiles() writes under `home` (the one a test appends to). */
export function claudeFile(home: string): string {
  const dir = join(home, '.claude', 'projects', '-home-ana-shop');
  return join(
    dir,
    readdirSync(dir).find((n) => n.endsWith('.jsonl'))!,
  );
}

export function claudeFiles(home: string): void {
  const proj = join(home, '.claude', 'projects', '-home-ana-shop');
  mkdirSync(join(proj, IDS.claude, 'subagents'), { recursive: true });
  const base = {
    sessionId: IDS.claude,
    cwd: '/home/ana/shop',
    gitBranch: 'main',
    version: '2.1.240',
    userType: 'external',
    isSidechain: false,
  };
  writeFileSync(
    join(proj, `${IDS.claude}.jsonl`),
    jl([
      {
        type: 'user',
        uuid: 'u-1',
        parentUuid: null,
        ...base,
        timestamp: '2026-08-20T09:14:02.511Z',
        message: { role: 'user', content: 'why does checkout double-charge?' },
      },
      {
        type: 'assistant',
        uuid: 'a-1',
        parentUuid: 'u-1',
        ...base,
        requestId: 'req_9',
        timestamp: '2026-08-20T09:14:05.020Z',
        message: {
          id: 'msg_01X',
          role: 'assistant',
          model: 'claude-sonnet-x',
          content: [{ type: 'thinking', thinking: 'Look for charge( callers.', signature: 'sig' }],
          usage: { input_tokens: 12, output_tokens: 40 },
        },
      },
      {
        type: 'assistant',
        uuid: 'a-2',
        parentUuid: 'a-1',
        ...base,
        requestId: 'req_9',
        timestamp: '2026-08-20T09:14:05.400Z',
        message: {
          id: 'msg_01X',
          role: 'assistant',
          model: 'claude-sonnet-x',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'Grep', input: { pattern: 'charge(' } },
          ],
          usage: { input_tokens: 12, output_tokens: 40 },
        },
      },
      {
        type: 'user',
        uuid: 'u-2',
        parentUuid: 'a-2',
        ...base,
        timestamp: '2026-08-20T09:14:06.100Z',
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: 'src/pay.ts:88: chargeCustomer retryPolicy',
            },
          ],
        },
        toolUseResult: { persistedOutputPath: '/x' },
      },
      { type: 'file-history-snapshot', messageId: 'u-2', snapshot: {} },
      {
        type: 'user',
        uuid: 'u-meta',
        parentUuid: 'u-2',
        ...base,
        isMeta: true,
        timestamp: '2026-08-20T09:14:06.200Z',
        message: { role: 'user', content: '<command-name>/clear</command-name>' },
      },
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'c-1',
        parentUuid: null,
        // The last entry before the compaction, as Claude Code links it.
        logicalParentUuid: 'u-meta',
        ...base,
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 168000 },
        timestamp: '2026-08-20T09:20:00.000Z',
      },
      {
        type: 'user',
        uuid: 'u-3',
        parentUuid: 'c-1',
        ...base,
        isCompactSummary: true,
        timestamp: '2026-08-20T09:20:01.000Z',
        message: {
          role: 'user',
          content: 'Summary: the double charge comes from a retry in pay.ts',
        },
      },
      {
        type: 'user',
        uuid: 'u-4',
        parentUuid: 'u-3',
        ...base,
        timestamp: '2026-08-20T09:21:00.000Z',
        message: { role: 'user', content: 'make the idempotency key mandatory' },
      },
      {
        type: 'assistant',
        uuid: 'a-3',
        parentUuid: 'u-4',
        ...base,
        timestamp: '2026-08-20T09:21:04.000Z',
        message: {
          id: 'msg_02Y',
          role: 'assistant',
          model: 'claude-sonnet-x',
          content: [
            {
              type: 'text',
              text: 'Done: the idempotency key is now required by the payment gateway.',
            },
          ],
        },
      },
      { type: 'brand-new-type', uuid: 'z', foo: 1 },
      { type: 'custom-title', customTitle: 'checkout double charge', sessionId: IDS.claude },
    ]),
  );
  writeFileSync(
    join(proj, IDS.claude, 'subagents', `agent-${IDS.claudeAgent}.jsonl`),
    jl([
      {
        type: 'user',
        uuid: 's-1',
        parentUuid: null,
        isSidechain: true,
        agentId: IDS.claudeAgent,
        sessionId: IDS.claude,
        cwd: '/home/ana/shop',
        timestamp: '2026-08-20T09:15:00.000Z',
        message: { role: 'user', content: 'List every caller of charge()' },
      },
      {
        type: 'assistant',
        uuid: 's-2',
        parentUuid: 's-1',
        isSidechain: true,
        agentId: IDS.claudeAgent,
        sessionId: IDS.claude,
        timestamp: '2026-08-20T09:15:09.000Z',
        message: {
          id: 'msg_s',
          role: 'assistant',
          content: [
            { type: 'text', text: 'Three callers: checkout, refund and the nightly reconciler.' },
          ],
        },
      },
    ]),
  );
  writeFileSync(
    join(proj, IDS.claude, 'subagents', `agent-${IDS.claudeAgent}.meta.json`),
    JSON.stringify({ agentType: 'Explore', spawnDepth: 1, model: 'claude-haiku-x' }),
  );
}

export function codexLines(): unknown[] {
  return [
    {
      timestamp: '2026-08-19T07:02:11.004Z',
      type: 'session_meta',
      payload: {
        id: IDS.codex,
        timestamp: '2026-08-19T07:02:11.000Z',
        cwd: '/home/ana/api',
        originator: 'codex_cli_rs',
        cli_version: '0.140.0',
        source: 'cli',
        model_provider: 'openai',
        git: { branch: 'fix/rate', commit_hash: '3e1', repository_url: 'git@example:api' },
      },
    },
    {
      timestamp: '2026-08-19T07:02:12.000Z',
      type: 'turn_context',
      payload: { cwd: '/home/ana/api', model: 'gpt-5-codex', effort: 'medium' },
    },
    {
      timestamp: '2026-08-19T07:02:12.100Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '<environment_context>cwd /home/ana/api</environment_context>',
          },
        ],
      },
    },
    {
      timestamp: '2026-08-19T07:02:13.000Z',
      type: 'event_msg',
      payload: {
        type: 'user_message',
        message: 'add a rate limiter to the token bucket middleware',
      },
    },
    {
      timestamp: '2026-08-19T07:02:13.001Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'add a rate limiter to the token bucket middleware' },
        ],
      },
    },
    {
      timestamp: '2026-08-19T07:02:14.000Z',
      type: 'response_item',
      payload: {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Find the middleware first.' }],
        encrypted_content: 'gAAA',
      },
    },
    {
      timestamp: '2026-08-19T07:02:15.000Z',
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell_command',
        arguments: '{"command":"rg limiter"}',
        call_id: 'call_7',
      },
    },
    {
      timestamp: '2026-08-19T07:02:16.000Z',
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: 'call_7',
        output: 'src/mw.rs:12 struct Limiter',
      },
    },
    {
      timestamp: '2026-08-19T07:02:17.000Z',
      type: 'event_msg',
      payload: {
        type: 'token_count',
        info: { last_token_usage: { input_tokens: 900, output_tokens: 120 } },
      },
    },
    {
      timestamp: '2026-08-19T07:02:18.000Z',
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Added a sliding window limiter in mw.rs.' }],
      },
    },
  ];
}

export function codexFiles(home: string): void {
  const day = join(home, '.codex', 'sessions', '2026', '08', '19');
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, `rollout-2026-08-19T09-02-11-${IDS.codex}.jsonl`), jl(codexLines()));
  // A fork: its own session_meta, then a copy of the parent's lines, then its own turn.
  const forkStart = '2026-08-19T08:00:00.000Z';
  const copy = codexLines().map((l) => ({ ...(l as object), timestamp: forkStart }));
  writeFileSync(
    join(day, `rollout-2026-08-19T10-00-00-${IDS.codexFork}.jsonl`),
    jl([
      {
        timestamp: forkStart,
        type: 'session_meta',
        payload: {
          id: IDS.codexFork,
          forked_from_id: IDS.codex,
          timestamp: forkStart,
          cwd: '/home/ana/api',
          source: 'cli',
        },
      },
      ...copy,
      {
        timestamp: '2026-08-19T08:05:00.000Z',
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'now try a leaky bucket instead' }],
        },
      },
    ]),
  );
  // Thread names: append-only, the newest wins.
  writeFileSync(
    join(home, '.codex', 'session_index.jsonl'),
    jl([
      { id: IDS.codex, thread_name: 'rate limiter', updated_at: '2026-08-19T07:03:00Z' },
      { id: IDS.codex, thread_name: 'token bucket limiter', updated_at: '2026-08-19T07:09:00Z' },
    ]),
  );
  // Archived and compressed: skipped with a counted reason.
  const arch = join(home, '.codex', 'archived_sessions');
  mkdirSync(arch, { recursive: true });
  writeFileSync(
    join(arch, 'rollout-2026-07-01T10-00-00-0199a3e2-7c1d-7000-8000-0000000000aa.jsonl.zst'),
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 1, 2]),
  );
}

export function geminiFiles(home: string): void {
  const dir = join(home, '.gemini', 'tmp', 'web', 'chats');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.gemini', 'tmp', 'web', '.project_root'), '/home/ana/web\n');
  writeFileSync(
    join(dir, `session-2026-08-20T10-01-${IDS.gemini.slice(0, 8)}.jsonl`),
    jl([
      {
        sessionId: IDS.gemini,
        projectHash: 'c0ffee',
        startTime: '2026-08-20T10:01:00.000Z',
        lastUpdated: '2026-08-20T10:01:00.000Z',
        kind: 'main',
      },
      {
        id: 'm1',
        timestamp: '2026-08-20T10:01:04.000Z',
        type: 'user',
        content: [{ text: 'why is the build red?' }],
      },
      {
        id: 'm2',
        timestamp: '2026-08-20T10:01:06.000Z',
        type: 'gemini',
        content: 'Let me run the tests.',
        model: 'gemini-2.5-pro',
        thoughts: [{ subject: 'Plan', description: 'run npm test', timestamp: 'x' }],
        toolCalls: [
          {
            id: 'run_shell_command-1',
            name: 'run_shell_command',
            args: { command: 'npm test' },
            status: 'executing',
          },
        ],
      },
      {
        id: 'm2',
        timestamp: '2026-08-20T10:01:09.000Z',
        type: 'gemini',
        content: 'Let me run the tests.',
        model: 'gemini-2.5-pro',
        toolCalls: [
          {
            id: 'run_shell_command-1',
            name: 'run_shell_command',
            args: { command: 'npm test' },
            status: 'success',
            result: [
              {
                functionResponse: {
                  name: 'run_shell_command',
                  response: { output: '2 failing: snapshot mismatch in header' },
                },
              },
            ],
          },
        ],
        tokens: { input: 800, output: 60, cached: 0, total: 860 },
      },
      {
        $set: {
          lastUpdated: '2026-08-20T10:02:30.000Z',
          summary: 'Red build from snapshot mismatch',
        },
      },
      {
        id: 'm3',
        timestamp: '2026-08-20T10:03:00.000Z',
        type: 'user',
        content: 'no, try the lint step',
      },
      { $rewindTo: 'm3' },
    ]),
  );
}

export function opencodeDb(home: string): string {
  const dir = join(home, '.local', 'share', 'opencode');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'opencode.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT, vcs TEXT, name TEXT);
    CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT, title TEXT, version TEXT,
      revert TEXT, model TEXT, time_created INTEGER, time_updated INTEGER, time_archived INTEGER);
    CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
    CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
    CREATE INDEX message_session ON message(session_id);
    CREATE INDEX part_session ON part(session_id);
  `);
  const s = db.prepare(
    `INSERT INTO session VALUES (?, 'prj_1', ?, 'slug', '/home/ana/web', ?, '1.2.0', NULL, ?, ?, ?, NULL)`,
  );
  s.run(
    IDS.opencode,
    null,
    'Fix hydration warning',
    JSON.stringify({ providerID: 'anthropic', modelID: 'claude-opus-x' }),
    1755684000000,
    1755684300000,
  );
  s.run(IDS.opencodeChild, IDS.opencode, 'Explore components', null, 1755684100000, 1755684200000);
  const m = db.prepare(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`);
  const p = db.prepare(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`);
  m.run('msg_9Aa', IDS.opencode, 1755684001000, 1755684001000, JSON.stringify({ role: 'user' }));
  p.run(
    'prt_1',
    'msg_9Aa',
    IDS.opencode,
    1755684001000,
    1755684001000,
    JSON.stringify({ type: 'text', text: 'the hydration warning on the pricing page is back' }),
  );
  m.run(
    'msg_9Ab',
    IDS.opencode,
    1755684002000,
    1755684006000,
    JSON.stringify({
      role: 'assistant',
      modelID: 'claude-opus-x',
      tokens: { input: 1200, output: 90 },
    }),
  );
  p.run(
    'prt_2',
    'msg_9Ab',
    IDS.opencode,
    1755684002000,
    1755684002000,
    JSON.stringify({ type: 'reasoning', text: 'Dates rendered on the server differ.' }),
  );
  p.run(
    'prt_3',
    'msg_9Ab',
    IDS.opencode,
    1755684003000,
    1755684006000,
    JSON.stringify({
      type: 'tool',
      callID: 'toolu_5',
      tool: 'bash',
      state: { status: 'completed', input: { command: 'npm run build' }, output: 'built in 4s' },
    }),
  );
  p.run(
    'prt_4',
    'msg_9Ab',
    IDS.opencode,
    1755684006000,
    1755684006000,
    JSON.stringify({
      type: 'text',
      text: 'The timestamp in PriceTag renders differently on server and client.',
    }),
  );
  m.run(
    'msg_c1',
    IDS.opencodeChild,
    1755684100000,
    1755684100000,
    JSON.stringify({ role: 'user' }),
  );
  p.run(
    'prt_c1',
    'msg_c1',
    IDS.opencodeChild,
    1755684100000,
    1755684100000,
    JSON.stringify({ type: 'text', text: 'find components using toLocaleString' }),
  );
  db.close();
  return path;
}

export function praisonaiFiles(home: string): void {
  const dir = join(home, '.praisonai', 'sessions');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tg-4411.json'),
    JSON.stringify({
      session_id: IDS.praisonai,
      created_at: '2026-08-01T08:00:00Z',
      updated_at: '2026-08-21T19:30:12Z',
      agent_name: 'ops-bot',
      metadata: { source: 'telegram', title: 'VPN fixes' },
      archived_messages: [
        {
          role: 'user',
          content: 'the wireguard tunnel drops every hour',
          timestamp: 1754035200.2,
          metadata: {},
        },
        {
          role: 'assistant',
          content: 'Set PersistentKeepalive to 25 on the client peer.',
          timestamp: 1754035210.0,
          metadata: {},
        },
      ],
      messages: [
        {
          role: 'system',
          content: 'Summary of earlier turns: keepalive fix',
          timestamp: 1755600000.0,
          metadata: {},
        },
        {
          role: 'user',
          content: 'remind me of the VPN fix',
          timestamp: 1755600000.1,
          metadata: {},
        },
        {
          role: 'assistant',
          content: '',
          timestamp: 1755600002.4,
          metadata: {},
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'session_search', arguments: '{"query":"VPN"}' },
            },
          ],
        },
        {
          role: 'tool',
          content: 'PersistentKeepalive = 25',
          tool_call_id: 'call_1',
          timestamp: 1755600003.0,
          metadata: {},
        },
      ],
      last_compaction: {
        summary: 'keepalive fix',
        message_index: 0,
        role: 'system',
        tokens_before: 9000,
        tokens_after: 1200,
        timestamp: 1755599999.0,
      },
    }),
  );
  writeFileSync(join(dir, 'tg-4411.json.lock'), '');
  writeFileSync(join(dir, 'broken.json'), '{"session_id": "half');
}

/** All five agents under one fake home. */
export function buildHome(home: string): void {
  claudeFiles(home);
  codexFiles(home);
  geminiFiles(home);
  opencodeDb(home);
  praisonaiFiles(home);
}

/** All five agents under `home`, read into lookback's index at `indexFile` (every agent, that home alone). */
export function indexSamples(home: string, indexFile: string): void {
  buildHome(home);
  const { db } = openIndex(indexFile);
  try {
    indexAll(db, {
      env: { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' },
      agents: [...AGENTS],
    });
  } finally {
    db.close();
  }
}

/** sha256 of every file under `dir`, to prove the agents' files are unchanged. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else
        out[p] =
          `${statSync(p).size}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}
