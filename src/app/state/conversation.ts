/** The open conversation: its message window, live growth, expansion and focus. */
import {
  appendItems,
  appendLive,
  focusIndex,
  indexOfMessage,
  moveFocus,
  openWindow,
  pageMove,
  prependItems,
  relayout,
  type Measure,
} from '../geometry/window.js';
import { termsFromQuery } from '../../text/highlight.js';
import { measureFor, viewHeight } from './selectors.js';
import type { AppState, ConversationAction, MessageView } from './types.js';

export function setView(s: AppState, view: MessageView | null): AppState {
  return { ...s, view };
}

function updateView(
  s: AppState,
  fn: (v: MessageView, measure: Measure, viewH: number) => MessageView,
): AppState {
  const v = s.view;
  if (!v) return s;
  return setView(s, fn(v, measureFor(s, v), viewHeight(s, v)));
}

/** The list Esc returns to from a view opened now: the one it was opened from. */
function viewOrigin(s: AppState): AppState['origin'] {
  if (s.pane === 'messages') return s.origin;
  return s.pane === 'recent' && !s.typing ? 'recent' : 'results';
}

export function reduceConversation(s: AppState, a: ConversationAction): AppState {
  switch (a.type) {
    case 'openView': {
      const expanded = new Set<number>();
      // Reasoning shown stays shown for the next conversation; expansions are per conversation.
      const reasoning = s.view?.reasoning ?? false;
      const hideTools = s.view?.hideTools ?? false;
      // Code cut (S) stays cut for the next conversation, back at its first column.
      const codeShift = s.view?.codeShift == null ? null : 0;
      const measure = measureFor(s, {
        expanded,
        reasoning,
        hideTools,
        codeShift,
        terms: a.view.terms,
      });
      const win = openWindow(
        a.window,
        a.focusIndex,
        measure,
        viewHeight(s, { win: a.window }),
        a.placement,
      );
      const view = { ...a.view, win, expanded, reasoning, hideTools, codeShift };
      // A preview (the selection moved) leaves the keyboard on the list.
      if (!a.focus) return { ...s, view };
      return {
        ...s,
        view,
        pane: 'messages',
        origin: viewOrigin(s),
        typing: false,
        overlay: null,
        // The incremental find reloads the same conversation around a match: its line stays open.
        findLine: s.view?.key === a.view.key ? s.findLine : null,
      };
    }
    case 'focusView':
      return s.view
        ? { ...s, pane: 'messages', origin: viewOrigin(s), typing: false, overlay: null }
        : s;
    case 'extendView':
      return updateView(s, (v, measure, viewH) => ({
        ...v,
        win:
          a.side === 'before'
            ? prependItems(v.win, a.items, a.reached, measure, viewH)
            : appendItems(v.win, a.items, a.reached, measure, viewH),
      }));
    case 'liveAppend':
      return updateView(s, (v, measure, viewH) => ({
        ...v,
        live: a.live,
        bookEnd: a.bookEnd === undefined ? v.bookEnd : a.bookEnd,
        win: appendLive(v.win, a.items, measure, viewH),
      }));
    case 'chainGrew':
      return updateView(s, (v) => ({
        ...v,
        live: a.live,
        win: { ...v.win, chain: a.chain, total: a.total, atEnd: false },
      }));
    case 'viewNav':
      return updateView(s, (v, measure, viewH) => ({
        ...v,
        win:
          a.move === 'line'
            ? moveFocus(v.win, measure, viewH, a.dir)
            : pageMove(v.win, measure, viewH, a.dir),
      }));
    case 'focusMessage':
      return updateView(s, (v, measure, viewH) => {
        const i = indexOfMessage(v.win.items, a.id);
        return i < 0 ? v : { ...v, win: focusIndex(v.win, i, measure, viewH) };
      });
    case 'toggleExpand':
      return updateView(s, (v) => {
        const item = v.win.items[v.win.focus];
        if (!item || item.kind !== 'message') return v;
        const expanded = new Set(v.expanded);
        if (expanded.has(item.msg.id)) expanded.delete(item.msg.id);
        else expanded.add(item.msg.id);
        const next = { ...v, expanded };
        // The header stays on its row; only the lines below it change.
        return {
          ...next,
          win: relayout(v.win, measureFor(s, v), measureFor(s, next), viewHeight(s, next)),
        };
      });
    case 'setFind':
      return updateView(s, (v) => {
        // Found text is highlighted instead of the search's terms while a find is on.
        const terms = a.find ? [a.find.text] : v.query ? termsFromQuery(v.query) : [];
        const next = { ...v, find: a.find, terms };
        return {
          ...next,
          win: relayout(v.win, measureFor(s, v), measureFor(s, next), viewHeight(s, next)),
        };
      });
    case 'restoreView':
      return setView(s, a.view);
    case 'setCodeShift':
      return updateView(s, (v) => {
        const next = { ...v, codeShift: a.shift };
        return {
          ...next,
          win: relayout(v.win, measureFor(s, v), measureFor(s, next), viewHeight(s, next)),
        };
      });
    case 'toggleToolSteps':
      return updateView(s, (v) => {
        const next = { ...v, hideTools: !v.hideTools };
        const measure = measureFor(s, next);
        const viewH = viewHeight(s, next);
        const win = relayout(v.win, measureFor(s, v), measure, viewH);
        // A focused tool step that is now hidden hands the focus to the nearest shown message.
        return { ...next, win: focusIndex(win, win.focus, measure, viewH) };
      });
    case 'toggleReasoning':
      return updateView(s, (v) => {
        const next = { ...v, reasoning: !v.reasoning };
        return {
          ...next,
          win: relayout(v.win, measureFor(s, v), measureFor(s, next), viewHeight(s, next)),
        };
      });
  }
}
