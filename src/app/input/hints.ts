/**
 * What the key map says to a person: key labels, the help overlay's sections and
 * the hint line of each pane, all read from COMMANDS so they cannot drift from
 * what the keys do.
 */
import { FILTER_KEYS } from '../../query/filters.js';
import {
  command,
  isTypingBinding,
  COMMANDS,
  type Binding,
  type CommandId,
  type Section,
  type SpecialKey,
} from './keymap.js';

const SPECIAL_LABEL: Record<SpecialKey, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageUp: 'PgUp',
  pageDown: 'PgDn',
  home: 'Home',
  end: 'End',
  return: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  backspace: 'Backspace',
};

export function bindingLabel(b: Binding): string {
  if ('special' in b) {
    const base = SPECIAL_LABEL[b.special];
    return `${b.ctrl ? 'Ctrl-' : ''}${b.shift ? 'Shift-' : ''}${base}`;
  }
  if (b.char === ' ') return b.ctrl ? 'Ctrl-Space' : 'Space';
  return b.ctrl ? `Ctrl-${b.char.toUpperCase()}` : b.char;
}

function keysLabel(id: CommandId): string {
  return command(id).keys.map(bindingLabel).join(' ');
}

export interface HelpRow {
  keys: string;
  description: string;
}

export interface HelpSection {
  title: Section;
  rows: HelpRow[];
}

const SECTION_ORDER: readonly Section[] = ['Move', 'Search', 'Messages', 'Copy and mark', 'App'];

/**
 * The search line's own keys (input/lineEditor.ts keyToEdit, router.ts
 * routeTyping) and its filters (query/filters.ts): not commands of the map.
 */
const SEARCH_LINE_ROWS: readonly HelpRow[] = [
  { keys: '← → Ctrl-A Ctrl-E', description: 'In the search line: move; Alt-B/F by word' },
  { keys: 'Ctrl-W Ctrl-U', description: 'Delete a word; clear the line' },
  { keys: '↑ ↓', description: 'Earlier queries (kept between runs)' },
  { keys: 'Ctrl-N Ctrl-P', description: 'Move the selection while typing (Ctrl-J/K too)' },
  {
    keys: 'key:value',
    description: `Filters: ${FILTER_KEYS.map((k) => `${k}:`).join(' ')}`,
  },
  {
    keys: 'Tab',
    description:
      'Complete the filter key or value offered: mo → model:, model:gp → a model your sources hold',
  },
];

/** The help overlay's content, generated from the map. */
export function helpSections(): HelpSection[] {
  return SECTION_ORDER.map((title) => ({
    title,
    rows: [
      ...COMMANDS.filter((c) => c.section === title).map((c) => ({
        keys: keysLabel(c.id),
        description: c.description,
      })),
      ...(title === 'Search' ? SEARCH_LINE_ROWS : []),
    ],
  }));
}

export type HintContext = 'recent' | 'results' | 'messages' | 'search';

/** Which commands the status line suggests where. */
const HINTS: Record<HintContext, readonly CommandId[]> = {
  recent: [
    'nav.down',
    'open',
    'tree.expand',
    'search.focus',
    'info',
    'copy.anchor',
    'help',
    'quit',
  ],
  results: [
    'nav.down',
    'open',
    'search.cycleSort',
    'search.toggleMode',
    'copy.anchor',
    'help',
    'quit',
  ],
  messages: [
    'nav.down',
    'hits.next',
    'msg.toggleExpand',
    'copy.anchor',
    'copy.menu',
    'mark.toggle',
    'back',
    'help',
  ],
  search: ['nav.down', 'open', 'back', 'search.toggleMode', 'search.cycleSort'],
};

const FIXED_HINT_KEY: Partial<Record<CommandId, string>> = {
  'nav.down': '↑↓',
  open: '⏎',
  'hits.next': 'n/N',
  'tree.expand': '→',
};

function hintKey(id: CommandId, ctx: HintContext): string {
  // While typing, ↑/↓ recall earlier queries; the results move with Ctrl-N/Ctrl-P.
  if (ctx === 'search' && id === 'nav.down') return '^N/^P';
  const fixed = FIXED_HINT_KEY[id];
  if (fixed) return fixed;
  const c = command(id);
  // While typing, plain characters are text: suggest the key that still works.
  const b = (ctx === 'search' ? c.keys.find((k) => !isTypingBinding(k)) : undefined) ?? c.keys[0];
  return b ? bindingLabel(b).replace(/^Ctrl-/, '^') : '';
}

/** Status-line hints for a context, each `key label`, generated from the map. */
export function hints(ctx: HintContext): string[] {
  const out = HINTS[ctx].map(
    (id) => `${hintKey(id, ctx)} ${command(id).hint ?? command(id).description.toLowerCase()}`,
  );
  // The line editor's history is not a command of the map (↑/↓ are edits there).
  if (ctx === 'search') out.splice(1, 0, '↑↓ history');
  return out;
}
