/**
 * Semantic colour tokens: views ask for "the colour of a selection", never for
 * "cyan". Selection is also shown by a glyph (▸), so nothing depends on colour
 * alone (monochrome terminals, colour-blind readers).
 */
import type { Style } from '../text/styled.js';

export const theme = {
  accent: 'cyan',
  dim: 'gray',
  hit: 'yellow',
  warn: 'yellow',
  error: 'red',
  ok: 'green',
  live: 'green',
  mark: 'magenta',
  anchor: 'yellow',
  /** Message text as Markdown and code: keyword, string, number colours for code; code spans stand out. */
  markup: {
    code: 'yellow',
    link: 'cyan',
    keyword: 'magenta',
    string: 'green',
    number: 'cyan',
    key: 'blue',
  },
  role: {
    user: 'green',
    assistant: 'blue',
    tool: 'gray',
    system: 'magenta',
    other: 'white',
  },
} as const;

export type Tone =
  | 'plain'
  | 'dim'
  | 'accent'
  | 'warn'
  | 'error'
  | 'ok'
  | 'live'
  | 'mark'
  | 'anchor'
  | 'user'
  | 'assistant'
  | 'tool'
  | 'system'
  | 'code'
  | 'link'
  | 'keyword'
  | 'string'
  | 'number'
  | 'key';

/** The terminal colour of a tone (undefined: the terminal's default foreground). */
export function toneColor(tone: Tone | undefined): string | undefined {
  switch (tone) {
    case undefined:
    case 'plain':
      return undefined;
    case 'dim':
      return theme.dim;
    case 'accent':
      return theme.accent;
    case 'warn':
      return theme.warn;
    case 'error':
      return theme.error;
    case 'ok':
      return theme.ok;
    case 'live':
      return theme.live;
    case 'mark':
      return theme.mark;
    case 'anchor':
      return theme.anchor;
    case 'user':
      return theme.role.user;
    case 'assistant':
      return theme.role.assistant;
    case 'tool':
      return theme.role.tool;
    case 'system':
      return theme.role.system;
    case 'code':
      return theme.markup.code;
    case 'link':
      return theme.markup.link;
    case 'keyword':
      return theme.markup.keyword;
    case 'string':
      return theme.markup.string;
    case 'number':
      return theme.markup.number;
    case 'key':
      return theme.markup.key;
  }
}

/** How a semantic text style (src/text/styled.ts, from the Markdown and JSON renderers) looks. */
export interface StyleLook {
  tone?: Tone;
  bold?: boolean;
  italic?: boolean;
}

const LOOKS: Record<Style, StyleLook> = {
  plain: {},
  heading: { tone: 'accent', bold: true },
  strong: { bold: true },
  emphasis: { italic: true },
  code: { tone: 'code' },
  link: { tone: 'link' },
  quote: { tone: 'dim', italic: true },
  bullet: { tone: 'accent' },
  rule: { tone: 'dim' },
  tableBorder: { tone: 'dim' },
  tableHeader: { bold: true },
  fence: { tone: 'dim' },
  keyword: { tone: 'keyword' },
  string: { tone: 'string' },
  comment: { tone: 'dim', italic: true },
  number: { tone: 'number' },
  key: { tone: 'key' },
  punct: { tone: 'dim' },
  muted: { tone: 'dim' },
};

export function styleLook(style: Style): StyleLook {
  return LOOKS[style];
}

export function roleTone(role: string): Tone {
  if (role === 'user' || role === 'assistant' || role === 'tool' || role === 'system') return role;
  return 'plain';
}

/** Glyphs, in one place so views and tests agree on them. */
export const glyph = {
  selected: '▸',
  focusBar: '│',
  anchor: '▶',
  mark: '★',
  live: '●',
  pinned: '⚑',
  unread: '•',
  newAbove: '↑',
  chain: '⛓',
  branch: '⑂',
  expanded: '▾',
  tool: '⚙',
  cursor: '▌',
  /** A relaxed hit: the conversation holds only some of the words. */
  relaxed: '≈',
} as const;
