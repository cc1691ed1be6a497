/** Keys become commands (input/), and each command id has one handler here. */
import { infoRows } from '../context.js';
import { screenFor } from '../geometry/screen.js';
import { viewMatchesSelection } from '../state/selectors.js';
import { helpMaxScroll } from '../input/help.js';
import type { CommandId } from '../input/keymap.js';
import type { Routed } from '../input/router.js';
import { historyMatch, type EditAction } from '../input/lineEditor.js';
import type { ExportForm } from '../model.js';
import {
  cancelFind,
  commitFind,
  ensureEdges,
  findAsYouType,
  open,
  reloadAgentView,
  stepMessage,
  toggleExpand,
  toggleToolSteps,
  walkHits,
} from './conversation.js';
import { copy, copyAnchor, openCopyMenu, toggleMark } from './copy.js';
import type { Ctx } from './ctx.js';
import { openExportMenu, runExport } from './export.js';
import { nav } from './nav.js';
import { resume } from './resume.js';
import { reloadRecent, tree } from './recent.js';
import { openFromLine, paste, remember, searchChanged } from './search.js';
import { say } from './status.js';
import { cycleMeaning } from './meaning.js';
import { refreshFilterValues, takeCompletion } from './complete.js';
import { tildePath } from '../../text/format.js';

export function apply(ctx: Ctx, r: Routed): void {
  switch (r.kind) {
    case 'command':
      return commands[r.command](ctx);
    case 'type':
      return editSearch(ctx, { type: 'insert', text: r.text });
    case 'edit':
      return editSearch(ctx, r.action);
    case 'complete':
      return takeCompletion(ctx, (text, from) =>
        editSearch(ctx, { type: 'replaceWord', from, text }),
      );
    case 'history': {
      const text = ctx.state.search.text;
      ctx.dispatch({ type: 'historyWalk', dir: r.dir });
      if (ctx.state.search.text !== text) searchChanged(ctx);
      return;
    }
    case 'find': {
      const text = ctx.state.findLine?.text ?? '';
      ctx.dispatch({ type: 'findEdit', action: r.action });
      // Incremental, as less and vim with incsearch: the view moves to the first match as the text changes.
      if ((ctx.state.findLine?.text ?? '') !== text) findAsYouType(ctx);
      return;
    }
    case 'findDone': {
      const text = ctx.state.findLine?.text ?? '';
      if (!r.commit) return cancelFind(ctx);
      return commitFind(ctx, text);
    }
    case 'historyFind': {
      const f = ctx.state.historyFind;
      ctx.dispatch({ type: 'historyFindEdit', action: r.action });
      const now = ctx.state.historyFind;
      if (f && now && now.line.text !== f.line.text) historyFindFrom(ctx, undefined);
      return;
    }
    case 'historyFindOlder': {
      const f = ctx.state.historyFind;
      if (f) historyFindFrom(ctx, f.index ?? undefined);
      return;
    }
    case 'historyFindDone': {
      const f = ctx.state.historyFind;
      if (!f) return;
      if (!r.commit && ctx.state.search.text !== f.original) {
        ctx.dispatch({ type: 'historyFindMatch', index: null });
        searchChanged(ctx);
      }
      ctx.dispatch({ type: 'historyFindClose' });
      return ctx.setStatus(r.commit && f.index !== null ? say.historyTaken : say.historyCancelled);
    }
    case 'paste':
      return paste(ctx, r.text);
    case 'closeOverlay':
      return ctx.dispatch({ type: 'closeOverlay' });
    case 'helpScroll': {
      const o = ctx.state.overlay;
      if (o?.kind !== 'help') return;
      // Keep the offset within what the help can scroll at this size.
      const max = helpMaxScroll(screenFor(ctx.state.size));
      return ctx.dispatch({
        type: 'helpScroll',
        delta: Math.max(-o.scroll, Math.min(r.delta, max - o.scroll)),
      });
    }
    case 'menu': {
      const o = ctx.state.overlay;
      if (!o || o.kind !== 'copy') return;
      if (r.action === 'move') return ctx.dispatch({ type: 'menuMove', dir: r.dir });
      const option = o.options[r.index ?? o.selected];
      if (!option) return;
      ctx.dispatch({ type: 'closeOverlay' });
      if (o.menu === 'export') return runExport(ctx, option.form as ExportForm);
      return copy(ctx, option.text, option.label);
    }
  }
}

/**
 * Ctrl-R's text changed (from the newest entry) or Ctrl-R again (from the one
 * before `before`): the search line shows the match and its results follow.
 */
function historyFindFrom(ctx: Ctx, before: number | undefined): void {
  const f = ctx.state.historyFind;
  if (!f) return;
  const entries = ctx.state.search.history.entries;
  const q = f.line.text;
  const at = historyMatch(entries, q, before);
  if (at === null && before !== undefined && q.trim() !== '')
    return ctx.setStatus(say.historyNoOlder(q), 'warn');
  const text = ctx.state.search.text;
  ctx.dispatch({ type: 'historyFindMatch', index: at });
  if (ctx.state.search.text !== text) searchChanged(ctx);
  if (q.trim() === '') return ctx.setStatus(say.historyTyping(entries.length));
  if (at === null) return ctx.setStatus(say.historyNone(q), 'warn');
  ctx.setStatus(say.historyAt(entries.length - at, entries.length));
}

/** Columns ←/→ move cut code blocks (less moves half a screen; code wants finer steps). */
const CODE_STEP = 8;
/** How far right cut code can scroll (past every line's end it shows only their last column). */
const CODE_SHIFT_MAX = 4000;

/** ←/→ scroll code rather than open branches: a conversation has the keyboard and its code is cut. */
function codeCut(ctx: Ctx): boolean {
  const s = ctx.state;
  return s.pane === 'messages' && !s.typing && s.view !== null && s.view.codeShift !== null;
}

function shiftCode(ctx: Ctx, dir: 1 | -1): void {
  const at = ctx.state.view?.codeShift ?? 0;
  const shift = Math.max(0, Math.min(CODE_SHIFT_MAX, at + dir * CODE_STEP));
  if (shift === at) return;
  ctx.dispatch({ type: 'setCodeShift', shift });
  ctx.setStatus(say.codeShift(shift));
}

/** An edit of the search line; a new search only when its text changed (not for a cursor move). */
function editSearch(ctx: Ctx, action: EditAction): void {
  const text = ctx.state.search.text;
  refreshFilterValues(ctx);
  ctx.dispatch({ type: 'searchEdit', action });
  if (ctx.state.search.text !== text) searchChanged(ctx);
}

type Nav = 'nav.down' | 'nav.up' | 'nav.pageDown' | 'nav.pageUp' | 'nav.top' | 'nav.bottom';
const navTo =
  (cmd: Nav) =>
  (ctx: Ctx): void =>
    nav(ctx, cmd);

/** Every command of the key map (input/keymap.ts), and what it does. */
export const commands: Record<CommandId, (ctx: Ctx) => void> = {
  quit: (ctx) => ctx.o.onQuit(),
  help: (ctx) => ctx.dispatch({ type: 'openHelp' }),
  back: (ctx) => {
    const s = ctx.state;
    // Esc in a conversation with a find on leaves the find first, as in less.
    if (s.pane === 'messages' && !s.typing && s.view?.find) {
      ctx.dispatch({ type: 'setFind', find: null });
      return ctx.setStatus(say.findLeft);
    }
    const text = s.search.text;
    if (s.typing && text.trim() !== '') remember(ctx, text);
    ctx.dispatch({ type: 'back' });
    if (ctx.state.search.text !== text) searchChanged(ctx);
  },
  'pane.next': (ctx) => ctx.dispatch({ type: 'cyclePane', dir: 1 }),
  'pane.prev': (ctx) => ctx.dispatch({ type: 'cyclePane', dir: -1 }),
  'history.search': (ctx) => {
    if (ctx.state.search.history.entries.length === 0) return ctx.setStatus(say.historyEmpty);
    ctx.dispatch({ type: 'historyFindStart' });
    ctx.setStatus(say.historyTyping(ctx.state.search.history.entries.length));
  },
  'search.focus': (ctx) => {
    const s = ctx.state;
    // In a conversation, / finds in it (as in less); from a list it opens the search line.
    if (s.pane === 'messages' && s.view) return ctx.dispatch({ type: 'findStart' });
    if (s.search.text.trim() !== '') remember(ctx, s.search.text);
    ctx.dispatch({ type: 'setTyping', on: true, select: true });
  },
  'nav.down': navTo('nav.down'),
  'nav.up': navTo('nav.up'),
  'nav.pageDown': navTo('nav.pageDown'),
  'nav.pageUp': navTo('nav.pageUp'),
  'nav.top': navTo('nav.top'),
  'nav.bottom': navTo('nav.bottom'),
  'tree.expand': (ctx) => (codeCut(ctx) ? shiftCode(ctx, 1) : tree(ctx, true)),
  'tree.collapse': (ctx) => (codeCut(ctx) ? shiftCode(ctx, -1) : tree(ctx, false)),
  'msg.toggleCodeWrap': (ctx) => {
    const v = ctx.state.view;
    if (!v) return ctx.setStatus(say.openFirst);
    ctx.dispatch({ type: 'setCodeShift', shift: v.codeShift === null ? 0 : null });
    ensureEdges(ctx);
    ctx.setStatus(say.codeWrap(ctx.state.view?.codeShift === null));
  },
  open: (ctx) => {
    if (ctx.state.typing && openFromLine(ctx)) return;
    open(ctx);
  },
  'search.toggleMode': (ctx) => {
    ctx.dispatch({
      type: 'setMode',
      mode: ctx.state.search.mode === 'fulltext' ? 'fuzzy' : 'fulltext',
    });
    ctx.setStatus(say.searchMode(ctx.state.search.mode));
    searchChanged(ctx);
  },
  'search.cycleMeaning': (ctx) => cycleMeaning(ctx, searchChanged),
  'search.cycleSort': (ctx) => {
    ctx.dispatch({ type: 'cycleSort' });
    ctx.setStatus(say.sort(ctx.state.search.sort, ctx.state.search.mode));
    searchChanged(ctx);
  },
  'search.toggleTools': (ctx) => {
    ctx.dispatch({ type: 'toggleTools' });
    ctx.setStatus(say.tools(ctx.state.search.tools));
    searchChanged(ctx);
  },
  'hits.next': (ctx) => walkHits(ctx, 1),
  'hits.prev': (ctx) => walkHits(ctx, -1),
  'msg.toggleExpand': (ctx) => toggleExpand(ctx),
  'msg.toggleReasoning': (ctx) => {
    if (!ctx.state.view) return ctx.setStatus(say.openFirst);
    ctx.dispatch({ type: 'toggleReasoning' });
    ctx.setStatus(say.reasoning(ctx.state.view?.reasoning === true));
  },
  'copy.anchor': (ctx) => copyAnchor(ctx),
  'copy.menu': (ctx) => openCopyMenu(ctx),
  'mark.toggle': (ctx) => toggleMark(ctx),
  'marks.clear': (ctx) => {
    if (ctx.state.marks.length === 0) return ctx.setStatus(say.noMarks);
    ctx.dispatch({ type: 'clearMarks' });
    ctx.setStatus(say.marksCleared);
  },
  info: (ctx) => {
    const s = ctx.state;
    const v = viewMatchesSelection(s) ? s.view : null;
    if (!v) return ctx.setStatus(say.openFirst);
    // Another profile's conversation: its own profile and its store's ids.
    const ids = v.win.chain.map((id) => ctx.data.hermesRef(id, null));
    const chain = v.win.chain.map((id, i) => ids[i]?.sessionId ?? id);
    ctx.dispatch({
      type: 'openInfo',
      rows: infoRows(
        { title: v.title, chain, context: v.context },
        ids[0]?.profile ?? s.store.profile,
        s.now,
        ctx.o.home ?? '',
      ),
    });
  },
  'msg.next': (ctx) => stepMessage(ctx, 1),
  'msg.prev': (ctx) => stepMessage(ctx, -1),
  'msg.toggleToolSteps': (ctx) => toggleToolSteps(ctx),
  'export.menu': (ctx) => openExportMenu(ctx),
  resume: (ctx) => resume(ctx),
  'app.suspend': (ctx) => {
    if (!ctx.o.suspend) return;
    // No status line before the stop: a frame ink drew after the terminal left the
    // alternate screen would stay on the shell's screen.
    // A new status line after SIGCONT also makes ink write the whole frame again.
    // A line that differs from every earlier one: the frame before the stop may never have been drawn.
    const n = ++ctx.suspends;
    ctx.hold(true);
    ctx.o.suspend(() => {
      ctx.hold(false);
      ctx.setStatus(say.continued(n));
    });
  },
  'view.everyProfile': (ctx) => {
    if (!ctx.state.everyProfile && ctx.data.profileRefs().length === 0)
      return ctx.setStatus(say.oneProfile(ctx.data.profile));
    ctx.dispatch({ type: 'toggleEveryProfile' });
    reloadRecent(ctx);
    if (ctx.state.search.text.trim() !== '') searchChanged(ctx);
    ctx.setStatus(say.everyProfile(ctx.state.everyProfile, ctx.data.profile));
  },
  'view.here': (ctx) => {
    if (!ctx.o.here) return ctx.setStatus(say.noHere);
    ctx.dispatch({ type: 'setHere', here: ctx.state.here === null ? ctx.o.here : null });
    // The line's filters and this folder's are applied together: Recent and Results follow.
    const before = ctx.state.status;
    searchChanged(ctx);
    // A refusal or an empty list said by the reload stays; otherwise the view names itself.
    if (ctx.state.status === before)
      ctx.setStatus(
        say.here(ctx.state.here === null ? null : tildePath(ctx.state.here, ctx.o.home ?? '')),
      );
  },
  'view.toggleHidden': (ctx) => {
    ctx.dispatch({ type: 'toggleHidden' });
    // Other agents' messages that were taken back are hidden too: windows and hits follow H.
    ctx.data.setShowTakenBack(ctx.state.showHidden);
    reloadRecent(ctx);
    if (ctx.state.search.text.trim() !== '') searchChanged(ctx);
    reloadAgentView(ctx);
    ctx.setStatus(say.hidden(ctx.state.showHidden));
  },
};
