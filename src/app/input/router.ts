/**
 * The one input router: a key press and the current state in, what it means
 * out. Overlays take priority, then the search line when it has the keyboard
 * (plain characters are text there; only modified and named keys are
 * commands), then the key map. Pure; the controller carries the result out.
 */
import {
  bindingMatches,
  command,
  commandFor,
  isTypingBinding,
  matches,
  type Binding,
  type CommandId,
  type KeyLike,
} from './keymap.js';
import { keyToEdit, type EditAction } from './lineEditor.js';
import { completionOf } from '../state/selectors.js';
import type { AppState } from '../state/types.js';

export type Routed =
  | { kind: 'command'; command: CommandId }
  | { kind: 'type'; text: string }
  | { kind: 'paste'; text: string }
  | { kind: 'edit'; action: EditAction }
  /** Tab on an offered completion (src/query/complete.ts): the first one takes the word's place. */
  | { kind: 'complete' }
  /** ↑/↓ in the search line: earlier and later queries. */
  | { kind: 'history'; dir: 1 | -1 }
  /** The find line (`/` in the message pane): an edit, Enter, or Esc. */
  | { kind: 'find'; action: EditAction }
  | { kind: 'findDone'; commit: boolean }
  /** Ctrl-R's history search: an edit of its text, Ctrl-R for the next older match, Enter or Esc. */
  | { kind: 'historyFind'; action: EditAction }
  | { kind: 'historyFindOlder' }
  | { kind: 'historyFindDone'; commit: boolean }
  | { kind: 'menu'; action: 'move'; dir: 1 | -1 }
  | { kind: 'menu'; action: 'choose'; index?: number }
  | { kind: 'closeOverlay' }
  | { kind: 'helpScroll'; delta: number };

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Text a key press would type: printable, no modifier, not a named key. */
function typedText(input: string, key: KeyLike): string | null {
  if (input === '' || key.ctrl || key.meta || key.escape || key.return || key.tab) return null;
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown)
    return null;
  if (key.backspace || key.delete || key.home || key.end) return null;
  if (input.length === 1 && CONTROL.test(input)) return null;
  return input;
}

function isPaste(text: string): boolean {
  return Array.from(text).length > 1;
}

function routeHelp(input: string, key: KeyLike): Routed | null {
  if (
    matches('help', input, key) ||
    matches('back', input, key) ||
    matches('open', input, key) ||
    input === 'q'
  )
    return { kind: 'closeOverlay' };
  if (matches('nav.down', input, key)) return { kind: 'helpScroll', delta: 1 };
  if (matches('nav.up', input, key)) return { kind: 'helpScroll', delta: -1 };
  if (matches('nav.pageDown', input, key)) return { kind: 'helpScroll', delta: 10 };
  if (matches('nav.pageUp', input, key)) return { kind: 'helpScroll', delta: -10 };
  return null;
}

/** The info panel: i, Esc, Enter or q close it. */
function routeInfo(input: string, key: KeyLike): Routed | null {
  if (
    matches('info', input, key) ||
    matches('back', input, key) ||
    matches('open', input, key) ||
    input === 'q'
  )
    return { kind: 'closeOverlay' };
  return null;
}

function routeCopyMenu(input: string, key: KeyLike): Routed | null {
  if (matches('nav.down', input, key)) return { kind: 'menu', action: 'move', dir: 1 };
  if (matches('nav.up', input, key)) return { kind: 'menu', action: 'move', dir: -1 };
  if (matches('open', input, key)) return { kind: 'menu', action: 'choose' };
  if (/^[1-9]$/.test(input) && !key.ctrl && !key.meta)
    return { kind: 'menu', action: 'choose', index: Number(input) - 1 };
  if (matches('back', input, key) || matches('copy.menu', input, key) || input === 'q')
    return { kind: 'closeOverlay' };
  return null;
}

/** Commands that still work while the search line has the keyboard. */
function commandBindings(id: CommandId): readonly Binding[] {
  return command(id).keys;
}

const TYPING_COMMANDS: readonly CommandId[] = [
  'open',
  'back',
  'pane.next',
  'pane.prev',
  'nav.down',
  'nav.up',
  'nav.pageDown',
  'nav.pageUp',
  'search.toggleMode',
  'search.cycleSort',
  'search.toggleTools',
];

/** Ctrl keys the line editor takes before the key map (Ctrl-U clears the line rather than paging). */
const LINE_CTRL = new Set(['a', 'e', 'h', 'w', 'u']);

function routeTyping(s: AppState, input: string, key: KeyLike): Routed | null {
  // Tab (the next-pane key) takes a completion when one is offered, as a shell's; otherwise it leaves the line.
  if (matches('pane.next', input, key) && completionOf(s) !== null) return { kind: 'complete' };
  // ↑/↓ walk earlier queries, as in a shell; Ctrl-N/P and Ctrl-J/K move the results.
  if (key.upArrow && !key.ctrl) return { kind: 'history', dir: -1 };
  if (key.downArrow && !key.ctrl) return { kind: 'history', dir: 1 };
  if (key.ctrl && LINE_CTRL.has(input)) {
    const action = keyToEdit(input, key);
    if (action) return { kind: 'edit', action };
  }
  for (const id of TYPING_COMMANDS) {
    // Plain characters are text here: only modified and named keys are commands.
    const hit = commandBindings(id).some(
      (b) => !isTypingBinding(b) && bindingMatches(b, input, key),
    );
    if (hit) return { kind: 'command', command: id };
  }
  const text = typedText(input, key);
  if (text !== null) return isPaste(text) ? { kind: 'paste', text } : { kind: 'type', text };
  const action = keyToEdit(input, key);
  return action && action.type !== 'insert' ? { kind: 'edit', action } : null;
}

/** The find line in the message pane: Enter finds, Esc leaves, anything else edits. */
function routeFind(input: string, key: KeyLike): Routed | null {
  if (matches('back', input, key)) return { kind: 'findDone', commit: false };
  if (matches('open', input, key)) return { kind: 'findDone', commit: true };
  const action = keyToEdit(input, key);
  return action ? { kind: 'find', action } : null;
}

/** Ctrl-R's line: Ctrl-R (or ↑) an older match, Enter takes the entry, Esc cancels, anything else edits. */
function routeHistoryFind(input: string, key: KeyLike): Routed | null {
  if (matches('history.search', input, key) || (key.upArrow && !key.ctrl))
    return { kind: 'historyFindOlder' };
  if (matches('back', input, key)) return { kind: 'historyFindDone', commit: false };
  if (matches('open', input, key)) return { kind: 'historyFindDone', commit: true };
  const action = keyToEdit(input, key);
  return action ? { kind: 'historyFind', action } : null;
}

export function route(s: AppState, input: string, key: KeyLike): Routed | null {
  // Ctrl-C always quits, whatever has the keyboard.
  if (key.ctrl && input === 'c') return { kind: 'command', command: 'quit' };
  // Ctrl-Z suspends, whatever has the keyboard (raw mode sends it as a key, not SIGTSTP).
  if (key.ctrl && input === 'z') return { kind: 'command', command: 'app.suspend' };
  if (s.overlay?.kind === 'help') return routeHelp(input, key);
  if (s.overlay?.kind === 'copy') return routeCopyMenu(input, key);
  if (s.overlay?.kind === 'info') return routeInfo(input, key);
  if (s.findLine !== null) return routeFind(input, key);
  if (s.historyFind !== null) return routeHistoryFind(input, key);
  // Ctrl-R searches the query history from anywhere (the search line opens with it).
  if (matches('history.search', input, key)) return { kind: 'command', command: 'history.search' };
  if (s.typing) return routeTyping(s, input, key);
  const text = typedText(input, key);
  // A paste into a pane goes to the search line (a pasted anchor jumps straight there).
  if (text !== null && isPaste(text)) return { kind: 'paste', text };
  const id = commandFor(input, key);
  return id ? { kind: 'command', command: id } : null;
}

export interface KeyPress {
  input: string;
  key: KeyLike;
}

const NO_KEY: KeyLike = {};

function charKey(c: string): KeyPress {
  if (c === '\r' || c === '\n') return { input: '', key: { return: true } };
  if (c === '\t') return { input: '', key: { tab: true } };
  if (c === '\x7f' || c === '\b') return { input: '', key: { backspace: true } };
  const code = c.charCodeAt(0);
  if (code >= 1 && code <= 26)
    return { input: String.fromCharCode(code + 96), key: { ctrl: true } };
  return { input: c, key: /^[A-Z]$/.test(c) ? { shift: true } : NO_KEY };
}

/**
 * Ink hands over a run of plain characters as one event: a paste, or keys
 * typed faster than a read (`jj`, `x` + Enter). A run with a line break
 * inside it is a paste and stays whole; any other run is split back into
 * single key presses, so nothing typed quickly is taken for a paste.
 */
export function splitKeys(input: string, key: KeyLike): KeyPress[] {
  // Esc Esc in one chunk reaches us as one escape whose input is the second Esc.
  if (key.escape && /^\x1b+$/.test(input))
    return Array.from({ length: input.length + 1 }, () => ({ input: '', key: { escape: true } }));
  // A lone line feed is Ctrl-J (Enter sends a carriage return).
  if (input === '\n' && !key.return) return [{ input: 'j', key: { ctrl: true } }];
  const chars = Array.from(input);
  if (chars.length <= 1 || key.ctrl || key.meta) return [{ input, key }];
  const body = input.replace(/[\r\n]+$/, '');
  if (/[\r\n]/.test(body)) return [{ input, key }];
  return chars.map(charKey);
}
