/**
 * The agent's recall semantics of August–September 2026 (STORE.md "What the
 * agent's tool does today"), proved on the real fixture rows: the v26 store the
 * August agent wrote itself and the v30 store with display_order compaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { Store } from '../../src/store/store.js';
import { browse, hiddenCounts } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { readSession } from '../../src/store/messages.js';
import { readJson, scroll, searchJson, type Json } from '../../src/store/recall.js';
import { FIXTURE_LAYOUTS, fixtureCopy, sha256 } from '../helpers/fixtures.js';

type Obj = Record<string, Json>;

/** The text of a message FTS5 indexes (content and tool calls), lower-cased. */
function indexed(db: Database.Database, id: number): string {
  const t = db
    .prepare(
      `SELECT COALESCE(content, '') || ' ' || COALESCE(tool_calls, '') AS t FROM messages WHERE id = ?`,
    )
    .pluck()
    .get(id) as string;
  return t.toLowerCase();
}

/** FTS5's own snippet for one row, picked out of every match in JS (no rowid constraint involved). */
function ownSnippet(db: Database.Database, match: string, id: number): string {
  const rows = db
    .prepare(
      `SELECT rowid AS id, snippet(messages_fts, -1, '>>>', '<<<', '...', 40) AS s FROM messages_fts WHERE messages_fts MATCH ?`,
    )
    .all(match) as { id: number; s: string }[];
  return rows.find((r) => r.id === id)!.s;
}

describe.each(FIXTURE_LAYOUTS)('every result carries its own snippet (schema %s)', (layout) => {
  it.each(['pgbouncer', 'token', 'redis'])('%s', (q) => {
    const path = fixtureCopy(layout);
    const store = Store.open(path);
    const raw = new Database(path, { readonly: true });
    const answer = discover(store, q, { limit: 6 });
    expect(answer.results.length).toBeGreaterThan(1);
    // Best hits with different text (here: every one of them) have different snippets.
    if (q === 'redis')
      expect(new Set(answer.results.map((r) => r.snippet)).size).toBe(answer.results.length);
    for (const r of answer.results) {
      expect(r.snippet).toBe(ownSnippet(raw, q, r.match_message_id));
      // And the highlighted words are in that message's own row.
      const row = indexed(raw, r.match_message_id);
      const marked = [...r.snippet.matchAll(/>>>([\p{L}\p{N}_]+)<<</gu)].map((m) =>
        m[1]!.toLowerCase(),
      );
      expect(marked.length).toBeGreaterThan(0);
      for (const w of marked) expect(row.toLowerCase()).toContain(w);
    }
    raw.close();
    store.close();
  });
});

describe.each([26, '30-compacted'] as const)('schema %s: compaction, rewinds, hiding', (layout) => {
  let path: string;
  let hash: string;
  let store: Store;
  let raw: Database.Database;
  const compacted = layout === 26 ? '20260513_194114_a12fdc' : '20260513_194115_a12fdc';
  const text = (id: number) =>
    (raw.prepare(`SELECT content FROM messages WHERE id = ?`).pluck().get(id) as string) ?? '';

  beforeAll(() => {
    path = fixtureCopy(layout);
    hash = sha256(path);
    store = Store.open(path);
    raw = new Database(path, { readonly: true });
  });
  afterAll(() => {
    raw.close();
    store.close();
    expect(sha256(path)).toBe(hash);
  });

  it('finds a turn archived by in-place compaction, at the archived row, with its text', () => {
    const a = discover(store, 'cmp0002_archived', { limit: 3, detail: 'full' });
    expect(a.results).toHaveLength(1);
    const r = a.results[0]!;
    expect(r.session_id).toBe(compacted);
    expect(r.match_message_id).toBe(2825);
    expect(r.snippet).toBe(
      'Before compaction we agreed on marker >>>cmp0002_archived<<< for the rollback plan.',
    );
    expect(raw.prepare(`SELECT active, compacted FROM messages WHERE id = 2825`).get()).toEqual({
      active: 0,
      compacted: 1,
    });
    // The window holds the archived history before the summary.
    const ids = r.messages.map((m) => m.id);
    expect(ids).toContain(1361);
    expect(r.messages.find((m) => m.id === 1361)!.content).toBe(text(1361));
    // The opening the bookends show is the archived first prompt, not the summary.
    expect(r.bookend_start.map((m) => m.content)).toEqual([text(1284), text(1285), text(1286)]);
  });

  it('never shows rewound rows (active 0, compacted 0)', () => {
    for (const q of ['rwa0003_secret', 'rwd0002_secret'])
      expect(discover(store, q, { limit: 5 }).results).toEqual([]);
  });

  it('read returns the live rows only; the transcript shows one copy of the protected tail', () => {
    const r = readSession(store, compacted);
    expect(r.messages.every((m) => m.id >= 2828)).toBe(true);
    expect(r.messages.map((m) => m.id).sort()).toEqual([2828, 2829, 2830]);
    expect(r.messages.find((m) => m.id === 2828)!.content).toMatch(
      /^\[CONTEXT COMPACTION — REFERENCE ONLY\]/,
    );
    const window = scroll(store, compacted, 2825, 3).messages.map((m) => m.id);
    if (layout === 26) {
      // No display_order: id order, every history row.
      expect(window).toEqual([1359, 1360, 1361, 2825, 2826, 2827, 2828]);
    } else {
      // display_order 2826/2827 are shared by the archived rows and their active copies: the active ones are shown.
      expect(window).toEqual([1359, 1360, 1361, 2825, 2829, 2830, 2828]);
      expect(text(2829)).toBe(text(2826));
    }
  });

  it('previews skip compaction summaries and fall back to the first real prompt', () => {
    const rows = browse(store, { limit: 200 });
    const row = rows.find((r) => r.session_id === compacted)!;
    expect(row.preview).toBe(`${text(1284).slice(0, 60)}...`);
    for (const r of rows) expect(r.preview).not.toMatch(/^\[CONTEXT/);
    // A compression chain's tip opens with a summary handoff: its preview is a person's words.
    const tip = rows.find((r) => r.chain_length > 1)!;
    expect(tip.preview.length).toBeGreaterThan(0);
    expect(tip.preview).not.toMatch(/CONTEXT SUMMARY/);
  });

  it('bookends drop compaction summaries as the agent does', () => {
    const a = discover(store, 'Thanks continue next step', { limit: 10, detail: 'full' });
    for (const r of a.results)
      for (const m of [...r.bookend_start, ...r.bookend_end])
        expect(String(m.content)).not.toMatch(/^\s*\[CONTEXT COMPACTION/);
  });

  it('browse leaves out kanban/subagent/tool, hidden, archived; pinned first; the counts say why', () => {
    const rows = browse(store, { limit: 200 });
    const sources = new Map(
      (
        raw.prepare(`SELECT id, source, hidden, archived, pinned FROM sessions`).all() as {
          id: string;
          source: string;
          hidden: number;
          archived: number;
          pinned: number;
        }[]
      ).map((s) => [s.id, s]),
    );
    const roots = rows.map((r) => sources.get(r.root_id)!);
    for (const s of roots) {
      expect(['kanban', 'subagent', 'tool']).not.toContain(s.source);
      expect(s.hidden).toBe(0);
      expect(s.archived).toBe(0);
    }
    const pinned = [...sources.values()].filter((s) => s.pinned === 1).map((s) => s.id);
    expect(pinned).toHaveLength(3);
    expect(new Set(rows.slice(0, 3).map((r) => r.root_id))).toEqual(new Set(pinned));
    expect(rows.slice(0, 3).every((r) => r.pinned)).toBe(true);
    const counts = hiddenCounts(store);
    expect(counts).toMatchObject({ archived: 1, hidden: 3, kanban: 2, tool: 2 });
    const listedAll = browse(store, { limit: 500, all: true });
    expect(listedAll.length - rows.length).toBe(counts.total);
    // Hidden sessions stay searchable.
    const hiddenTitled = raw
      .prepare(`SELECT title FROM sessions WHERE hidden = 1 AND title IS NOT NULL LIMIT 1`)
      .pluck()
      .get() as string;
    const t = discover(store, hiddenTitled, { limit: 3 });
    expect(t.results[0]!.matched_role).toBe('session_title');
    expect(t.results[0]!.title).toBe(hiddenTitled);
  });

  it('search hides kanban and tool sessions and ranks cron below every interactive hit', () => {
    const a = discover(store, 'Can you help', { limit: 80 });
    const src = (id: string) =>
      raw.prepare(`SELECT source FROM sessions WHERE id = ?`).pluck().get(id) as string;
    const sources = a.results.map((r) => src(r.parent_session_id ?? r.session_id));
    expect(sources).not.toContain('kanban');
    expect(sources).not.toContain('tool');
    const firstCron = sources.indexOf('cron');
    expect(firstCron).toBeGreaterThan(0);
    expect(sources.slice(firstCron).every((s) => s === 'cron')).toBe(true);
  });

  it('a query equal to a title puts that conversation first as session_title', () => {
    const j = searchJson(store, '"auth refactor REVIEW"', { limit: 3 }) as Obj;
    const r = (j.results as Obj[])[0]!;
    expect(r.matched_role).toBe('session_title');
    expect(r.title).toBe('Auth Refactor review');
    expect(r.snippet).toBe('Session title matched: Auth Refactor review');
    expect(r.detail).toBe('full');
    expect(r.link).toBe(`@session:default/${String(r.session_id)}`);
  });

  it('adaptive detail hydrates the first result only; full hydrates all', () => {
    const adaptive = searchJson(store, 'redis', { limit: 3 }) as Obj;
    const rs = adaptive.results as Obj[];
    expect(adaptive.detail).toBe('adaptive');
    expect(rs.map((r) => r.detail)).toEqual(['full', 'compact', 'compact']);
    for (const r of rs.slice(1)) {
      expect((r.messages as Obj[]).map((m) => m.id)).toEqual([r.match_message_id]);
      expect(r.bookend_start).toEqual([]);
      expect(r.bookend_end).toEqual([]);
      const anchor = (r.messages as Obj[])[0]!;
      expect(anchor.anchor).toBe(true);
    }
    const full = searchJson(store, 'redis', { limit: 3, detail: 'full' }) as Obj;
    expect((full.results as Obj[]).every((r) => r.detail === 'full')).toBe(true);
    expect(((full.results as Obj[])[1]!.messages as Obj[]).length).toBeGreaterThan(1);
  });

  it('caps read text at 2,000 characters and says how long it was; every answer has its link', () => {
    const longs = raw
      .prepare(
        `SELECT id, session_id, length(content) AS n FROM messages WHERE active = 1 AND length(content) > 2100 ORDER BY id`,
      )
      .all() as { id: number; session_id: string; n: number }[];
    let checked = 0;
    for (const long of longs) {
      const read = readJson(store, long.session_id) as Obj;
      expect(read.link).toBe(`@session:default/${long.session_id}`);
      const msg = (read.messages as Obj[]).find((m) => m.id === long.id);
      if (!msg) continue;
      expect(msg.content_truncated).toBe(true);
      expect(msg.original_content_chars).toBe(long.n);
      expect(String(msg.content)).toBe(`${Array.from(text(long.id)).slice(0, 2000).join('')}…`);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
