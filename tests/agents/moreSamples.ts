/**
 * Sample histories of the agents of AGENTS.md §9, in each agent's real on-disk
 * shape: the JSONL records their recorders write, Aider's Markdown as io.py
 * appends it, and SQLite databases built with the agents' own CREATE TABLE
 * statements (Crush's goose migrations, Goose's create_schema). Invented values,
 * real field names; each carries its awkward cases.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MORE = {
  qwen: 'b7e2c1d4-5f60-4a1b-9c2d-3e4f5a6b7c8d',
  kimi: '4f1d2c3b-aa55-4e6f-8a9b-0c1d2e3f4a5b',
  kimiSub: 'agent-7c1e',
  copilot: '0d9c8b7a-6f5e-4d3c-2b1a-0f9e8d7c6b5a',
  crush: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
  crushTask: 'toolu_01CrushTaskA',
  goose: '20261104_7',
  cursor: '5c0e7f3a-9b21-4d6e-8f40-1a2b3c4d5e6f',
  cursorSub: '7d8e9f00-1a2b-4c3d-9e8f-001122334455',
  cursorOld: '0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9',
  roo: '019a7c2e-1b3d-7e4f-8a5b-6c7d8e9f0a1b',
  rooSub: '019a7c2f-2c4e-7f50-9b6c-7d8e9f0a1b2c',
  cline: '1793880000123',
  kilo: '019a8000-aaaa-7bbb-8ccc-dddddddddddd',
  kiloTorn: '019a8001-aaaa-7bbb-8ccc-eeeeeeeeeeee',
} as const;

const lines = (recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';

export const QWEN_CWD = '/home/ana/src/shop';
export function qwenPath(home: string): string {
  return join(home, '.qwen', 'projects', '-home-ana-src-shop', 'chats', `${MORE.qwen}.jsonl`);
}

/** chatRecordingService.ts ChatRecords; the last line is still being written (no newline). */
export function qwenFiles(home: string): void {
  const base = (uuid: string, parentUuid: string | null, t: string) => ({
    uuid,
    parentUuid,
    sessionId: MORE.qwen,
    timestamp: t,
    cwd: QWEN_CWD,
    version: '0.18.2',
    gitBranch: 'main',
  });
  const recs = [
    {
      ...base('q-u1', null, '2026-11-02T09:00:00.000Z'),
      type: 'user',
      message: {
        role: 'user',
        parts: [{ text: 'the basket total shows NaN when a coupon expires' }],
      },
    },
    {
      ...base('q-a1', 'q-u1', '2026-11-02T09:00:05.000Z'),
      type: 'assistant',
      model: 'qwen3-coder-plus',
      usageMetadata: { input: 900, output: 120, cached: 0, total: 1020 },
      message: {
        role: 'model',
        parts: [
          { text: 'Coupon lookup returns undefined after expiry.', thought: true },
          { text: 'Let me read the basket reducer.' },
          { functionCall: { id: 'call_q1', name: 'read_file', args: { path: 'src/basket.ts' } } },
        ],
      },
    },
    {
      ...base('q-t1', 'q-a1', '2026-11-02T09:00:06.000Z'),
      type: 'tool_result',
      message: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'call_q1',
              name: 'read_file',
              response: {
                output: 'export const total = (items, coupon) => sum(items) * coupon.rate;',
              },
            },
          },
        ],
      },
      toolCallResult: { callId: 'call_q1', status: 'success' },
    },
    {
      ...base('q-a2', 'q-t1', '2026-11-02T09:00:09.000Z'),
      type: 'assistant',
      model: 'qwen3-coder-plus',
      message: {
        role: 'model',
        parts: [{ text: 'Default the coupon rate to 1 so an expired coupon multiplies by one.' }],
      },
    },
    {
      ...base('q-s1', 'q-a2', '2026-11-02T09:10:00.000Z'),
      type: 'system',
      subtype: 'chat_compression',
      systemPayload: { info: { originalTokenCount: 90000, newTokenCount: 8000 } },
    },
  ];
  const p = qwenPath(home);
  mkdirSync(join(p, '..'), { recursive: true });
  // A session started and left before its first message: the recorder's empty file.
  writeFileSync(join(p, '..', '5d0c9e8f-0000-4000-8000-00000000e4e4.jsonl'), '');
  writeFileSync(
    p,
    lines(recs) +
      JSON.stringify({ ...base('q-u2', 'q-s1', '2026-11-02T09:11:00.000Z'), type: 'user' }).slice(
        0,
        60,
      ),
  );
}

export const KIMI_CWD = '/home/ana/src/ledger';
export function kimiDir(home: string): string {
  const md5 = createHash('md5').update(KIMI_CWD, 'utf8').digest('hex');
  return join(home, '.kimi', 'sessions', md5, MORE.kimi);
}

/** kosong Messages with the `_`-role bookkeeping lines, kimi.json, state.json, wire.jsonl, a subagent. */
export function kimiFiles(home: string): void {
  const dir = kimiDir(home);
  mkdirSync(join(dir, 'subagents', MORE.kimiSub), { recursive: true });
  writeFileSync(
    join(home, '.kimi', 'kimi.json'),
    JSON.stringify({ work_dirs: [{ path: KIMI_CWD, kaos: 'local', last_session_id: MORE.kimi }] }),
  );
  writeFileSync(
    join(dir, 'state.json'),
    JSON.stringify({ custom_title: 'Ledger rounding', archived: false }),
  );
  writeFileSync(
    join(dir, 'wire.jsonl'),
    lines([
      { type: 'metadata', protocol_version: '1.3' },
      { timestamp: 1793523600.5, message: { type: 'TurnBegin', payload: { user_input: 'x' } } },
    ]),
  );
  writeFileSync(
    join(dir, 'context.jsonl'),
    lines([
      { role: '_system_prompt', content: 'You are Kimi CLI…' },
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'the monthly ledger export drops the last cent on refunds' },
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'Probably float math in the refund path.', encrypted: null },
          { type: 'text', text: 'I will grep the refund formatter.' },
        ],
        tool_calls: [
          {
            type: 'function',
            id: 'tc_k1',
            function: { name: 'Grep', arguments: '{"pattern":"refund"}' },
          },
        ],
      },
      {
        role: 'tool',
        content: 'ledger/refund.py:12: amount = round(total * 0.97, 2)',
        tool_call_id: 'tc_k1',
      },
      { role: '_usage', token_count: 4410 },
      { role: '_checkpoint', id: 1 },
      {
        role: 'assistant',
        content: 'Use Decimal with ROUND_HALF_EVEN in refund.py; float rounding drops the cent.',
      },
    ]),
  );
  // A session opened and closed without a word: an empty context, only bookkeeping.
  const idle = join(dir, '..', '9a9a9a9a-0000-4000-8000-000000000000');
  mkdirSync(idle, { recursive: true });
  writeFileSync(
    join(idle, 'context.jsonl'),
    lines([{ role: '_system_prompt', content: 'You are Kimi CLI…' }]),
  );
  writeFileSync(
    join(dir, 'subagents', MORE.kimiSub, 'context.jsonl'),
    lines([
      { role: 'user', content: 'list every caller of format_refund' },
      { role: 'assistant', content: 'Two callers: ledger/export.py and api/refunds.py.' },
    ]),
  );
}

export function copilotPath(home: string): string {
  return join(home, '.copilot', 'session-state', MORE.copilot, 'events.jsonl');
}

/** copilot-sdk session events as the CLI persists them (ephemeral deltas are never written). */
export function copilotFiles(home: string): void {
  let prev: string | null = null;
  let n = 0;
  const ev = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const id = `c0ffee00-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const e = {
      id,
      parentId: prev,
      timestamp: `2026-11-03T14:00:${String(n).padStart(2, '0')}.000Z`,
      type,
      data,
      ...extra,
    };
    prev = id;
    return e;
  };
  const recs = [
    ev('session.start', {
      sessionId: MORE.copilot,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: '1.4.2',
      startTime: '2026-11-03T14:00:00.000Z',
      selectedModel: 'claude-sonnet-4.5',
      context: { cwd: '/home/ana/src/infra', branch: 'fix/dns', repository: 'ana/infra' },
    }),
    ev('user.message', {
      content: 'why does the staging ingress return 502 after the DNS change?',
    }),
    ev('assistant.turn_start', { turnId: '0' }),
    ev('assistant.message', {
      messageId: 'm1',
      content: '',
      model: 'claude-sonnet-4.5',
      reasoningText: 'Check the upstream service name.',
      toolRequests: [
        {
          toolCallId: 'tool_c1',
          name: 'bash',
          arguments: { command: 'kubectl get svc -n staging' },
        },
      ],
    }),
    ev('tool.execution_start', {
      toolCallId: 'tool_c1',
      toolName: 'bash',
      arguments: { command: 'kubectl get svc' },
    }),
    ev('tool.execution_complete', {
      toolCallId: 'tool_c1',
      success: true,
      result: { content: 'api-gateway   ClusterIP   10.0.4.12   <none>   8080/TCP' },
    }),
    ev('assistant.message', {
      messageId: 'm2',
      content: 'The ingress still points at api-gw; the service was renamed to api-gateway.',
      model: 'claude-sonnet-4.5',
    }),
    ev('session.title_changed', { title: 'Staging ingress 502' }),
    ev('user.message', { content: '<skill>pdf tools loaded</skill>', source: 'skill-pdf' }),
    ev(
      'assistant.message',
      { messageId: 'm3', content: 'Sub-agent: found two ingress manifests referencing api-gw.' },
      { agentId: 'explore-1' },
    ),
  ];
  const p = copilotPath(home);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, lines(recs) + 'not json at all\n');
}

export const AIDER_REPO = (home: string) => join(home, 'src', 'blog');

/** io.py's appends: two runs, a two-line prompt, tool output, a reply with blank lines, a reply still open. */
export function aiderFiles(home: string): void {
  const repo = AIDER_REPO(home);
  // A git root (the walk stops there); a vendored repository inside it is not walked.
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'vendor', 'theme'), { recursive: true });
  writeFileSync(join(repo, 'vendor', 'theme', '.aider.chat.history.md'), '#### not reached  \n');
  const text = [
    '',
    '# aider chat started at 2026-10-30 08:15:02',
    '',
    '> Aider v0.86.1  ',
    '> Main model: anthropic/claude-sonnet-4-5 with diff edit format  ',
    '> Git repo: .git with 41 files  ',
    '',
    '#### the RSS feed lists drafts  ',
    '#### only published posts should appear  ',
    '',
    'The feed builder never checks `draft: true` in the front matter.',
    '',
    'feed.py',
    '```python',
    'posts = [p for p in posts if not p.meta.get("draft")]',
    '```',
    '',
    '> Applied edit to feed.py  ',
    '> Commit 3f2a1bc fix: keep drafts out of the feed  ',
    '',
    '# aider chat started at 2026-11-05 19:40:11',
    '',
    '#### add an Atom feed beside RSS  ',
    '',
    'I will add `atom.py` with the same draft filter',
  ].join('\n');
  // A byte that is not UTF-8 (Latin-1 "café" from a tool's output) inside a tool block.
  const [head, tail] = text.split('41 files');
  writeFileSync(
    join(repo, '.aider.chat.history.md'),
    Buffer.concat([
      Buffer.from(`${head}41 files caf`, 'utf8'),
      Buffer.from([0xe9]),
      Buffer.from(`${tail}\n`, 'utf8'),
    ]),
  );
  writeFileSync(join(repo, '.aider.input.history'), '+the RSS feed lists drafts\n');
}

export function crushDbPath(home: string): string {
  return join(home, 'src', 'api', '.crush', 'crush.db');
}

/** Crush's migrations in order (internal/db/migrations), with its pragmas and triggers. */
export const CRUSH_DDL = `
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    created_at INTEGER NOT NULL   -- Unix timestamp in milliseconds
);
CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at
AFTER UPDATE ON sessions
BEGIN
UPDATE sessions SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);
CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);
CREATE TRIGGER IF NOT EXISTS update_files_updated_at
AFTER UPDATE ON files
BEGIN
UPDATE files SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    finished_at INTEGER,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);
CREATE TRIGGER IF NOT EXISTS update_messages_updated_at
AFTER UPDATE ON messages
BEGIN
UPDATE messages SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END;
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete
AFTER DELETE ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count - 1
WHERE id = old.session_id;
END;
ALTER TABLE sessions ADD COLUMN summary_message_id TEXT;
CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at);
CREATE INDEX IF NOT EXISTS idx_files_created_at ON files (created_at);
ALTER TABLE messages ADD COLUMN provider TEXT;
ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL;
ALTER TABLE sessions ADD COLUMN todos TEXT;
CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
);
CREATE INDEX IF NOT EXISTS idx_read_files_session_id ON read_files (session_id);
CREATE INDEX IF NOT EXISTS idx_read_files_path ON read_files (path);
`;

const part = (type: string, data: Record<string, unknown>) => ({ type, data });

/** A project database (with projects.json naming it) holding a session, its task sub-session and a title session. */
export function crushFiles(home: string): string {
  const path = crushDbPath(home);
  mkdirSync(join(path, '..'), { recursive: true });
  const global = join(home, '.local', 'share', 'crush');
  mkdirSync(global, { recursive: true });
  writeFileSync(
    join(global, 'projects.json'),
    JSON.stringify({
      projects: [
        {
          path: join(home, 'src', 'api'),
          data_dir: join(home, 'src', 'api', '.crush'),
          last_accessed: '2026-11-04T10:00:00Z',
        },
        {
          path: '/gone/project',
          data_dir: '/gone/project/.crush',
          last_accessed: '2026-01-01T00:00:00Z',
        },
      ],
    }),
  );
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(CRUSH_DDL);
  const t0 = 1793786400000; // 2026-11-04T10:00:00Z in ms
  const ses = db.prepare(
    `INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  ses.run(MORE.crush, null, 'Pagination cursor bug', t0, t0);
  ses.run(MORE.crushTask, MORE.crush, 'Find cursor encoders', t0 + 5000, t0 + 5000);
  ses.run(`title-${MORE.crush}`, MORE.crush, 'Generate a title', t0, t0);
  const msg = db.prepare(
    `INSERT INTO messages (id, session_id, role, parts, model, created_at, updated_at, finished_at, provider, is_summary_message)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const j = (p: unknown[]) => JSON.stringify(p);
  msg.run(
    'cm-1',
    MORE.crush,
    'user',
    j([part('text', { text: 'the next-page cursor skips rows with equal created_at' })]),
    null,
    t0 + 1000,
    t0 + 1000,
    null,
    null,
    0,
  );
  msg.run(
    'cm-2',
    MORE.crush,
    'assistant',
    j([
      part('reasoning', { thinking: 'Cursor encodes only the timestamp.', signature: '' }),
      part('text', { text: 'The cursor needs a tiebreaker column.' }),
      part('tool_call', {
        id: 'call_cr1',
        name: 'grep',
        input: '{"pattern":"encodeCursor"}',
        finished: true,
      }),
      part('finish', { reason: 'tool_use', time: 1793786402 }),
    ]),
    'gpt-5.1-codex',
    t0 + 2000,
    t0 + 2000,
    t0 + 2500,
    'openai',
    0,
  );
  msg.run(
    'cm-3',
    MORE.crush,
    'tool',
    j([
      part('tool_result', {
        tool_call_id: 'call_cr1',
        name: 'grep',
        content: 'api/cursor.go:18: func encodeCursor(t time.Time) string',
        is_error: false,
      }),
    ]),
    null,
    t0 + 3000,
    t0 + 3000,
    null,
    null,
    0,
  );
  msg.run(
    'cm-4',
    MORE.crush,
    'assistant',
    j([part('text', { text: 'Encode (created_at, id) and compare as a row value.' })]),
    'gpt-5.1-codex',
    t0 + 4000,
    t0 + 4000,
    t0 + 4500,
    'openai',
    0,
  );
  msg.run(
    'cm-5',
    MORE.crush,
    'user',
    j([
      part('shell_command', {
        command: 'go test ./api/...',
        output: 'ok  api 0.41s',
        exit_code: 0,
      }),
    ]),
    null,
    t0 + 4600,
    t0 + 4600,
    null,
    null,
    0,
  );
  msg.run(
    'cm-6',
    MORE.crushTask,
    'user',
    j([part('text', { text: 'find every cursor encoder' })]),
    null,
    t0 + 5000,
    t0 + 5000,
    null,
    null,
    0,
  );
  msg.run(
    'cm-7',
    MORE.crushTask,
    'assistant',
    j([part('text', { text: 'Only api/cursor.go encodes keyset cursors.' })]),
    'gpt-5.1-codex',
    t0 + 6000,
    t0 + 6000,
    t0 + 6000,
    'openai',
    0,
  );
  msg.run(
    'cm-8',
    `title-${MORE.crush}`,
    'user',
    j([part('text', { text: 'Generate a concise title for: the next-page cursor' })]),
    null,
    t0,
    t0,
    null,
    null,
    0,
  );
  msg.run('cm-9', MORE.crush, 'assistant', 'not json', null, t0 + 4700, t0 + 4700, null, null, 0);
  db.close();
  return path;
}

export function gooseDbPath(home: string): string {
  return join(home, '.local', 'share', 'goose', 'sessions', 'sessions.db');
}

/** session_manager.rs create_schema (schema version 9), WAL as its pool sets. */
export const GOOSE_DDL = `
CREATE TABLE schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO schema_version (version) VALUES (9);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT,
    provider_name TEXT,
    model_config_json TEXT,
    tenant_id TEXT,
    user_id TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_messages_timestamp ON messages(timestamp);
CREATE INDEX idx_messages_message_id ON messages(message_id);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
CREATE INDEX idx_sessions_type ON sessions(session_type);
CREATE INDEX idx_sessions_tenant ON sessions(tenant_id);
CREATE INDEX idx_sessions_user ON sessions(user_id);
`;

export const GOOSE_CWD = '/home/ana/src/etl';

/** One session: text, a tool request and response, thinking, an image, a compaction summary. */
export function gooseFiles(home: string): string {
  const path = gooseDbPath(home);
  mkdirSync(join(path, '..'), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(GOOSE_DDL);
  db.prepare(
    `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, provider_name, model_config_json)
     VALUES (?, ?, ?, 'user', ?, ?, ?, 'anthropic', ?)`,
  ).run(
    MORE.goose,
    'Parquet schema drift',
    1,
    GOOSE_CWD,
    '2026-11-04T08:00:00Z',
    '2026-11-04 08:20:00',
    JSON.stringify({ model_name: 'claude-opus-4-5', context_limit: 200000 }),
  );
  const visible = JSON.stringify({ userVisible: true, agentVisible: true });
  const ins = db.prepare(
    `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const c = (x: unknown[]) => JSON.stringify(x);
  ins.run(
    'msg_g1',
    MORE.goose,
    'user',
    c([{ type: 'text', text: 'the nightly parquet load fails on a new nullable column' }]),
    1793779200,
    visible,
  );
  ins.run(
    'msg_g2',
    MORE.goose,
    'assistant',
    c([
      { type: 'thinking', thinking: 'Schema evolution is off in the writer.', signature: 'sig' },
      { type: 'text', text: 'Checking the writer options.' },
      {
        type: 'toolRequest',
        id: 'toolu_g1',
        toolCall: {
          status: 'success',
          value: { name: 'developer__shell', arguments: { command: 'rg merge_schema etl/' } },
        },
      },
    ]),
    1793779205,
    visible,
  );
  ins.run(
    'msg_g3',
    MORE.goose,
    'user',
    c([
      {
        type: 'toolResponse',
        id: 'toolu_g1',
        toolResult: {
          status: 'success',
          value: {
            content: [
              {
                type: 'text',
                text: 'etl/load.py:40: pq.write_table(t, path)  # merge_schema unset',
              },
            ],
            isError: false,
          },
        },
      },
    ]),
    1793779206,
    visible,
  );
  ins.run(
    'msg_g4',
    MORE.goose,
    'assistant',
    c([
      {
        type: 'text',
        text: 'Pass schema evolution: use pyarrow unify_schemas before write_table.',
      },
    ]),
    1793779210,
    visible,
  );
  ins.run(
    'msg_g5',
    MORE.goose,
    'user',
    c([
      { type: 'image', data: 'iVBORw0KGgo'.repeat(100), mimeType: 'image/png' },
      { type: 'text', text: 'this is the failing dashboard' },
    ]),
    1793779300,
    visible,
  );
  ins.run(
    'msg_g6',
    MORE.goose,
    'assistant',
    c([{ type: 'text', text: 'Summary so far: nullable column added upstream; unify schemas.' }]),
    1793779400,
    JSON.stringify({ userVisible: false, agentVisible: true }),
  );
  ins.run(null, MORE.goose, 'user', '{broken', 1793779401, visible);
  db.close();
  return path;
}

export const CURSOR_CWD = '/home/ana/src/uploader';
export function cursorDbPath(home: string): string {
  return join(home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb');
}

/** VS Code's storage table, as Cursor's state.vscdb has it (ItemTable and cursorDiskKV alike). */
const VSCDB_DDL = `
CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);`;

/**
 * Cursor's global state.vscdb: a chat in the split layout (composerData headers,
 * bubbleId rows) with thinking, a terminal tool and its large output, a bubble the
 * person took back (stored, named by no header), a bubble that is not JSON; a
 * sub-composer; an older chat with its bubbles inline; a composer opened and
 * closed without a word. Its workspace's state.vscdb and workspace.json name the
 * folder. Values stored as BLOBs, as Cursor writes them.
 */
export function cursorFiles(home: string): string {
  const path = cursorDbPath(home);
  const user = join(path, '..', '..');
  mkdirSync(join(path, '..'), { recursive: true });
  const ws = join(user, 'workspaceStorage', '3f1e0c5b2a9d8e7f6a5b4c3d2e1f0a9b');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'workspace.json'), JSON.stringify({ folder: `file://${CURSOR_CWD}` }));
  const w = new Database(join(ws, 'state.vscdb'));
  w.exec(VSCDB_DDL);
  w.prepare(`INSERT INTO ItemTable VALUES (?, ?)`).run(
    'composer.composerData',
    Buffer.from(
      JSON.stringify({
        allComposers: [
          { composerId: MORE.cursor, type: 'head', lastUpdatedAt: 1793876400000 },
          { composerId: MORE.cursorOld, type: 'head' },
        ],
        selectedComposerIds: [MORE.cursor],
      }),
    ),
  );
  w.close();

  const db = new Database(path);
  db.exec(VSCDB_DDL);
  const kv = db.prepare(`INSERT INTO cursorDiskKV VALUES (?, ?)`);
  const put = (key: string, v: unknown) => kv.run(key, Buffer.from(JSON.stringify(v)));
  db.prepare(`INSERT INTO ItemTable VALUES (?, ?)`).run(
    'workbench.panel.aichat.view.aichat.chatdata',
    Buffer.from('{"tabs":[]}'),
  );
  const t0 = 1793876400000; // 2026-11-05T11:00:00Z
  const iso = (s: number) => new Date(t0 + s * 1000).toISOString();
  const bubble = (id: string, type: 1 | 2, extra: Record<string, unknown>) => ({
    _v: 3,
    type,
    bubbleId: id,
    text: '',
    richText: '',
    createdAt: iso(0),
    requestId: 'req-1',
    ...extra,
  });
  put(`composerData:${MORE.cursor}`, {
    _v: 10,
    composerId: MORE.cursor,
    name: 'Upload retry loop',
    text: '',
    richText: '',
    createdAt: t0,
    lastUpdatedAt: t0 + 90_000,
    status: 'completed',
    unifiedMode: 'agent',
    modelConfig: { modelName: 'claude-4.5-sonnet', maxMode: false },
    createdOnBranch: 'main',
    subComposerIds: [MORE.cursorSub],
    fullConversationHeadersOnly: [
      { bubbleId: 'b-u1', type: 1 },
      { bubbleId: 'b-a1', type: 2, serverBubbleId: 's-a1' },
      { bubbleId: 'b-a2', type: 2 },
      { bubbleId: 'b-a3', type: 2 },
      { bubbleId: 'b-a4', type: 2 },
    ],
    conversationMap: {},
  });
  const B = (id: string) => `bubbleId:${MORE.cursor}:${id}`;
  put(
    B('b-u1'),
    bubble('b-u1', 1, {
      text: 'the S3 upload retries forever when the bucket answers 403',
      modelInfo: { modelName: 'claude-4.5-sonnet' },
    }),
  );
  put(
    B('b-a1'),
    bubble('b-a1', 2, {
      createdAt: iso(10),
      text: 'I will look at the retry policy.',
      thinking: { text: 'A 403 is not transient; the policy must not retry it.' },
    }),
  );
  put(
    B('b-a2'),
    bubble('b-a2', 2, {
      createdAt: iso(20),
      toolFormerData: {
        tool: 15,
        name: 'run_terminal_cmd',
        toolCallId: 'toolu_cur1',
        status: 'completed',
        rawArgs: '{"command":"pytest tests/test_upload.py -x"}',
        result: 'FAILED test_upload.py::test_403 ' + 'retrying... '.repeat(2000),
      },
    }),
  );
  put(
    B('b-a3'),
    bubble('b-a3', 2, {
      createdAt: iso(30),
      text: 'Treat 403 as fatal in RetryPolicy.should_retry; only 429 and 5xx are retried.',
    }),
  );
  // An empty assistant bubble (a turn that produced nothing shown): no row.
  put(B('b-a4'), bubble('b-a4', 2, { createdAt: iso(31) }));
  // Sent, then the person edited an earlier message: the turn left the headers, not the table.
  put(
    B('b-x1'),
    bubble('b-x1', 2, {
      createdAt: iso(5),
      text: 'cursor_rewound_answer: retry every 4xx with backoff',
    }),
  );
  kv.run(B('b-bad'), Buffer.from('{"_v":3,"type":2,"text":"half'));
  put(`composerData:${MORE.cursorSub}`, {
    _v: 10,
    composerId: MORE.cursorSub,
    createdAt: t0 + 40_000,
    lastUpdatedAt: t0 + 50_000,
    fullConversationHeadersOnly: [
      { bubbleId: 'c-u1', type: 1 },
      { bubbleId: 'c-a1', type: 2 },
    ],
  });
  put(
    `bubbleId:${MORE.cursorSub}:c-u1`,
    bubble('c-u1', 1, {
      text: 'find every caller of RetryPolicy',
      workspaceUris: [`file://${CURSOR_CWD}`],
    }),
  );
  put(
    `bubbleId:${MORE.cursorSub}:c-a1`,
    bubble('c-a1', 2, { text: 'Two: uploader/s3.py and uploader/gcs.py.' }),
  );
  // An older chat: its bubbles inline in `conversation`.
  put(`composerData:${MORE.cursorOld}`, {
    _v: 2,
    composerId: MORE.cursorOld,
    createdAt: t0 - 86_400_000,
    lastUpdatedAt: t0 - 86_000_000,
    conversation: [
      bubble('o-u1', 1, { text: 'why does the multipart upload leak file handles' }),
      bubble('o-a1', 2, { text: 'The part reader is never closed on an exception.' }),
    ],
  });
  // Opened and closed without a word.
  put('composerData:9e9e9e9e-0000-4000-8000-000000000000', {
    _v: 10,
    composerId: '9e9e9e9e-0000-4000-8000-000000000000',
    createdAt: t0,
    fullConversationHeadersOnly: [],
    conversationMap: {},
  });
  put('checkpointId:abc', { files: [] });
  db.close();
  return path;
}

export const ROO_CWD = '/home/ana/src/billing';
export function extensionTask(home: string, app: string, ext: string, id: string): string {
  return join(home, '.config', app, 'User', 'globalStorage', ext, 'tasks', id);
}

/**
 * Cline, Roo Code and Kilo Code task folders (api_conversation_history.json with
 * `ts` on each message, history_item.json, task_metadata.json): Roo with native
 * tool calls, a subtask and a large tool output; Cline (in Cursor's globalStorage)
 * with the older text tool results and feedback; Kilo with a file caught half
 * rewritten.
 */
export function clineFamilyFiles(home: string): void {
  const t0 = 1793880000000; // 2026-11-05T12:00:00Z
  const env = (cwd: string, word: 'Working' | 'Workspace') =>
    `<environment_details>\n# VSCode Visible Files\nsrc/invoice.py\n\n# Current ${word} Directory (${cwd}) Files\nsrc/\n</environment_details>`;
  const write = (dir: string, files: Record<string, unknown>) => {
    mkdirSync(dir, { recursive: true });
    for (const [name, v] of Object.entries(files))
      writeFileSync(join(dir, name), typeof v === 'string' ? v : JSON.stringify(v));
  };
  const roo = extensionTask(home, 'Code', 'rooveterinaryinc.roo-cline', MORE.roo);
  write(roo, {
    'api_conversation_history.json': [
      {
        role: 'user',
        ts: t0,
        content: [
          {
            type: 'text',
            text: '<task>\ninvoices round VAT per line instead of per total\n</task>',
          },
          { type: 'text', text: env(ROO_CWD, 'Workspace') },
        ],
      },
      {
        role: 'assistant',
        ts: t0 + 4000,
        content: [
          { type: 'text', text: 'I will read the invoice totals.' },
          {
            type: 'tool_use',
            id: 'toolu_roo1',
            name: 'read_file',
            input: { path: 'src/invoice.py' },
          },
        ],
      },
      {
        role: 'user',
        ts: t0 + 5000,
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_roo1',
            content: [{ type: 'text', text: 'def total(lines):\n' + '    # line\n'.repeat(12000) }],
          },
        ],
      },
      {
        role: 'assistant',
        ts: t0 + 9000,
        content: [
          { type: 'text', text: 'Sum the net amounts first, then apply VAT once: roo_vat_fix.' },
        ],
      },
    ],
    'history_item.json': {
      id: MORE.roo,
      number: 1,
      ts: t0 + 9000,
      task: 'invoices round VAT per line instead of per total',
      workspace: ROO_CWD,
      mode: 'code',
      tokensIn: 1200,
      tokensOut: 300,
      totalCost: 0.01,
    },
    'task_metadata.json': {
      files_in_context: [],
      model_usage: [
        { ts: t0, model_id: 'claude-sonnet-4-5', model_provider_id: 'anthropic', mode: 'code' },
      ],
    },
    'ui_messages.json': [
      {
        ts: t0,
        type: 'say',
        say: 'text',
        text: 'invoices round VAT per line instead of per total',
      },
    ],
  });
  write(extensionTask(home, 'Code', 'rooveterinaryinc.roo-cline', MORE.rooSub), {
    'api_conversation_history.json': [
      { role: 'user', ts: t0 + 6000, content: '<task>\nlist callers of total()\n</task>' },
      { role: 'assistant', ts: t0 + 7000, content: 'One caller: src/export.py.' },
    ],
    'history_item.json': {
      id: MORE.rooSub,
      ts: t0 + 7000,
      task: 'list callers of total()',
      workspace: ROO_CWD,
      parentTaskId: MORE.roo,
      rootTaskId: MORE.roo,
    },
  });
  // A task folder created and not yet spoken in: no history file.
  mkdirSync(
    extensionTask(
      home,
      'Code',
      'rooveterinaryinc.roo-cline',
      '019a7c30-0000-7000-8000-000000000000',
    ),
    {
      recursive: true,
    },
  );
  write(extensionTask(home, 'Cursor', 'saoudrizwan.claude-dev', MORE.cline), {
    'api_conversation_history.json': [
      {
        role: 'user',
        ts: t0 + 100000,
        content: [
          { type: 'text', text: '<task>\nthe webhook signature check fails for retries\n</task>' },
          { type: 'text', text: env('/home/ana/src/hooks', 'Working') },
        ],
      },
      {
        role: 'assistant',
        ts: t0 + 101000,
        content: [
          { type: 'text', text: '<read_file>\n<path>hooks/verify.py</path>\n</read_file>' },
        ],
      },
      {
        role: 'user',
        ts: t0 + 102000,
        content: [
          { type: 'text', text: "[read_file for 'hooks/verify.py'] Result:" },
          { type: 'text', text: 'sig = hmac(body + str(time.time()))' },
          { type: 'text', text: '<feedback>\nthe timestamp header, not the clock\n</feedback>' },
        ],
      },
      {
        role: 'assistant',
        ts: t0 + 103000,
        content: [{ type: 'text', text: 'Sign with the X-Timestamp header: cline_sig_fix.' }],
      },
    ],
    'task_metadata.json': { model_usage: [{ ts: t0, model_id: 'claude-opus-4-1', mode: 'act' }] },
  });
  write(extensionTask(home, 'Code', 'kilocode.kilo-code', MORE.kilo), {
    // Roo's versioned envelope of AI SDK messages (rooMessage.ts, version 2).
    'api_conversation_history.json': {
      version: 2,
      messages: [
        {
          role: 'user',
          ts: t0 + 200000,
          content: '<task>\nwhy is the kilo_cache_key unstable\n</task>',
        },
        {
          role: 'assistant',
          ts: t0 + 200500,
          content: [
            { type: 'reasoning', text: 'Look at how the key is built.' },
            {
              type: 'tool-call',
              toolCallId: 'call_k1',
              toolName: 'search_files',
              input: { regex: 'cache_key' },
            },
          ],
        },
        {
          role: 'tool',
          ts: t0 + 200600,
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_k1',
              toolName: 'search_files',
              output: { type: 'text', value: 'cache.py:3: key = hash(frozenset(params.items()))' },
            },
          ],
        },
        { type: 'reasoning', encrypted_content: 'gAAAA…', ts: t0 + 200700 },
        { role: 'assistant', ts: t0 + 201000, content: 'It hashes a dict whose order varies.' },
      ],
    },
    'history_item.json': {
      id: MORE.kilo,
      ts: t0 + 201000,
      task: 'why',
      workspace: '/home/ana/src/cache',
    },
  });
  // Caught half rewritten: no conversation yet, one counted problem.
  write(extensionTask(home, 'Code', 'kilocode.kilo-code', MORE.kiloTorn), {
    'api_conversation_history.json': '[{"role":"user","ts":1793880300000,"content":"<task>\\nhal',
  });
}

/** All the agents of §9 under one fake home. */
export function buildMoreHome(home: string): void {
  qwenFiles(home);
  kimiFiles(home);
  copilotFiles(home);
  aiderFiles(home);
  crushFiles(home);
  gooseFiles(home);
  cursorFiles(home);
  clineFamilyFiles(home);
}
