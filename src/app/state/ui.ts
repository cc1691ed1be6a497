/** Panes, the search line, overlays, marks, the status line and the clock. */
import type { PaneId } from '../geometry/screen.js';
import type { Sort } from '../model.js';
import { isMarked, listPane } from './selectors.js';
import type { AppState, UiAction } from './types.js';

const SORTS: readonly Sort[] = ['relevance', 'newest', 'oldest'];

function deleteWord(text: string): string {
  return text.replace(/\s*\S+\s*$/u, '');
}

function dropLastChar(text: string): string {
  const chars = Array.from(text);
  chars.pop();
  return chars.join('');
}

export function reduceUi(s: AppState, a: UiAction): AppState {
  switch (a.type) {
    case 'setPane':
      return { ...s, pane: a.pane, typing: false };
    case 'cyclePane': {
      // Tab leaves the search line first: forward to the results, back (Shift-Tab) to Recent.
      if (s.typing) return { ...s, typing: false, pane: a.dir === -1 ? 'recent' : s.pane };
      // Two places to be: the list on screen and, once one is shown, the conversation.
      const avail: PaneId[] = [listPane(s), ...(s.view !== null ? (['messages'] as const) : [])];
      const i = avail.indexOf(s.pane);
      const pane = avail[(i + a.dir + avail.length) % avail.length] ?? 'recent';
      return { ...s, pane, typing: false };
    }
    case 'back':
      if (s.typing) {
        if (s.search.text !== '') return { ...s, search: { ...s.search, text: '' } };
        // Leaving an empty search line with nothing found goes back to Recent.
        return { ...s, typing: false, pane: s.results.items.length === 0 ? 'recent' : s.pane };
      }
      if (s.pane === 'messages') return { ...s, pane: s.origin };
      // Results are the list while there is a query: back clears it, and Recent is the list again.
      if (s.pane === 'results') return { ...s, pane: 'recent', search: { ...s.search, text: '' } };
      return s;
    case 'toOrigin':
      return { ...s, pane: s.origin, typing: false };
    case 'setTyping':
      // While typing, the arrows move the results (as in fzf), so that pane is the active one.
      return a.on ? { ...s, typing: true, pane: 'results' } : { ...s, typing: false };
    case 'searchEdit': {
      const t = s.search.text;
      const text =
        a.edit === 'insert'
          ? t + a.text
          : a.edit === 'backspace'
            ? dropLastChar(t)
            : a.edit === 'deleteWord'
              ? deleteWord(t)
              : '';
      return text === t ? s : { ...s, search: { ...s.search, text } };
    }
    case 'setMode':
      return { ...s, search: { ...s.search, mode: a.mode } };
    case 'cycleSort': {
      const i = SORTS.indexOf(s.search.sort);
      return { ...s, search: { ...s.search, sort: SORTS[(i + 1) % SORTS.length] ?? 'relevance' } };
    }
    case 'toggleTools':
      return { ...s, search: { ...s.search, tools: !s.search.tools } };
    case 'toggleMark': {
      const marked = isMarked(s, a.ref);
      return {
        ...s,
        marks: marked
          ? s.marks.filter(
              (m) => !(m.sessionId === a.ref.sessionId && m.messageId === a.ref.messageId),
            )
          : [...s.marks, a.ref],
      };
    }
    case 'clearMarks':
      return { ...s, marks: [] };
    case 'openHelp':
      return { ...s, overlay: { kind: 'help', scroll: 0 } };
    case 'helpScroll':
      // Clamped by the view, which knows how many lines the help has at this size.
      return s.overlay?.kind === 'help'
        ? { ...s, overlay: { kind: 'help', scroll: Math.max(0, s.overlay.scroll + a.delta) } }
        : s;
    case 'openCopyMenu':
      return {
        ...s,
        overlay: { kind: 'copy', options: a.options, selected: 0, menu: a.menu ?? 'copy' },
      };
    case 'menuMove': {
      const o = s.overlay;
      if (!o || o.kind !== 'copy' || o.options.length === 0) return s;
      const n = o.options.length;
      return { ...s, overlay: { ...o, selected: (o.selected + a.dir + n) % n } };
    }
    case 'closeOverlay':
      return { ...s, overlay: null };
    case 'status':
      return { ...s, status: { text: a.text, tone: a.tone ?? 'info' } };
    case 'clearStatus':
      return s.status === null ? s : { ...s, status: null };
    case 'tick':
      return { ...s, now: a.now };
  }
}
