import { describe, expect, it } from 'vitest';
import { route, splitKeys } from '../../src/app/input/router.js';
import { initialState, reduce } from '../../src/app/state/reduce.js';
import type { AppState } from '../../src/app/state/types.js';

function base(): AppState {
  return initialState({
    size: { cols: 160, rows: 48 },
    store: { profile: 'default', path: '/x/state.db', demo: false },
    now: 0,
    rows: [],
  });
}

describe('input router', () => {
  it('maps keys to commands in a pane', () => {
    const s = base();
    expect(route(s, 'j', {})).toEqual({ kind: 'command', command: 'nav.down' });
    expect(route(s, '/', {})).toEqual({ kind: 'command', command: 'search.focus' });
    expect(route(s, 'q', {})).toEqual({ kind: 'command', command: 'quit' });
    expect(route(s, 'x', {})).toEqual({ kind: 'command', command: 'export.menu' });
    expect(route(s, 'z', {})).toBeNull();
  });

  it('types plain characters into the search line, but keeps named and Ctrl keys as commands', () => {
    const s = reduce(base(), { type: 'setTyping', on: true });
    expect(route(s, 'q', {})).toEqual({ kind: 'type', text: 'q' });
    expect(route(s, 'j', {})).toEqual({ kind: 'type', text: 'j' });
    expect(route(s, '?', {})).toEqual({ kind: 'type', text: '?' });
    expect(route(s, ' ', {})).toEqual({ kind: 'type', text: ' ' });
    // ↑/↓ walk the history; Ctrl-N/J and Ctrl-P/K move the results (fzf).
    expect(route(s, '', { downArrow: true })).toEqual({ kind: 'history', dir: 1 });
    expect(route(s, '', { upArrow: true })).toEqual({ kind: 'history', dir: -1 });
    for (const c of ['n', 'j'])
      expect(route(s, c, { ctrl: true })).toEqual({ kind: 'command', command: 'nav.down' });
    for (const c of ['p', 'k'])
      expect(route(s, c, { ctrl: true })).toEqual({ kind: 'command', command: 'nav.up' });
    expect(route(s, '', { leftArrow: true })).toEqual({ kind: 'edit', action: { type: 'left' } });
    expect(route(s, 'a', { ctrl: true })).toEqual({ kind: 'edit', action: { type: 'home' } });
    expect(route(s, 'e', { ctrl: true })).toEqual({ kind: 'edit', action: { type: 'end' } });
    expect(route(s, 'b', { meta: true })).toEqual({ kind: 'edit', action: { type: 'wordLeft' } });
    expect(route(s, '', { return: true })).toEqual({ kind: 'command', command: 'open' });
    expect(route(s, '', { escape: true, meta: true })).toEqual({
      kind: 'command',
      command: 'back',
    });
    expect(route(s, 'f', { ctrl: true })).toEqual({
      kind: 'command',
      command: 'search.toggleMode',
    });
    // Backspace arrives as key.delete.
    expect(route(s, '', { delete: true })).toEqual({
      kind: 'edit',
      action: { type: 'backspace' },
    });
    expect(route(s, 'w', { ctrl: true })).toEqual({
      kind: 'edit',
      action: { type: 'deleteWordBefore' },
    });
    // Ctrl-U clears the line while typing (it pages up elsewhere).
    expect(route(s, 'u', { ctrl: true })).toEqual({ kind: 'edit', action: { type: 'clear' } });
    expect(route(s, 'billing', {})).toEqual({ kind: 'paste', text: 'billing' });
  });

  it('Ctrl-C quits from anywhere, overlays included', () => {
    let s = reduce(base(), { type: 'setTyping', on: true });
    expect(route(s, 'c', { ctrl: true })).toEqual({ kind: 'command', command: 'quit' });
    s = reduce(base(), { type: 'openHelp' });
    expect(route(s, 'c', { ctrl: true })).toEqual({ kind: 'command', command: 'quit' });
  });

  it('gives overlays priority', () => {
    const help = reduce(base(), { type: 'openHelp' });
    expect(route(help, 'q', {})).toEqual({ kind: 'closeOverlay' });
    expect(route(help, '?', {})).toEqual({ kind: 'closeOverlay' });
    expect(route(help, 'j', {})).toEqual({ kind: 'helpScroll', delta: 1 });
    expect(route(help, 'y', {})).toBeNull();
    const menu = reduce(base(), {
      type: 'openCopyMenu',
      options: [
        { form: 'link', label: 'link', text: 'a' },
        { form: 'scroll', label: 'scroll', text: 'b' },
      ],
    });
    expect(route(menu, 'j', {})).toEqual({ kind: 'menu', action: 'move', dir: 1 });
    expect(route(menu, '2', {})).toEqual({ kind: 'menu', action: 'choose', index: 1 });
    expect(route(menu, '', { return: true })).toEqual({ kind: 'menu', action: 'choose' });
    expect(route(menu, '', { escape: true })).toEqual({ kind: 'closeOverlay' });
    expect(route(menu, 'y', {})).toBeNull();
  });

  it('sends a paste into a pane to the search line', () => {
    expect(route(base(), '@session:default/20260101_000000_abcdef', {})).toEqual({
      kind: 'paste',
      text: '@session:default/20260101_000000_abcdef',
    });
  });

  it('splits keys typed faster than a read, but not a multi-line paste', () => {
    expect(splitKeys('jj', {})).toEqual([
      { input: 'j', key: {} },
      { input: 'j', key: {} },
    ]);
    expect(splitKeys('x\r', {}).map((k) => k.key.return ?? false)).toEqual([false, true]);
    expect(splitKeys('G', { shift: true })).toEqual([{ input: 'G', key: { shift: true } }]);
    expect(splitKeys('a\nb', {})).toEqual([{ input: 'a\nb', key: {} }]);
    expect(splitKeys('\x7f\x7f', {}).every((k) => k.key.backspace)).toBe(true);
  });

  it('reads Esc Esc in one chunk as two Escs, and a lone line feed as Ctrl-J', () => {
    // ink hands `\x1b\x1bq` over as an escape whose input is the second Esc, then `q`.
    expect(splitKeys('\x1b', { escape: true, meta: true })).toEqual([
      { input: '', key: { escape: true } },
      { input: '', key: { escape: true } },
    ]);
    expect(splitKeys('', { escape: true, meta: true })).toEqual([
      { input: '', key: { escape: true, meta: true } },
    ]);
    expect(splitKeys('\n', {})).toEqual([{ input: 'j', key: { ctrl: true } }]);
  });
});
