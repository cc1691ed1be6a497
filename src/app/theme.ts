/**
 * Semantic colour tokens: views ask for "the colour of a selection", never for
 * "cyan". Selection is also shown by a glyph (▸), so nothing depends on colour
 * alone (monochrome terminals, colour-blind readers).
 */
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
  | 'system';

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
  }
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
} as const;
