/**
 * The index while the agents write: growth is read from the saved offset, a half
 * written line waits, shrink/inode change/upsert logs re-parse, vanished sessions
 * stay (gone), and the index itself is disposable: deleted, corrupt or of an older
 * layout, it is rebuilt without loss.
 */
import Database from 'better-sqlite3';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { INDEX_LAYOUT, openIndex } from '../../src/agents/indexDb.js';
import { readAgentsJson, searchAgentsJson } from '../../src/agents/recall.js';
import { IDS, buildHome, hashTree } from './samples.js';

let dir: string;
let home: string;
let indexFile: string;
const env = () => ({ HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-incr-'));
  home = join(dir, 'home');
  indexFile = join(dir, 'agents.db');
  buildHome(home);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pass() {
  const { db, rebuilt } = openIndex(indexFile);
  try {
    return { report: indexAll(db, { env: env() }), rebuilt };
  } finally {
    db.close();
  }
}

function withDb<T>(fn: (db: Database.Database) => T): T {
  const { db } = openIndex(indexFile);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const claudeFile = () => join(home, '.claude', 'projects', '-home-ana-shop', `${IDS.claude}.jsonl`);
const geminiFile = () =>
  join(
    home,
    '.gemini',
    'tmp',
    'web',
    'chats',
    `session-2026-08-20T10-01-${IDS.gemini.slice(0, 8)}.jsonl`,
  );
const line = (o: unknown) => JSON.stringify(o) + '\n';
const userLine = (uuid: string, text: string) =>
  line({
    type: 'user',
    uuid,
    sessionId: IDS.claude,
    timestamp: '2026-08-20T10:00:00.000Z',
    message: { role: 'user', content: text },
  });

function messages(agent: string, sid: string) {
  return withDb(
    (db) => readAgentsJson(db, [agent as 'claude'], sid).messages as Record<string, unknown>[],
  );
}
function hitIds(q: string, agent = 'claude') {
  return withDb((db) =>
    (
      searchAgentsJson(db, q, [agent as 'claude'], { limit: 10, all: true }).results as Record<
        string,
        unknown
      >[]
    ).map((r) => `${String(r.session_id)}#${String(r.match_message_id)}`),
  );
}

describe('incremental passes', () => {
  it('reads only what was appended, and a line without its newline waits', () => {
    pass();
    const second = pass();
    expect(second.report.parsed).toBe(0);
    expect(second.report.unchanged).toBe(second.report.files);
    appendFileSync(claudeFile(), userLine('u-5', 'rotate the webhook signing secret'));
    appendFileSync(claudeFile(), userLine('u-6', 'half written tail').slice(0, 40));
    const grew = pass().report;
    expect(grew.parsed).toBe(1);
    expect(grew.bytesRead).toBeLessThan(300); // the new line, not the whole file
    expect(hitIds('webhook signing')).toEqual([`${IDS.claude}#u-5`]);
    expect(hitIds('"half written"')).toEqual([]);
    appendFileSync(claudeFile(), userLine('u-6', 'half written tail').slice(40));
    pass();
    expect(hitIds('"half written"')).toEqual([`${IDS.claude}#u-6`]);
    // Earlier anchors kept their place.
    const ids = messages('claude', IDS.claude).map((m) => m.id);
    expect(ids.slice(0, 3)).toEqual(['u-1', 'a-1', 'u-2']);
    expect(ids.slice(-2)).toEqual(['u-5', 'u-6']);
  });

  it('re-parses a reply whose chunks straddle the saved offset into one message', () => {
    const chunk = (uuid: string, content: unknown) =>
      line({
        type: 'assistant',
        uuid,
        sessionId: IDS.claude,
        timestamp: '2026-08-20T10:00:00.000Z',
        message: { id: 'msg_03Z', role: 'assistant', content: [content] },
      });
    appendFileSync(
      claudeFile(),
      chunk('a-10', { type: 'thinking', thinking: 'check the ledger table' }),
    );
    pass();
    appendFileSync(
      claudeFile(),
      chunk('a-11', { type: 'text', text: 'The ledger has two rows per refund.' }),
    );
    pass();
    const msgs = messages('claude', IDS.claude).filter((m) => m.id === 'a-10' || m.id === 'a-11');
    expect(msgs).toEqual([
      expect.objectContaining({
        id: 'a-10',
        content: 'The ledger has two rows per refund.',
        reasoning: 'check the ledger table',
      }),
    ]);
  });

  it('re-parses on shrink and on a new inode', () => {
    pass();
    writeFileSync(claudeFile(), userLine('u-1', 'a shorter history about invoices'));
    pass();
    expect(messages('claude', IDS.claude).map((m) => m.content)).toEqual([
      'a shorter history about invoices',
    ]);
    // Same size, new inode (write to a temp file and rename, as PraisonAI and Gemini recovery do).
    const tmp = `${claudeFile()}.tmp`;
    writeFileSync(tmp, userLine('u-1', 'a shorter history about receipts'));
    renameSync(tmp, claudeFile());
    pass();
    expect(messages('claude', IDS.claude).map((m) => m.content)).toEqual([
      'a shorter history about receipts',
    ]);
  });

  it('applies a Gemini upsert in place and re-parses for a rewind', () => {
    pass();
    appendFileSync(
      geminiFile(),
      line({
        id: 'm1',
        timestamp: '2026-08-20T10:01:04.000Z',
        type: 'user',
        content: 'why is the CI build red?',
      }),
    );
    pass();
    const msgs = messages('gemini', IDS.gemini);
    // m3 was rewound in the sample: out of the default transcript.
    expect(msgs.map((m) => m.id)).toEqual(['m1', 'm2', 'm2/run_shell_command-1']);
    expect(msgs[0]!.content).toBe('why is the CI build red?');
    appendFileSync(
      geminiFile(),
      line({
        id: 'm4',
        timestamp: '2026-08-20T10:04:00.000Z',
        type: 'user',
        content: 'retry with node 22',
      }),
    );
    appendFileSync(geminiFile(), line({ $rewindTo: 'm2' }));
    pass();
    const flags = withDb((db) =>
      db
        .prepare(
          `SELECT anchor, flags & 4 AS rewound FROM messages m JOIN conversations c ON c.id = m.conv_id WHERE c.agent = 'gemini' ORDER BY ordinal`,
        )
        .all(),
    );
    expect(flags).toEqual([
      { anchor: 'm1', rewound: 0 },
      { anchor: 'm2', rewound: 4 },
      { anchor: 'm2/run_shell_command-1', rewound: 4 },
      { anchor: 'm3', rewound: 4 },
      { anchor: 'm4', rewound: 4 },
    ]);
    // Rewound rows stay indexed: found with --all (all: true here).
    expect(hitIds('node 22', 'gemini')).toEqual([`${IDS.gemini}#m4`]);
  });

  it('picks up a PraisonAI rewrite and new opencode rows written under WAL', () => {
    pass();
    const pfile = join(home, '.praisonai', 'sessions', 'tg-4411.json');
    const doc = JSON.parse(readFileSync(pfile, 'utf8')) as { messages: unknown[] };
    doc.messages.push({
      role: 'user',
      content: 'and the DNS leak?',
      timestamp: 1755600100,
      metadata: {},
    });
    writeFileSync(`${pfile}.tmp`, JSON.stringify(doc));
    renameSync(`${pfile}.tmp`, pfile);
    const oc = new Database(join(home, '.local', 'share', 'opencode', 'opencode.db'));
    oc.pragma('journal_mode = WAL');
    oc.prepare(
      `INSERT INTO message VALUES ('msg_9Ac', ?, 1755684400000, 1755684400000, '{"role":"user"}')`,
    ).run(IDS.opencode);
    oc.prepare(
      `INSERT INTO part VALUES ('prt_5', 'msg_9Ac', ?, 1755684400000, 1755684400000, ?)`,
    ).run(IDS.opencode, JSON.stringify({ type: 'text', text: 'also the footer flickers' }));
    try {
      pass();
      expect(hitIds('DNS leak', 'praisonai')).toEqual([`${IDS.praisonai}#5`]);
      expect(hitIds('footer flickers', 'opencode')).toEqual([`${IDS.opencode}#msg_9Ac`]);
    } finally {
      oc.close();
    }
  });

  it('keeps a session whose file vanished, marked gone and still searchable', () => {
    pass();
    unlinkSync(claudeFile());
    pass();
    const r = withDb((db) =>
      searchAgentsJson(db, 'payment gateway', ['claude'], { limit: 5, all: false }),
    );
    expect(r.results).toEqual([expect.objectContaining({ session_id: IDS.claude, gone: true })]);
  });
});

describe('the index is disposable', () => {
  const snapshot = () =>
    withDb((db) =>
      db
        .prepare(
          `SELECT c.agent, c.native_id, c.title, c.message_count, m.anchor, m.ordinal, m.role, m.text, m.flags
           FROM conversations c JOIN messages m ON m.conv_id = c.id ORDER BY c.agent, c.native_id, m.ordinal`,
        )
        .all(),
    );

  it('is rebuilt the same when deleted, corrupt or of an older layout', () => {
    const before = hashTree(home);
    expect(pass().rebuilt).toBe('missing');
    const first = snapshot();
    expect(first.length).toBeGreaterThan(30);
    rmSync(indexFile);
    rmSync(`${indexFile}-wal`, { force: true });
    rmSync(`${indexFile}-shm`, { force: true });
    expect(pass().rebuilt).toBe('missing');
    expect(snapshot()).toEqual(first);
    for (const f of [indexFile, `${indexFile}-wal`, `${indexFile}-shm`]) rmSync(f, { force: true });
    writeFileSync(indexFile, Buffer.alloc(8192, 0x5a));
    expect(pass().rebuilt).toMatch(/^unreadable/);
    expect(snapshot()).toEqual(first);
    withDb((db) => db.pragma(`user_version = ${INDEX_LAYOUT - 1}`));
    expect(pass().rebuilt).toBe(`layout ${INDEX_LAYOUT - 1}, expected ${INDEX_LAYOUT}`);
    expect(snapshot()).toEqual(first);
    expect(hashTree(home)).toEqual(before);
  });
});
