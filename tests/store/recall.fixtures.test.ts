import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { browse } from '../../src/store/browse.js';
import { discover } from '../../src/store/search.js';
import { scroll } from '../../src/store/recall.js';
import { readSession } from '../../src/store/messages.js';
import { StoreError } from '../../src/store/errors.js';
import { FIXTURE_LAYOUTS, fixtureCopy, schemaOf, sha256 } from '../helpers/fixtures.js';
import {
  expectedBrowse,
  expectedDiscover,
  expectedView,
  liveRows,
  loadSnapshot,
  rootOf,
  transcript,
  type Snapshot,
} from '../helpers/oracle.js';

describe.each(FIXTURE_LAYOUTS)('schema %s fixture', (layout) => {
  let path: string;
  let store: Store;
  let snap: Snapshot;
  let hash: string;

  beforeAll(() => {
    path = fixtureCopy(layout);
    hash = sha256(path);
    snap = loadSnapshot(path);
    store = Store.open(path);
  });
  afterAll(() => {
    store.close();
    expect(sha256(path)).toBe(hash);
  });

  it('detects the layout', () => {
    expect(store.layout.schemaVersion).toBe(schemaOf(layout));
    expect(store.layout.fts).toBe(schemaOf(layout) >= 23 ? 'external' : 'inline');
    expect(store.layout.trigram).toBe(layout !== 6);
    expect(store.warnings).toEqual([]);
  });

  it('browse lists root conversations by chain activity, chains collapsed to their tip', () => {
    const got = browse(store, { limit: 50 });
    const want = expectedBrowse(snap, 50);
    expect(got.map((r) => r.session_id)).toEqual(want.map((r) => r.session_id));
    expect(got.map((r) => r.started_at)).toEqual(want.map((r) => r.started_at));
    // Chains really were collapsed somewhere in these fixtures.
    expect(got.some((r) => r.chain_length > 1 && r.session_id !== r.root_id)).toBe(true);
    for (const r of got) expect(r.preview.length).toBeLessThanOrEqual(63);
  });

  it.each([
    'billing migration',
    'pgbouncer',
    'webhook OR ledger',
    '"connection pool"',
    'stripe NOT invoices',
  ])("discover %s returns the agent's conversations in order with the anchored view", (q) => {
    const answer = discover(store, q, { limit: 10, detail: 'full' });
    const want = expectedDiscover(snap, snap.ftsOrder(q), 10);
    expect(want.length).toBeGreaterThan(0);
    expect(answer.results.map((r) => [r.session_id, r.match_message_id])).toEqual(
      want.map((w) => [w.session_id, w.match_message_id]),
    );
    for (const [i, r] of answer.results.entries()) {
      const w = want[i]!;
      expect(r.parent_session_id).toBe(w.root === w.session_id ? null : w.root);
      const v = expectedView(snap, r.session_id, r.match_message_id);
      expect(r.messages.map((m) => m.id)).toEqual(v.messages);
      expect(r.bookend_start.map((m) => m.id)).toEqual(v.bookend_start);
      expect(r.bookend_end.map((m) => m.id)).toEqual(v.bookend_end);
      expect([r.messages_before, r.messages_after]).toEqual([v.messages_before, v.messages_after]);
      expect(r.snippet).toMatch(/>>>.+<<</);
      expect(r.when).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  it('sort newest puts the newest hit first', () => {
    const answer = discover(store, 'migration', { limit: 5, sort: 'newest' });
    const ts = answer.results.map((r) => r.hit_timestamp);
    expect(ts).toEqual([...ts].sort((a, b) => b - a));
  });

  it('scroll returns the raw slice and pages with the boundary message repeated', () => {
    const sid = [...snap.bySession.keys()].find((id) => transcript(snap, id).length > 30)!;
    const list = transcript(snap, sid);
    const anchor = list[15]!.id;
    const a = scroll(store, sid, anchor, 5);
    expect(a.messages.map((m) => m.id)).toEqual(list.slice(10, 21).map((m) => m.id));
    const next = scroll(store, sid, a.messages[a.messages.length - 1]!.id, 5);
    const boundary = a.messages[a.messages.length - 1]!.id;
    expect(next.messages.map((m) => m.id)).toEqual(list.slice(15, 26).map((m) => m.id));
    expect(next.messages.map((m) => m.id)).toContain(boundary);
    expect(scroll(store, sid, anchor, 99).window).toBe(20);
    expect(scroll(store, sid, anchor, 0).window).toBe(1);
  });

  it('scroll rebinds within a lineage and refuses across lineages', () => {
    const child = [...snap.sessions.values()].find(
      (s) =>
        s.parent_session_id && s.end_reason !== null && (snap.bySession.get(s.id)?.length ?? 0) > 3,
    )!;
    const parent = child.parent_session_id!;
    const childMsg = transcript(snap, child.id)[1]!.id;
    const a = scroll(store, parent, childMsg, 3);
    expect(a.session_id).toBe(child.id);
    expect(a.warning).toBe(
      `around_message_id ${childMsg} lives in ${child.id} (child of ${parent}); rebound transparently`,
    );
    const other = [...snap.sessions.values()].find(
      (s) => rootOf(snap, s.id) !== rootOf(snap, child.id) && snap.bySession.has(s.id),
    )!;
    expect(() => scroll(store, other.id, childMsg, 3)).toThrow(
      `around_message_id ${childMsg} not in session_id ${other.id}`,
    );
    expect(() => scroll(store, 'nope', childMsg, 3)).toThrow(StoreError);
  });

  it('read gives the whole small session, or the first 20 and last 10', () => {
    for (const sid of snap.bySession.keys()) {
      const list = liveRows(snap, sid).map((m) => m.id);
      const r = readSession(store, sid);
      expect(r.total).toBe(list.length);
      expect(r.messages.map((m) => m.id)).toEqual(
        list.length <= 30 ? list : [...list.slice(0, 20), ...list.slice(-10)],
      );
      expect(r.truncated).toBe(list.length > 30);
    }
  });
});
