import { afterAll, describe, expect, it } from 'vitest';
import { resolveAnchor } from '../../src/app/data/anchors.js';
import { extendWindow, openHead, openTail } from '../../src/app/data/chainWindow.js';
import { answerQuery, type QueryResponse } from '../../src/app/data/queries.js';
import { loadRecent } from '../../src/app/data/rows.js';
import { parseAnchor } from '../../src/anchors/parse.js';
import { compressionChain } from '../../src/store/lineage.js';
import { messagesAfter } from '../../src/store/messages.js';
import { Store } from '../../src/store/store.js';
import type { MsgWindow, WinItem } from '../../src/app/geometry/window.js';
import { loadSnapshot } from '../helpers/oracle.js';
import { makeStore } from './harness.js';

const path = makeStore(60);
const store = Store.open(path);
afterAll(() => store.close());

function delegateFrom(modelConfig: string | null): unknown {
  try {
    return (JSON.parse(modelConfig ?? '') as Record<string, unknown> | null)?._delegate_from;
  } catch {
    return undefined;
  }
}

function ids(items: readonly WinItem[]): (number | string)[] {
  return items.map((it) => (it.kind === 'message' ? it.msg.id : `divider:${it.seg}`));
}

function longestChain(): string[] {
  const roots = store.db
    .prepare(`SELECT id FROM sessions WHERE parent_session_id IS NULL`)
    .all() as { id: string }[];
  let best: string[] = [];
  for (const r of roots) {
    const c = compressionChain(store, r.id);
    if (c.length > best.length) best = c;
  }
  return best;
}

/** Every visible message of a chain in reading order, with a divider before each later segment. */
function expected(chain: string[]): (number | string)[] {
  const out: (number | string)[] = [];
  chain.forEach((sid, seg) => {
    if (seg > 0) out.push(`divider:${seg}`);
    for (const m of messagesAfter(store, sid, Number.MIN_SAFE_INTEGER, 1_000_000)) out.push(m.id);
  });
  return out;
}

describe('data layer', () => {
  it('lists recent conversations as sanitized rows with hidden counts', () => {
    const r = loadRecent(store, 10, false);
    expect(r.rows).toHaveLength(10);
    expect(r.complete).toBe(false);
    for (const row of r.rows) expect(row.title).not.toMatch(/[\u0000-\u001f\u007f]/);
    // The counts the status line shows ("N hidden: …"), reckoned from the rows themselves:
    // every root, by its first reason (archived, hidden, then its source, then a delegate
    // marker: an orphaned tool run's, or any other).
    const snap = loadSnapshot(path);
    const want = {
      archived: 0,
      hidden: 0,
      kanban: 0,
      subagent: 0,
      tool: 0,
      delegate: 0,
      orphaned: 0,
    };
    for (const s of snap.sessions.values()) {
      const p = s.parent_session_id;
      if (p !== null && p !== s.id && snap.sessions.has(p)) continue;
      const from = delegateFrom(s.model_config);
      if (s.archived === 1) want.archived++;
      else if (s.hidden === 1) want.hidden++;
      else if (s.source === 'kanban' || s.source === 'subagent' || s.source === 'tool')
        want[s.source]++;
      else if (from === '__orphaned__') want.orphaned++;
      else if (from != null) want.delegate++;
    }
    const total = Object.values(want).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    expect(r.hidden).toEqual({ ...want, total });
  });

  it('reads a compression chain as one history, forward and backward, with dividers', () => {
    const chain = longestChain();
    expect(chain.length).toBeGreaterThan(1);
    const want = expected(chain);
    // Forward from the head, one small keyset page at a time.
    const head = openHead(store, chain)!;
    let win = { ...head.window, top: 0, focus: 0 } as MsgWindow;
    let got = [...win.items];
    while (!win.atEnd) {
      const more = extendWindow(store, win, 'after', 7);
      got = [...got, ...more.items];
      win = { ...win, items: got, atEnd: more.reached };
    }
    expect(ids(got)).toEqual(want);
    // Backward from the tail.
    const tail = openTail(store, chain[0]!)!;
    win = { ...tail.window, top: 0, focus: 0 } as MsgWindow;
    got = [...win.items];
    while (!win.atStart) {
      const more = extendWindow(store, win, 'before', 5);
      got = [...more.items, ...got];
      win = { ...win, items: got, atStart: more.reached };
    }
    expect(ids(got)).toEqual(want);
    expect(tail.window.total).toBe(want.filter((x) => typeof x === 'number').length);
  });

  it('resolves pasted anchors, prefixes included', () => {
    const [sid] = longestChain();
    const m = messagesAfter(store, sid!, 0, 3)[2]!;
    const call = resolveAnchor(
      store,
      parseAnchor(`session_search(session_id="${sid}", around_message_id=${m.id}, window=5)`)!,
    );
    expect(call.items).toHaveLength(1);
    expect(call.items[0]).toMatchObject({ kind: 'jump', sessionId: sid, messageId: m.id });
    const prefix = resolveAnchor(store, parseAnchor(sid!.slice(0, 11))!);
    expect(prefix.items.length).toBeGreaterThan(0);
    expect(prefix.items.every((r) => r.sessionId.startsWith(sid!.slice(0, 11)))).toBe(true);
    expect(
      resolveAnchor(store, { kind: 'sessionId', sessionId: '20990101_000000_abcdef' }).items,
    ).toEqual([]);
  });

  it('answers a search with results, then hit counts, then done', () => {
    const got: QueryResponse[] = [];
    answerQuery(
      store,
      {
        kind: 'search',
        generation: 4,
        query: 'billing',
        sort: 'relevance',
        roles: ['user', 'assistant'],
        limit: 50,
      },
      (r) => got.push(r),
    );
    expect(got[0]).toMatchObject({ kind: 'search', generation: 4, forText: 'billing' });
    const items = (got[0] as Extract<QueryResponse, { kind: 'search' }>).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]!.snippet.some((s) => s.hit)).toBe(true);
    const counts = Object.assign(
      {},
      ...got.filter((r) => r.kind === 'hitCounts').map((r) => (r as { counts: object }).counts),
    );
    expect(Object.keys(counts)).toHaveLength(items.length);
    expect(got[got.length - 1]).toEqual({ kind: 'done', generation: 4, request: 'search' });
  });

  it('highlights terms of a substring (CJK) search, which has no snippet markers', () => {
    const got: QueryResponse[] = [];
    answerQuery(
      store,
      {
        kind: 'search',
        generation: 1,
        query: '数据',
        sort: 'relevance',
        roles: ['user', 'assistant'],
        limit: 10,
      },
      (r) => got.push(r),
    );
    const first = got[0] as Extract<QueryResponse, { kind: 'search' }>;
    expect(first.path).toBe('like');
    if (first.items.length > 0)
      expect(first.items[0]!.snippet.some((s) => s.hit && s.text.includes('数据'))).toBe(true);
  });
});
