/**
 * Adaptive discover reads compact results (the anchor and the window's lengths)
 * for all results in one statement, and snippets in one pass over the matches:
 * both are compared here with the oracle (tests/helpers/oracle.ts) and with
 * FTS5's own snippet of each row, on the real fixtures and generated stores
 * with in-place compaction, cron runs and hidden sources.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateStore } from '../../src/demo/generate.js';
import { Store } from '../../src/store/store.js';
import { discover } from '../../src/store/search.js';
import { anchorCounts } from '../../src/store/messages.js';
import { FIXTURE_LAYOUTS, fixtureCopy, sha256, tempDir } from '../helpers/fixtures.js';
import {
  expectedDiscover,
  expectedView,
  loadSnapshot,
  shownIn,
  transcript,
  type Snapshot,
} from '../helpers/oracle.js';

type Case = { name: string; path: () => string; cjk?: boolean };

const generated = (layout: 16 | 30): Case => ({
  name: `generated schema ${layout}`,
  cjk: true,
  path: () => {
    const path = join(tempDir(), 'state.db');
    generateStore(path, { layout, sessions: 300, seed: 7 });
    return path;
  },
});

const CASES: Case[] = [
  ...FIXTURE_LAYOUTS.map((l) => ({ name: `fixture ${l}`, path: () => fixtureCopy(l) })),
  generated(16),
  generated(30),
];

const QUERIES = [
  'migration',
  'billing migration',
  'pgbouncer timeout',
  '"connection pool"',
  'webhook OR ledger',
  'deploy*',
];

describe.each(CASES)('$name', ({ path: make, cjk }) => {
  let path: string;
  let hash: string;
  let store: Store;
  let raw: Database.Database;
  let snap: Snapshot;

  beforeAll(() => {
    path = make();
    hash = sha256(path);
    store = Store.open(path);
    raw = new Database(path, { readonly: true });
    snap = loadSnapshot(path);
  });
  afterAll(() => {
    raw.close();
    store.close();
    expect(sha256(path)).toBe(hash);
  });

  /** FTS5's snippet of one row, picked out of every match in JS (no rowid constraint). */
  const ownSnippet = (match: string, id: number): string =>
    (
      raw
        .prepare(
          `SELECT rowid AS id, snippet(messages_fts, -1, '>>>', '<<<', '...', 40) AS s FROM messages_fts WHERE messages_fts MATCH ?`,
        )
        .all(match) as { id: number; s: string }[]
    ).find((r) => r.id === id)!.s;

  it('adaptive results: the oracle order, the first in full, the rest as anchor and window lengths', () => {
    let compactSeen = 0;
    for (const q of QUERIES) {
      // The oracle is the agent's exact search: the relaxed leg is off.
      const answer = discover(store, q, { limit: 10, relaxed: false });
      const want = expectedDiscover(snap, snap.ftsOrder(q), 10);
      expect(answer.results.map((r) => [r.session_id, r.match_message_id])).toEqual(
        want.map((w) => [w.session_id, w.match_message_id]),
      );
      for (const [i, r] of answer.results.entries()) {
        const v = expectedView(snap, r.session_id, r.match_message_id);
        expect([r.messages_before, r.messages_after]).toEqual([
          v.messages_before,
          v.messages_after,
        ]);
        expect(r.snippet).toBe(ownSnippet(q, r.match_message_id));
        if (i === 0) {
          expect(r.detail).toBe('full');
          expect(r.messages.map((m) => m.id)).toEqual(v.messages);
          expect(r.bookend_start.map((m) => m.id)).toEqual(v.bookend_start);
          expect(r.bookend_end.map((m) => m.id)).toEqual(v.bookend_end);
          continue;
        }
        compactSeen++;
        expect(r.detail).toBe('compact');
        expect(r.messages.map((m) => m.id)).toEqual([r.match_message_id]);
        expect([r.bookend_start, r.bookend_end]).toEqual([[], []]);
        // The anchor shown is that row, with its text.
        const row = snap.messages.find((m) => m.id === r.match_message_id)!;
        const anchor = r.messages[0]!;
        expect([anchor.session_id, anchor.role, anchor.timestamp]).toEqual([
          row.session_id,
          row.role,
          row.timestamp,
        ]);
        if (row.content && !row.content.startsWith('\u0000'))
          expect(anchor.content).toBe(row.content);
      }
    }
    expect(compactSeen).toBeGreaterThan(0);
  });

  it('substring scans (2-character CJK): the scan order, interactive before cron, hidden sources out', () => {
    for (const q of ['数据', '迁移']) {
      const answer = discover(store, q, { limit: 10 });
      // The scan's order straight from SQLite: every row holding the term, newest id first.
      const order = raw
        .prepare(
          `SELECT id FROM messages WHERE instr(content, ?) > 0 OR instr(tool_name, ?) > 0 OR instr(tool_calls, ?) > 0 ORDER BY id DESC`,
        )
        .pluck()
        .all(q, q, q) as number[];
      const want = expectedDiscover(snap, order, 10);
      // The generated stores hold CJK conversations (the fixtures none).
      if (cjk) expect(want.length).toBeGreaterThan(0);
      expect(answer.path).toBe('like');
      expect(answer.results.map((r) => [r.session_id, r.match_message_id])).toEqual(
        want.map((w) => [w.session_id, w.match_message_id]),
      );
      for (const r of answer.results.slice(1)) {
        const v = expectedView(snap, r.session_id, r.match_message_id);
        expect([r.messages_before, r.messages_after]).toEqual([
          v.messages_before,
          v.messages_after,
        ]);
        expect(r.snippet).toContain(q);
      }
    }
  });

  it('anchor counts: every shown message of every compacted session, and a sample of the rest', () => {
    const compacted = new Set(snap.messages.filter((m) => m.active === 0).map((m) => m.session_id));
    const anchors = [
      ...snap.messages.filter((m) => compacted.has(m.session_id)).slice(0, 600),
      ...snap.messages.filter((m, i) => !compacted.has(m.session_id) && i % 29 === 0),
    ];
    for (const window of [5, 2, 0]) {
      const got = anchorCounts(
        store,
        anchors.map((m) => ({ sessionId: m.session_id, anchorId: m.id })),
        window,
      );
      let shown = 0;
      for (const [i, m] of anchors.entries()) {
        const c = got[i]!;
        if (!shownIn(snap, m)) {
          expect(c, `message ${m.id} is not in its transcript`).toBeNull();
          continue;
        }
        shown++;
        const v = expectedView(snap, m.session_id, m.id, window);
        expect(c, `message ${m.id}`).not.toBeNull();
        expect([c!.anchor.id, c!.messages_before, c!.messages_after]).toEqual([
          m.id,
          v.messages_before,
          v.messages_after,
        ]);
      }
      expect(shown).toBeGreaterThan(0);
    }
    // A message asked for in a session it is not in has no window there.
    const other = snap.messages.find((m) => m.session_id !== snap.messages[0]!.session_id)!;
    expect(
      anchorCounts(store, [{ sessionId: other.session_id, anchorId: snap.messages[0]!.id }], 5),
    ).toEqual([null]);
    // Where a compaction kept display_order, a transcript really is in another order than ids.
    if (snap.displayOrder && snap.messages.some((m) => m.compacted === 1))
      expect(
        [...compacted].some((sid) => {
          const ids = transcript(snap, sid).map((m) => m.id);
          return ids.some((id, k) => k > 0 && id < ids[k - 1]!);
        }),
      ).toBe(true);
  });
});
