/** Today's rules on stores built for the case (real v30 schema and triggers). */
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { browse, hiddenCounts } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { readJson, searchJson, type Json } from '../../src/store/recall.js';
import { parseWhen } from '../../src/store/time.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';

type Obj = Record<string, Json>;
const T0 = 1_790_000_000;

describe('parseWhen', () => {
  const now = new Date(2026, 8, 15, 13, 45, 10); // local 2026-09-15 13:45:10
  const sec = (d: Date) => d.getTime() / 1000;
  it.each([
    ['7d', sec(now) - 7 * 86_400],
    ['24h', sec(now) - 86_400],
    ['2w', sec(now) - 14 * 86_400],
    ['today', sec(new Date(2026, 8, 15))],
    ['Yesterday', sec(new Date(2026, 8, 14))],
    ['2026-08-01', sec(new Date(2026, 7, 1))],
    ['2026-08-01T14:30', sec(new Date(2026, 7, 1, 14, 30))],
    ['2026-08-01T14:30:05Z', Date.UTC(2026, 7, 1, 14, 30, 5) / 1000],
    ['2026-08-01T14:30:00+02:00', Date.UTC(2026, 7, 1, 12, 30) / 1000],
  ])('%s', (text, want) => expect(parseWhen(text, now)).toBe(Math.floor(want)));
  it.each(['', 'soon', '7', '7y', '2026-02-30', '2026-13-01', '2026-08-01T25:00', 'd7'])(
    'rejects %j',
    (text) => expect(parseWhen(text, now)).toBeNull(),
  );
});

describe('previews, orphans and reasoning-only replies', () => {
  const path = buildStore(30, (db) => {
    insertSession(db, { id: 'plain', started_at: T0 });
    insertMessage(db, { session_id: 'plain', content: 'how do I rotate the signing keys' });
    insertSession(db, { id: 'composite', started_at: T0 + 10 });
    insertMessage(db, {
      session_id: 'composite',
      content:
        '[CONTEXT COMPACTION — REFERENCE ONLY] we talked about kafka\n--- END OF CONTEXT SUMMARY ---\nnow please tune the consumer lag alert',
    });
    insertSession(db, { id: 'summary-only', started_at: T0 + 20 });
    insertMessage(db, { session_id: 'summary-only', content: '[CONTEXT SUMMARY]: earlier work' });
    insertMessage(db, { session_id: 'summary-only', content: 'the real first question' });
    insertSession(db, {
      id: 'orphan-run',
      started_at: T0 + 30,
      model_config: JSON.stringify({ _delegate_from: '__orphaned__' }),
    });
    insertMessage(db, { session_id: 'orphan-run', content: 'orphaned tool work zanzibar' });
    insertSession(db, { id: 'thinker', started_at: T0 + 40 });
    insertMessage(db, { session_id: 'thinker', content: 'explain the quokka deadlock' });
    insertMessage(db, {
      session_id: 'thinker',
      role: 'assistant',
      content: '',
      reasoning: 'The quokka deadlock comes from lock ordering.',
    });
    insertMessage(db, {
      session_id: 'thinker',
      role: 'assistant',
      content: `\u001b[31mred\u001b[0m ${'x'.repeat(5000)} quokka`,
    });
  });

  it('previews skip summaries: composite rows give the person’s text', () => {
    const store = Store.open(path);
    const rows = new Map(browse(store, { limit: 20 }).map((r) => [r.session_id, r.preview]));
    expect(rows.get('plain')).toBe('how do I rotate the signing keys');
    expect(rows.get('composite')).toBe('now please tune the consumer lag alert');
    expect(rows.get('summary-only')).toBe('the real first question');
    store.close();
  });

  it('orphaned tool runs are not listed, are counted, and stay searchable', () => {
    const store = Store.open(path);
    expect(browse(store, { limit: 20 }).map((r) => r.session_id)).not.toContain('orphan-run');
    expect(hiddenCounts(store)).toMatchObject({ orphaned: 1, delegate: 0, total: 1 });
    const all = browse(store, { limit: 20, all: true }).find((r) => r.session_id === 'orphan-run');
    expect(all?.hidden_reason).toBe('orphaned');
    expect(discover(store, 'zanzibar').results.map((r) => r.session_id)).toEqual(['orphan-run']);
    store.close();
  });

  it('a reasoning-only reply shows its text; ANSI is stripped and the window caps at 4,000', () => {
    const store = Store.open(path);
    const out = searchJson(store, 'explain quokka deadlock', { limit: 1, detail: 'full' }) as Obj;
    const msgs = (out.results as Obj[])[0]!.messages as Obj[];
    const thinking = msgs.find((m) => m.reasoning_only === true)!;
    expect(thinking.content).toBe('The quokka deadlock comes from lock ordering.');
    const long = msgs.find((m) => String(m.content).startsWith('red '))!;
    expect(long.content_truncated).toBe(true);
    expect(long.original_content_chars).toBe(4 + 5000 + 7);
    expect(String(long.content)).toBe(`red ${'x'.repeat(3996)}…`);
    const read = readJson(store, 'thinker') as Obj;
    expect(((read.messages as Obj[])[2]!.content as string).length).toBe(2001);
    store.close();
  });
});

describe('the index the agent reports stale or rebuilding', () => {
  const build = (meta: Record<string, string>) =>
    buildStore(30, (db) => {
      insertSession(db, { id: 's', started_at: T0 });
      insertMessage(db, { session_id: 's', content: 'indexed walrus text' });
      for (const [k, v] of Object.entries(meta))
        db.prepare(`INSERT OR REPLACE INTO state_meta(key, value) VALUES (?, ?)`).run(k, v);
    });

  it('fts_stale: a substring scan with a one-line warning', () => {
    const store = Store.open(build({ fts_stale: '1' }));
    const a = discover(store, 'walrus');
    expect(a.path).toBe('like');
    expect(a.results.map((r) => r.snippet)).toEqual(['indexed walrus text']);
    expect(a.warning).toMatch(/stale/);
    expect(a.warning).not.toMatch(/\n/);
    store.close();
  });

  it('a rebuild in progress: the rows it has not reached are scanned', () => {
    const path = buildStore(30, (db) => {
      insertSession(db, { id: 'old', started_at: T0 });
      insertMessage(db, { session_id: 'old', content: 'the first walrus' });
      insertSession(db, { id: 'new', started_at: T0 + 5 });
      const id = insertMessage(db, { session_id: 'new', content: 'the second walrus' });
      // The rebuild has reached the first message only: drop the second from the index.
      db.prepare(
        `INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) VALUES('delete', ?, 'the second walrus', NULL, NULL)`,
      ).run(id);
      db.prepare(
        `INSERT OR REPLACE INTO state_meta(key, value) VALUES ('fts_rebuild_high_water', ?)`,
      ).run(String(id));
      db.prepare(
        `INSERT OR REPLACE INTO state_meta(key, value) VALUES ('fts_rebuild_progress', ?)`,
      ).run(String(id - 1));
    });
    const store = Store.open(path);
    const a = discover(store, 'walrus', { limit: 5 });
    expect(a.results.map((r) => r.session_id).sort()).toEqual(['new', 'old']);
    expect(a.results.find((r) => r.session_id === 'new')!.snippet).toContain('the second walrus');
    expect(a.warning).toMatch(/rebuilding/);
    store.close();
  });
});

describe('CJK', () => {
  const path = buildStore(30, (db) => {
    insertSession(db, { id: 'a', started_at: T0 });
    insertMessage(db, { session_id: 'a', content: '我们讨论了数据库迁移的问题' });
    insertSession(db, { id: 'b', started_at: T0 + 1 });
    insertMessage(db, { session_id: 'b', content: '今天修改youer服务端配置' });
  });
  it('short CJK tokens are OR-ed in a substring scan', () => {
    const store = Store.open(path);
    const a = discover(store, '迁移 服务', { limit: 5 });
    expect(a.path).toBe('like');
    expect(a.results.map((r) => r.session_id).sort()).toEqual(['a', 'b']);
    store.close();
  });
  it('a Latin word glued to CJK is found by the trigram retry', () => {
    const store = Store.open(path);
    const a = discover(store, 'youer', { limit: 5 });
    expect(a.results.map((r) => r.session_id)).toEqual(['b']);
    expect(a.path).toBe('trigram');
    store.close();
  });
});

describe('the sanitizer of today', () => {
  it('strips the wider special set and % outside CJK queries', async () => {
    const { sanitizeQuery } = await import('../../src/store/query.js');
    expect(sanitizeQuery('50% off @team/#ops & more!?').split(/\s+/)).toEqual([
      '50',
      'off',
      'team',
      'ops',
      'more',
    ]);
    expect(sanitizeQuery('百分之50%')).toBe('百分之50%');
    expect(sanitizeQuery('my_app.config.ts chat-send')).toBe('"my_app.config.ts" "chat-send"');
  });
});
