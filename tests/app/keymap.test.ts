import { describe, expect, it } from 'vitest';
import { bindingLabel, helpSections, hints } from '../../src/app/input/hints.js';
import { COMMANDS, commandFor, matches, type Binding } from '../../src/app/input/keymap.js';

describe('key map', () => {
  it('matches plain keys, named keys and modifiers', () => {
    expect(matches('nav.down', 'j', {})).toBe(true);
    expect(matches('nav.down', '', { downArrow: true })).toBe(true);
    expect(matches('nav.bottom', 'G', { shift: true })).toBe(true);
    expect(matches('nav.top', 'g', {})).toBe(true);
    expect(matches('nav.top', 'G', { shift: true })).toBe(false);
    expect(matches('pane.next', '', { tab: true })).toBe(true);
    expect(matches('pane.next', '', { tab: true, shift: true })).toBe(false);
    expect(matches('pane.prev', '', { tab: true, shift: true })).toBe(true);
    expect(matches('quit', 'c', { ctrl: true })).toBe(true);
    expect(matches('quit', 'c', {})).toBe(false);
    expect(matches('copy.menu', 'c', {})).toBe(true);
    // A lone Esc also sets meta; it is still Esc.
    expect(matches('back', '', { escape: true, meta: true })).toBe(true);
    // Esc + letter in one chunk is Alt+letter, not the letter.
    expect(matches('nav.down', 'j', { meta: true })).toBe(false);
    expect(matches('search.toggleMode', 'f', { ctrl: true })).toBe(true);
  });

  it('gives every command a key and no key two commands', () => {
    const seen = new Map<string, string>();
    for (const c of COMMANDS) {
      expect(c.keys.length, c.id).toBeGreaterThan(0);
      for (const b of c.keys) {
        const id = JSON.stringify(b satisfies Binding);
        expect(
          seen.get(id),
          `${c.id} and ${seen.get(id)} share ${bindingLabel(b)}`,
        ).toBeUndefined();
        seen.set(id, c.id);
      }
    }
  });

  it('finds the command for a key press', () => {
    expect(commandFor('n', {})).toBe('hits.next');
    expect(commandFor('N', { shift: true })).toBe('hits.prev');
    expect(commandFor('y', {})).toBe('copy.anchor');
    expect(commandFor('?', {})).toBe('help');
    expect(commandFor('z', {})).toBeNull();
  });

  it('generates the help from the map: every command once, with its keys', () => {
    const rows = helpSections().flatMap((s) => s.rows);
    // Every command, plus the search line's own keys and filters (not commands of the map).
    const lineRows = rows.filter((r) => !COMMANDS.some((c) => c.description === r.description));
    expect(rows).toHaveLength(COMMANDS.length + lineRows.length);
    expect(lineRows.map((r) => r.keys)).toEqual([
      '← → Ctrl-A Ctrl-E',
      'Ctrl-W Ctrl-U',
      '↑ ↓',
      'Ctrl-N Ctrl-P',
      'key:value',
      'Tab',
    ]);
    const copy = rows.find((r) => r.description.startsWith('Copy an anchor'));
    expect(copy?.keys).toBe('y');
    expect(rows.find((r) => r.description === 'Page down')?.keys).toBe('PgDn Ctrl-D Space');
  });

  it('hints suggest keys that work where the keyboard is', () => {
    expect(hints('messages').join(' · ')).toContain('n/N next hit');
    expect(hints('messages').join(' · ')).toContain('y copy anchor');
    // While typing, plain letters are text: the hint names the Ctrl key.
    expect(hints('search').join(' · ')).toContain('^F fuzzy');
    expect(hints('search').slice(0, 2)).toEqual(['^N/^P move', '↑↓ history']);
    expect(hints('results').join(' · ')).toContain('f fuzzy');
  });
});
