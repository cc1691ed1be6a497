import { describe, expect, it } from 'vitest';
import type { ResultItem, SessionRow } from '../../src/app/model.js';
import { initialState, reduce } from '../../src/app/state/reduce.js';
import { selectedRecent } from '../../src/app/state/selectors.js';
import type { AppState } from '../../src/app/state/types.js';

function row(i: number): SessionRow {
  return {
    sessionId: `s${i}`,
    rootId: `s${i}`,
    title: `Session ${i}`,
    hasTitle: true,
    preview: '',
    source: 'cli',
    cwd: '',
    startedAt: 0,
    lastActive: 0,
    messageCount: 10,
    chainLength: 1,
    open: false,
    endedAt: 0,
    endReason: null,
    pinned: false,
    lastReadAt: null,
    hiddenReason: null,
    branches: i === 2 ? 1 : 0,
    depth: 0,
  };
}

function result(i: number): ResultItem {
  return {
    key: `r${i}`,
    kind: 'hit',
    sessionId: `s${i}`,
    rootId: `s${i}`,
    title: `R${i}`,
    source: 'cli',
    startedAt: 0,
    when: 0,
    messageId: i,
    matchedRole: 'user',
    snippet: [],
    live: false,
  };
}

function base(rows = 100): AppState {
  return initialState({
    size: { cols: 80, rows: 24 },
    store: { profile: 'default', path: '/s.db', demo: false },
    now: 0,
    rows: Array.from({ length: rows }, (_, i) => row(i)),
  });
}

describe('state reducer', () => {
  it('moves a list selection and keeps it on screen', () => {
    let s = base();
    s = reduce(s, { type: 'listNav', pane: 'recent', move: 'line', dir: 1 });
    expect(s.recent.list).toEqual({ selected: 1, offset: 0 });
    s = reduce(s, { type: 'listNav', pane: 'recent', move: 'edge', dir: 1 });
    // 24 rows: 18 lines inside the pane.
    expect(s.recent.list).toEqual({ selected: 99, offset: 82 });
    s = reduce(s, { type: 'listNav', pane: 'recent', move: 'page', dir: -1 });
    expect(s.recent.list.selected).toBe(82);
    s = reduce(s, { type: 'listNav', pane: 'recent', move: 'line', dir: -1 });
    expect(s.recent.list.selected).toBe(81);
    expect(s.recent.list.offset).toBeLessThanOrEqual(81);
  });

  it('keeps the same conversation selected when the list is refreshed', () => {
    let s = reduce(base(), { type: 'listSelect', pane: 'recent', index: 5 });
    const rows = [row(1000), ...s.recent.rows];
    s = reduce(s, { type: 'recentLoaded', rows, complete: true });
    expect(selectedRecent(s)?.sessionId).toBe('s5');
    expect(s.recent.list.selected).toBe(6);
  });

  it('nests branch rows under their parent and collapses them', () => {
    let s = reduce(base(5), {
      type: 'branchesLoaded',
      rootId: 's2',
      rows: [{ ...row(9), depth: 1 }],
    });
    expect(s.recent.entries.map((r) => r.sessionId)).toEqual(['s0', 's1', 's2', 's9', 's3', 's4']);
    s = reduce(s, { type: 'listSelect', pane: 'recent', index: 3 });
    s = reduce(s, { type: 'collapseBranches', rootId: 's2' });
    expect(s.recent.entries).toHaveLength(5);
    expect(selectedRecent(s)?.sessionId).toBe('s2');
  });

  it('Esc leaves the search line keeping the query; a second Esc clears it and goes to Recent', () => {
    let s = reduce(base(), { type: 'setTyping', on: true });
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: 'billing' } });
    // Nothing found: leaving the line keeps the query, and Results (with its hint) stay the list.
    s = reduce(s, { type: 'back' });
    expect([s.search.text, s.typing, s.pane]).toEqual(['billing', false, 'results']);
    s = reduce(s, { type: 'back' });
    expect([s.search.text, s.typing, s.pane]).toEqual(['', false, 'recent']);
    // With results, leaving the search line stays on them; one more Esc clears and goes to Recent.
    s = reduce(s, { type: 'setTyping', on: true });
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: 'x' } });
    s = reduce(s, {
      type: 'resultsLoaded',
      generation: 0,
      forText: 'x',
      items: [result(1)],
      path: null,
      message: null,
    });
    s = reduce(s, { type: 'back' });
    expect([s.search.text, s.typing, s.pane]).toEqual(['x', false, 'results']);
    s = reduce(s, { type: 'back' });
    expect([s.search.text, s.pane]).toEqual(['', 'recent']);
  });

  it('/ reopens the line with the query selected: typing replaces it, a movement keeps it', () => {
    let s = reduce(base(), { type: 'setTyping', on: true });
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: 'billing' } });
    s = reduce(s, { type: 'back' });
    s = reduce(s, { type: 'setTyping', on: true, select: true });
    expect(s.search.selected).toBe(true);
    const replaced = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: 'a' } });
    expect([replaced.search.text, replaced.search.selected]).toEqual(['a', false]);
    const kept = reduce(s, { type: 'searchEdit', action: { type: 'left' } });
    expect([kept.search.text, kept.search.cursor, kept.search.selected]).toEqual([
      'billing',
      6,
      false,
    ]);
  });

  it('walks the history with ↑/↓, skipping an entry equal to the line', () => {
    let s = reduce(base(), { type: 'historyRecord', query: 'alpha' });
    s = reduce(s, { type: 'historyRecord', query: 'beta' });
    s = reduce(s, { type: 'setTyping', on: true });
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: 'beta' } });
    s = reduce(s, { type: 'historyWalk', dir: -1 });
    expect(s.search.text).toBe('alpha');
    s = reduce(s, { type: 'historyWalk', dir: 1 });
    expect(s.search.text).toBe('beta');
  });

  it('Tab while typing leaves the search line for the list on screen', () => {
    const typing = reduce(base(), { type: 'setTyping', on: true });
    // Empty search line: the list is Recent.
    expect(reduce(typing, { type: 'cyclePane', dir: 1 }).pane).toBe('recent');
    const q = reduce(typing, { type: 'searchEdit', action: { type: 'insert', text: 'a' } });
    const fwd = reduce(q, { type: 'cyclePane', dir: 1 });
    expect([fwd.typing, fwd.pane]).toEqual([false, 'results']);
  });

  it('edits the search text', () => {
    let s = reduce(base(), { type: 'setTyping', on: true });
    // One list: Recent while the line is empty, Results once it holds a query.
    expect(s.pane).toBe('recent');
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: 'billing mig' } });
    expect(s.pane).toBe('results');
    s = reduce(s, { type: 'searchEdit', action: { type: 'backspace' } });
    expect(s.search.text).toBe('billing mi');
    s = reduce(s, { type: 'searchEdit', action: { type: 'deleteWordBefore' } });
    expect(s.search.text).toBe('billing ');
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: '数据' } });
    s = reduce(s, { type: 'searchEdit', action: { type: 'backspace' } });
    expect(s.search.text).toBe('billing 数');
    s = reduce(s, { type: 'searchEdit', action: { type: 'home' } });
    s = reduce(s, { type: 'searchEdit', action: { type: 'insert', text: '"' } });
    expect([s.search.text, s.search.cursor]).toEqual(['"billing 数', 1]);
    s = reduce(s, { type: 'searchEdit', action: { type: 'clear' } });
    expect(s.search.text).toBe('');
  });

  it('drops answers of superseded searches', () => {
    let s = reduce(base(), { type: 'searchStarted', generation: 1, forText: 'a' });
    s = reduce(s, { type: 'searchStarted', generation: 2, forText: 'ab' });
    const stale = reduce(s, {
      type: 'resultsLoaded',
      generation: 1,
      forText: 'a',
      items: [result(1)],
      path: 'fts',
      message: null,
    });
    expect(stale).toBe(s);
    s = reduce(s, {
      type: 'resultsLoaded',
      generation: 2,
      forText: 'ab',
      items: [result(1), result(2)],
      path: 'fts',
      message: null,
    });
    expect(s.results.items).toHaveLength(2);
    expect(s.results.busy).toBe(false);
    s = reduce(s, { type: 'hitCounts', generation: 2, counts: { r1: 3 } });
    expect(s.results.hitCounts).toEqual({ r1: 3 });
    expect(reduce(s, { type: 'hitCounts', generation: 1, counts: { r2: 9 } })).toBe(s);
  });

  it('cycles sort, modes and panes', () => {
    let s = base();
    s = reduce(s, { type: 'cycleSort' });
    expect(s.search.sort).toBe('newest');
    s = reduce(reduce(s, { type: 'cycleSort' }), { type: 'cycleSort' });
    expect(s.search.sort).toBe('relevance');
    // No conversation shown: Tab stays on the one list.
    s = reduce(s, { type: 'cyclePane', dir: 1 });
    expect(s.pane).toBe('recent');
  });

  it('toggles marks across sessions', () => {
    let s = reduce(base(), { type: 'toggleMark', ref: { sessionId: 'a', messageId: 1 } });
    s = reduce(s, { type: 'toggleMark', ref: { sessionId: 'b', messageId: 2 } });
    expect(s.marks).toHaveLength(2);
    s = reduce(s, { type: 'toggleMark', ref: { sessionId: 'a', messageId: 1 } });
    expect(s.marks).toEqual([{ sessionId: 'b', messageId: 2 }]);
    expect(reduce(s, { type: 'clearMarks' }).marks).toEqual([]);
  });

  it('runs the copy menu and the help overlay', () => {
    let s = reduce(base(), {
      type: 'openCopyMenu',
      options: [
        { form: 'link', label: 'l', text: 'a' },
        { form: 'scroll', label: 's', text: 'b' },
      ],
    });
    s = reduce(s, { type: 'menuMove', dir: -1 });
    expect(s.overlay).toMatchObject({ kind: 'copy', selected: 1 });
    s = reduce(s, { type: 'closeOverlay' });
    expect(s.overlay).toBeNull();
    expect(reduce(s, { type: 'openHelp' }).overlay).toEqual({ kind: 'help', scroll: 0 });
  });
});
