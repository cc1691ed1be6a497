/**
 * PraisonAI's SqliteTranscriptStore (AGENTS.md §5.1): sessions only in
 * `<sessions>/sessions.db`, one row per session with the session JSON in `data`,
 * built here with the store's own DDL (sqlite_transcript_store.py). On first use the
 * store imports the JSON files beside it and leaves them, so a session is often in
 * both: one conversation. Through the built CLI, asserting on the text shown.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { hashTree } from './samples.js';

type Obj = Record<string, unknown>;

let dir: string;
let sessions: string;
let dbPath: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-praison-db-'));
  const home = join(dir, 'home');
  sessions = join(home, '.praisonai', 'sessions');
  mkdirSync(sessions, { recursive: true });
  dbPath = join(sessions, 'sessions.db');
  env = {
    HOME: home,
    LOOKBACK_INDEX: join(dir, 'index.db'),
    XDG_DATA_HOME: '',
    XDG_CONFIG_HOME: '',
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): Obj {
  const r = lookback(args, env);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}
const texts = (p: Obj) => (p.messages as Obj[]).map((m) => `${String(m.id)}: ${String(m.content)}`);
const praison = () =>
  (run(['sources', '--json']).sources as Obj[]).find((s) => s.agent === 'praisonai')!;

const msg = (role: string, content: string, t: number) => ({
  role,
  content,
  timestamp: t,
  metadata: {},
});
const slack = (extra: Obj[] = []) => ({
  session_id: 'slack-C042',
  created_at: '2026-09-03T09:00:00+00:00',
  updated_at: extra.length ? '2026-09-03T09:30:00+00:00' : '2026-09-03T09:10:00+00:00',
  agent_name: 'billing-bot',
  gateway_session_id: 'slack:C042',
  metadata: { source: 'slack', title: 'Invoice rounding' },
  archived_messages: [
    msg('user', 'invoices round 0.005 up on the PDF but down in the ledger', 1788426000.1),
    msg(
      'assistant',
      'Use banker’s rounding in both: Decimal.quantize with ROUND_HALF_EVEN.',
      1788426010,
    ),
  ],
  messages: [msg('user', 'which module formats the PDF totals?', 1788426600), ...extra],
});
const discord = {
  session_id: 'discord-77',
  created_at: '2026-09-03T10:00:00+00:00',
  updated_at: '2026-09-03T10:05:00+00:00',
  agent_name: 'ops-bot',
  gateway_session_id: 'discord:77',
  metadata: { source: 'discord' },
  messages: [
    msg('user', 'the nightly backup to the cold bucket failed twice', 1788429600),
    msg(
      'assistant',
      'The lifecycle rule moved the target prefix to Glacier; restore it.',
      1788429610,
    ),
  ],
};

/** The store's own schema and indexes; WAL as its connect() sets. */
function writeDb(rows: Obj[], garbage = false): void {
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE IF NOT EXISTS sessions (  session_id TEXT PRIMARY KEY,  data TEXT NOT NULL,  agent_name TEXT,  gateway_session_id TEXT,  agent_id TEXT,  updated_at TEXT);
    CREATE INDEX IF NOT EXISTS idx_sessions_gateway ON sessions(gateway_session_id);
    CREATE INDEX IF NOT EXISTS idx_sessions_agent ON sessions(agent_id);
    CREATE INDEX IF NOT EXISTS idx_sessions_agent_name ON sessions(agent_name);
    CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at);
    DELETE FROM sessions;`);
  const ins = db.prepare(
    `INSERT OR REPLACE INTO sessions (session_id, data, agent_name, gateway_session_id, agent_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const r of rows)
    ins.run(
      r.session_id,
      JSON.stringify(r),
      r.agent_name,
      r.gateway_session_id,
      null,
      r.updated_at,
    );
  if (garbage)
    ins.run(
      'broken-1',
      '{"session_id": "broken-1", "messa',
      null,
      null,
      null,
      '2026-09-03T11:00:00+00:00',
    );
  db.close();
}

describe('PraisonAI sessions.db', () => {
  it('reads db-only sessions read-only, archived turns included, with the JSON anchors', () => {
    writeDb([slack(), discord], true);
    const before = hashTree(sessions);
    run(['index', '--json']);
    expect(hashTree(sessions)).toEqual(before);
    expect(existsSync(`${dbPath}-shm`) || existsSync(`${dbPath}-wal`)).toBe(false);
    const read = run(['read', '--agent', 'praisonai', 'slack-C042', '--json']);
    expect(read.session_meta).toMatchObject({ title: 'Invoice rounding', source: 'slack' });
    expect(texts(read)).toEqual([
      '0: invoices round 0.005 up on the PDF but down in the ledger',
      '1: Use banker’s rounding in both: Decimal.quantize with ROUND_HALF_EVEN.',
      '2: which module formats the PDF totals?',
    ]);
    const hit = run(['search', 'Glacier lifecycle', '--agent', 'praisonai', '--json']);
    expect((hit.results as Obj[]).map((r) => [r.session_id, r.match_message_id])).toEqual([
      ['discord-77', '1'],
    ]);
    expect(praison()).toMatchObject({
      conversations: 2,
      messages: 5,
      problems: [
        { reason: 'sessions.db row whose data is not a JSON session', count: 1, files: 1 },
      ],
    });
  });

  it('counts a session in both the JSON file and the db once, from the newer copy', () => {
    // The JSON the store imported on first use, left beside the db; the db row has grown since.
    writeFileSync(join(sessions, 'slack-C042.json'), JSON.stringify(slack()));
    writeDb([
      slack([msg('assistant', 'invoice/pdf_totals.py formats them.', 1788428000)]),
      discord,
    ]);
    // An explicit pass: a command's own pass is skipped within 3 s of the last full one.
    run(['index', '--json']);
    const hit = run(['search', 'invoice/pdf_totals.py', '--agent', 'praisonai', '--json']);
    expect((hit.results as Obj[]).map((r) => r.session_id)).toEqual(['slack-C042']);
    const once = run(['search', 'banker rounding', '--agent', 'praisonai', '--json']);
    expect(once.count).toBe(1);
    expect(texts(run(['read', '--agent', 'praisonai', 'slack-C042', '--json']))).toEqual([
      '0: invoices round 0.005 up on the PDF but down in the ledger',
      '1: Use banker’s rounding in both: Decimal.quantize with ROUND_HALF_EVEN.',
      '2: which module formats the PDF totals?',
      '3: invoice/pdf_totals.py formats them.',
    ]);
    expect(praison()).toMatchObject({ conversations: 2, messages: 6 });
  });

  it('keeps a session deleted from the db, marked gone', () => {
    rmSync(join(sessions, 'slack-C042.json'));
    writeDb([slack([msg('assistant', 'invoice/pdf_totals.py formats them.', 1788428000)])]);
    run(['index', '--json']);
    const read = run(['read', '--agent', 'praisonai', 'discord-77', '--json']);
    expect(read.session_meta).toMatchObject({ gone: true });
    expect(texts(read)[0]).toBe('0: the nightly backup to the cold bucket failed twice');
    expect(praison()).toMatchObject({ conversations: 2, gone: 1 });
  });
});
