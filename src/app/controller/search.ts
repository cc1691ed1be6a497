/** The search line: answering a query the fastest correct way (anchor, fuzzy, full text), pastes, and the worker's answers. */
import { parseAnchor, parseAnchors } from '../../anchors/parse.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { fuzzyResults } from '../data/fuzzy.js';
import { pinnedFirst } from '../data/rows.js';
import { type QueryResponse, SEARCH_LIMIT } from '../data/queries.js';
import { isMarked, roles } from '../state/selectors.js';
import { openResult } from './conversation.js';
import { type Ctx, SEARCH_DEBOUNCE_MS } from './ctx.js';
import { applyRecent } from './recent.js';
import { say } from './status.js';

/** The search text (or mode, sort, roles) changed: answer it the fastest correct way. */
export function searchChanged(ctx: Ctx): void {
  const s = ctx.state;
  const text = s.search.text;
  if (ctx.search.debounce !== null) {
    ctx.timers.clearTimeout(ctx.search.debounce);
    ctx.search.debounce = null;
  }
  if (text.trim() === '') {
    ctx.search.gen++;
    ctx.dispatch({ type: 'searchStarted', generation: ctx.search.gen, forText: '' });
    ctx.dispatch({ type: 'clearResults' });
    return;
  }
  const anchor = parseAnchor(text);
  if (anchor) {
    const gen = ++ctx.search.gen;
    const found = ctx.data.resolve(anchor);
    ctx.dispatch({ type: 'searchStarted', generation: gen, forText: text });
    ctx.dispatch({
      type: 'resultsLoaded',
      generation: gen,
      forText: text,
      items: found.items,
      path: null,
      message: found.message,
    });
    return;
  }
  if (s.search.mode === 'fuzzy') {
    const gen = ++ctx.search.gen;
    const items = fuzzyResults(s.recent.rows, text);
    ctx.dispatch({ type: 'searchStarted', generation: gen, forText: text });
    ctx.dispatch({
      type: 'resultsLoaded',
      generation: gen,
      forText: text,
      items,
      path: null,
      message: items.length === 0 ? 'no conversation matches' : null,
    });
    return;
  }
  // Mark the list as searching now; ask after a pause in typing.
  const gen = ++ctx.search.gen;
  ctx.dispatch({ type: 'searchStarted', generation: gen, forText: text });
  ctx.search.debounce = ctx.timers.setTimeout(() => {
    ctx.search.debounce = null;
    const cur = ctx.state;
    ctx.client.request({
      kind: 'search',
      generation: gen,
      query: cur.search.text,
      sort: cur.search.sort,
      roles: roles(cur),
      limit: SEARCH_LIMIT,
    });
  }, ctx.o.debounceMs ?? SEARCH_DEBOUNCE_MS);
}

export function paste(ctx: Ctx, raw: string): void {
  const many = parseAnchors(raw);
  if (many.length > 1) {
    // A pasted block of several anchors (what `y` copies with marks): mark them all.
    let added = 0;
    for (const a of many) {
      if (a.kind !== 'scroll') continue;
      const ref = { sessionId: a.sessionId, messageId: a.messageId };
      if (!isMarked(ctx.state, ref)) {
        ctx.dispatch({ type: 'toggleMark', ref });
        added++;
      }
    }
    ctx.setStatus(say.pastedAnchors(many.length, added));
    return;
  }
  const text = sanitizeLine(raw).trim();
  const anchor = parseAnchor(raw) ?? many[0] ?? null;
  const wasTyping = ctx.state.typing;
  ctx.dispatch({ type: 'setTyping', on: true });
  // A pasted anchor stands alone; other text is typed where the cursor is.
  if (anchor || !wasTyping) ctx.dispatch({ type: 'searchEdit', edit: 'clear' });
  ctx.dispatch({ type: 'searchEdit', edit: 'insert', text });
  searchChanged(ctx);
  if (!anchor) return;
  const first = ctx.state.results.items[0];
  if (first && first.kind === 'jump' && ctx.state.results.items.length === 1)
    openResult(ctx, first);
}

export function onQueryResponse(ctx: Ctx, r: QueryResponse): void {
  if (ctx.stopped) return;
  ctx.batch(() => {
    switch (r.kind) {
      case 'search':
        if (r.generation !== ctx.search.gen) return;
        ctx.dispatch({
          type: 'resultsLoaded',
          generation: r.generation,
          forText: r.forText,
          items: r.items,
          path: r.path,
          message: r.message,
        });
        return;
      case 'hitCounts':
        if (r.generation !== ctx.search.gen) return;
        ctx.dispatch({ type: 'hitCounts', generation: r.generation, counts: r.counts });
        return;
      case 'recent': {
        if (r.generation !== ctx.recent.gen) return;
        if (r.generation !== ctx.recent.topPageGen)
          return applyRecent(ctx, r.rows, r.complete, r.hidden);
        // The fresh top of the list, then the rest as last loaded.
        const top = new Set(r.rows.map((row) => row.rootId));
        const rest = ctx.state.recent.rows.filter((row) => !top.has(row.rootId));
        applyRecent(ctx, pinnedFirst([...r.rows, ...rest]), ctx.state.recent.complete, r.hidden);
        return;
      }
      case 'error':
        if (r.request === 'search' && r.generation !== ctx.search.gen) return;
        ctx.setStatus(r.message, 'error');
        if (r.request === 'search')
          ctx.dispatch({
            type: 'resultsLoaded',
            generation: r.generation,
            forText: ctx.state.search.text,
            items: [],
            path: null,
            message: r.message,
          });
        return;
      case 'done':
        return;
    }
  });
}
