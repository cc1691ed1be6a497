/**
 * The one key map. Every command the app understands is listed here with its
 * default keys and a description; the input router asks "is this command X?"
 * through `matches` and never compares raw keys, and the help overlay and the
 * status-line hints are generated from this list.
 */

/** The parts of ink's `Key` the map reads (ink's own type fits). */
export interface KeyLike {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageDown?: boolean;
  pageUp?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  ctrl?: boolean;
  shift?: boolean;
  tab?: boolean;
  backspace?: boolean;
  delete?: boolean;
  meta?: boolean;
}

export type SpecialKey =
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'return'
  | 'escape'
  | 'tab'
  | 'backspace';

/** One key: a character (`g`, `G`, `?`, ` `) or a named key, with modifiers. */
export type Binding =
  { char: string; ctrl?: boolean } | { special: SpecialKey; shift?: boolean; ctrl?: boolean };

export type Section = 'Move' | 'Search' | 'Messages' | 'Copy and mark' | 'App';

export type CommandId =
  | 'nav.down'
  | 'nav.up'
  | 'nav.pageDown'
  | 'nav.pageUp'
  | 'nav.top'
  | 'nav.bottom'
  | 'tree.expand'
  | 'tree.collapse'
  | 'pane.next'
  | 'pane.prev'
  | 'open'
  | 'back'
  | 'search.focus'
  | 'search.toggleMode'
  | 'search.cycleMeaning'
  | 'search.cycleSort'
  | 'search.toggleTools'
  | 'history.search'
  | 'hits.next'
  | 'hits.prev'
  | 'msg.toggleExpand'
  | 'msg.toggleReasoning'
  | 'copy.anchor'
  | 'copy.menu'
  | 'mark.toggle'
  | 'marks.clear'
  | 'view.toggleHidden'
  | 'view.everyProfile'
  | 'view.here'
  | 'info'
  // issue 9, reading and acting
  | 'msg.next'
  | 'msg.prev'
  | 'msg.toggleToolSteps'
  | 'msg.toggleCodeWrap'
  | 'export.menu'
  | 'resume'
  | 'app.suspend'
  | 'help'
  | 'quit';

export interface Command {
  id: CommandId;
  keys: readonly Binding[];
  description: string;
  section: Section;
  /** Short label for the status-line hints. */
  hint?: string;
}

const ch = (char: string, ctrl = false): Binding => (ctrl ? { char, ctrl } : { char });
const sp = (special: SpecialKey, mods: { shift?: boolean; ctrl?: boolean } = {}): Binding => ({
  special,
  ...mods,
});

export const COMMANDS: readonly Command[] = [
  {
    id: 'nav.down',
    // Ctrl-N/J and Ctrl-P/K also move while the search line has the keyboard (fzf's keys).
    keys: [ch('j'), sp('down'), ch('n', true), ch('j', true)],
    description: 'Move down',
    section: 'Move',
    hint: 'move',
  },
  {
    id: 'nav.up',
    keys: [ch('k'), sp('up'), ch('p', true), ch('k', true)],
    description: 'Move up',
    section: 'Move',
  },
  {
    id: 'nav.pageDown',
    keys: [sp('pageDown'), ch('d', true), ch(' ')],
    description: 'Page down',
    section: 'Move',
  },
  {
    id: 'nav.pageUp',
    keys: [sp('pageUp'), ch('u', true), ch('b')],
    description: 'Page up',
    section: 'Move',
  },
  {
    id: 'nav.top',
    keys: [ch('g'), sp('home')],
    description: 'First item; in a conversation, its first messages',
    section: 'Move',
  },
  {
    id: 'nav.bottom',
    keys: [ch('G'), sp('end')],
    description: 'Last item; in a conversation, its latest messages',
    section: 'Move',
  },
  {
    id: 'tree.expand',
    keys: [sp('right'), ch('l')],
    description: 'Show the branches of a conversation',
    section: 'Move',
    hint: 'branches',
  },
  {
    id: 'tree.collapse',
    keys: [sp('left'), ch('h')],
    description: 'Hide its branches',
    section: 'Move',
  },
  { id: 'pane.next', keys: [sp('tab')], description: 'Next pane', section: 'Move', hint: 'pane' },
  {
    id: 'pane.prev',
    keys: [sp('tab', { shift: true })],
    description: 'Previous pane',
    section: 'Move',
  },
  {
    id: 'open',
    keys: [sp('return')],
    description: 'Open the conversation (at the hit); on a message, expand it',
    section: 'Move',
    hint: 'open',
  },
  {
    id: 'back',
    keys: [sp('escape')],
    description: 'Back, or clear the search',
    section: 'Move',
    hint: 'back',
  },
  {
    id: 'search.focus',
    keys: [ch('/')],
    description:
      'Search (the last query selected, ↑ for older ones); in a conversation, find in it as you type',
    section: 'Search',
    hint: 'search',
  },
  {
    id: 'search.toggleMode',
    keys: [ch('f'), ch('f', true)],
    description: 'Switch full-text / fuzzy (titles, ids, sources, folders)',
    section: 'Search',
    hint: 'fuzzy',
  },
  {
    id: 'search.cycleMeaning',
    keys: [ch('v')],
    description:
      'Search by meaning: lexical → hybrid → semantic (needs --embedder or LOOKBACK_EMBEDDER)',
    section: 'Search',
  },
  {
    id: 'search.cycleSort',
    keys: [ch('s'), ch('o', true)],
    description: 'Sort by relevance, newest, oldest',
    section: 'Search',
    hint: 'sort',
  },
  {
    id: 'search.toggleTools',
    keys: [ch('t'), ch('t', true)],
    description: 'Include tool output in the search',
    section: 'Search',
  },
  {
    id: 'history.search',
    keys: [ch('r', true)],
    description:
      'Search earlier queries as a shell does: type, Ctrl-R again for older, ⏎ takes it, Esc cancels',
    section: 'Search',
  },
  {
    id: 'hits.next',
    keys: [ch('n')],
    description: 'Next hit (into the next result at the end)',
    section: 'Messages',
    hint: 'next hit',
  },
  { id: 'hits.prev', keys: [ch('N')], description: 'Previous hit', section: 'Messages' },
  {
    id: 'msg.toggleExpand',
    keys: [ch('e')],
    description: 'Expand or collapse a tool call / tool output',
    section: 'Messages',
    hint: 'expand',
  },
  {
    id: 'msg.toggleReasoning',
    keys: [ch('r')],
    description: 'Show or hide reasoning',
    section: 'Messages',
  },
  {
    id: 'copy.anchor',
    keys: [ch('y')],
    description: 'Copy an anchor (all marked messages when there are marks)',
    section: 'Copy and mark',
    hint: 'copy anchor',
  },
  {
    id: 'copy.menu',
    keys: [ch('Y'), ch('c')],
    description: 'Copy menu: link, scroll call, quote, window as Markdown',
    section: 'Copy and mark',
    hint: 'copy…',
  },
  {
    id: 'mark.toggle',
    keys: [ch('m')],
    description: 'Mark or unmark a message (across conversations)',
    section: 'Copy and mark',
    hint: 'mark',
  },
  { id: 'marks.clear', keys: [ch('M')], description: 'Clear all marks', section: 'Copy and mark' },
  {
    id: 'view.toggleHidden',
    keys: [ch('H')],
    description: 'Show or hide hidden conversations and taken-back messages',
    section: 'App',
  },
  {
    id: 'view.everyProfile',
    keys: [ch('P')],
    description:
      "Every profile: Recent and search over every Hermes profile's store (again: this one)",
    section: 'App',
  },
  {
    id: 'view.here',
    keys: [ch('.')],
    description:
      'This folder: the conversations run in the folder lookback started in or below it (again: every folder)',
    section: 'App',
  },
  {
    id: 'info',
    keys: [ch('i')],
    description: 'Info: ids, link, folder, branch, model, messages, tokens, cost, status',
    section: 'Messages',
    hint: 'info',
  },
  // Reading and acting (issue 9): message steps, tool steps, export, resume.
  {
    id: 'msg.next',
    keys: [ch(']'), ch('J')],
    description: 'Next message (its header, however long this one is)',
    section: 'Messages',
  },
  {
    id: 'msg.prev',
    keys: [ch('['), ch('K')],
    description: 'Previous message',
    section: 'Messages',
  },
  {
    id: 'msg.toggleToolSteps',
    keys: [ch('T')],
    description: 'Hide or show tool steps (tool calls and outputs)',
    section: 'Messages',
  },
  {
    id: 'msg.toggleCodeWrap',
    keys: [ch('S')],
    description: 'Code blocks: cut long lines instead of wrapping (as less -S); ←/→ scroll them',
    section: 'Messages',
  },
  {
    id: 'export.menu',
    keys: [ch('x')],
    description: 'Export the conversation or the marked messages (Markdown or JSON file)',
    section: 'Copy and mark',
    hint: 'export',
  },
  {
    id: 'resume',
    keys: [ch('R')],
    description: 'Resume the conversation in its agent (leaves lookback; LOOKBACK_RESUME)',
    section: 'App',
    hint: 'resume',
  },
  {
    id: 'app.suspend',
    keys: [ch('z', true)],
    description: 'Suspend to the shell (fg comes back)',
    section: 'App',
  },
  { id: 'help', keys: [ch('?')], description: 'This help', section: 'App', hint: 'help' },
  { id: 'quit', keys: [ch('q'), ch('c', true)], description: 'Quit', section: 'App', hint: 'quit' },
];

const BY_ID = new Map<CommandId, Command>(COMMANDS.map((c) => [c.id, c]));

export function command(id: CommandId): Command {
  const c = BY_ID.get(id);
  if (!c) throw new Error(`unknown command ${id}`);
  return c;
}

function specialPressed(special: SpecialKey, key: KeyLike): boolean {
  switch (special) {
    case 'up':
      return !!key.upArrow;
    case 'down':
      return !!key.downArrow;
    case 'left':
      return !!key.leftArrow;
    case 'right':
      return !!key.rightArrow;
    case 'pageUp':
      return !!key.pageUp;
    case 'pageDown':
      return !!key.pageDown;
    case 'home':
      return !!key.home;
    case 'end':
      return !!key.end;
    case 'return':
      return !!key.return;
    case 'escape':
      return !!key.escape;
    case 'tab':
      return !!key.tab;
    case 'backspace':
      return !!key.backspace || !!key.delete;
  }
}

/** Does one binding describe this key press? */
export function bindingMatches(b: Binding, input: string, key: KeyLike): boolean {
  if ('special' in b) {
    if (!specialPressed(b.special, key)) return false;
    if (!!b.ctrl !== !!key.ctrl) return false;
    // Shift only matters where the binding says so (Tab vs Shift-Tab).
    if (b.special === 'tab' && !!b.shift !== !!key.shift) return false;
    return true;
  }
  if (key.escape || key.return || key.tab) return false;
  if (!!b.ctrl !== !!key.ctrl) return false;
  // Esc followed by a letter in one chunk reads as Alt+letter: not our binding.
  if (key.meta) return false;
  return input === b.char;
}

/** Is this key press command `id`? */
export function matches(id: CommandId, input: string, key: KeyLike): boolean {
  return command(id).keys.some((b) => bindingMatches(b, input, key));
}

/** The first command (in map order) this key press is, if any. */
export function commandFor(
  input: string,
  key: KeyLike,
  filter: (b: Binding) => boolean = () => true,
): CommandId | null {
  for (const c of COMMANDS)
    if (c.keys.some((b) => filter(b) && bindingMatches(b, input, key))) return c.id;
  return null;
}

/** A binding that types a character (no modifier): text entry takes these as text. */
export function isTypingBinding(b: Binding): boolean {
  return 'char' in b && !b.ctrl;
}
