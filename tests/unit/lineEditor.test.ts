import { HISTORY_MAX } from '../../src/budgets.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EMPTY_LINE,
  editLine,
  historyDown,
  historyOf,
  historyUp,
  keyToEdit,
  lineOf,
  recordQuery,
  visibleLine,
  type EditAction,
  type LineState,
} from '../../src/app/input/lineEditor.js';
import { historyPath, loadHistory, saveHistory } from '../../src/tui/history.js';
import { graphemes, safeWidth } from '../../src/text/width.js';

const at = (text: string, cursor: number): LineState => ({ text, cursor });
const run = (s: LineState, ...actions: EditAction['type'][]): LineState =>
  actions.reduce((acc, type) => editLine(acc, { type } as EditAction), s);
const type = (s: LineState, text: string): LineState => editLine(s, { type: 'insert', text });

describe('editLine', () => {
  it('inserts at the cursor, typed or pasted', () => {
    let s = type(EMPTY_LINE, 'billing');
    s = run(s, 'home');
    s = type(s, 'the ');
    expect(s).toEqual(at('the billing', 4));
    expect(type(at('ab', 1), 'XYZ')).toEqual(at('aXYZb', 4));
  });

  it('turns pasted line breaks and tabs into spaces and drops control characters', () => {
    expect(type(EMPTY_LINE, 'one\ntwo\r\nthree\tfour')).toEqual(at('one two three four', 18));
    expect(type(EMPTY_LINE, 'a\u001b]52;c;eA==\u0007b').text).not.toMatch(/[\u0000-\u001f]/);
  });

  it('Backspace and Delete remove whole graphemes', () => {
    const family = '👨\u200d👩\u200d👧';
    const s = lineOf(`a${family}é`.normalize('NFD'));
    const b1 = run(s, 'backspace');
    expect(b1.text).toBe(`a${family}`);
    const b2 = run(b1, 'backspace');
    expect(b2).toEqual(at('a', 1));
    expect(run(at(`x${family}y`, 1), 'delete')).toEqual(at('xy', 1));
    expect(run(at('ab', 0), 'backspace')).toEqual(at('ab', 0));
    expect(run(at('ab', 2), 'delete')).toEqual(at('ab', 2));
  });

  it('←/→ step over a grapheme, never into it', () => {
    const s = at('a漢👍🏽b', 0);
    const positions = [s.cursor];
    let cur = s;
    for (let i = 0; i < 5; i++) positions.push((cur = run(cur, 'right')).cursor);
    expect(positions).toEqual([0, 1, 2, 6, 7, 7]);
    expect(run(at('a漢👍🏽b', 6), 'left').cursor).toBe(2);
  });

  it('snaps a cursor given inside a surrogate pair back to the boundary', () => {
    expect(run(at('a😀b', 2), 'right').cursor).toBe(3);
  });

  it('Home/End, word jumps, Ctrl-W, Ctrl-U, Ctrl-K', () => {
    const line = 'fix the_billing  migration';
    expect(run(at(line, line.length), 'wordLeft').cursor).toBe(17);
    expect(run(at(line, line.length), 'wordLeft', 'wordLeft').cursor).toBe(4);
    expect(run(at(line, 0), 'wordRight').cursor).toBe(3);
    expect(run(at(line, 3), 'wordRight').cursor).toBe(15);
    expect(run(at(line, 10), 'home').cursor).toBe(0);
    expect(run(at(line, 10), 'end').cursor).toBe(line.length);
    expect(run(at('git push --force ', 17), 'deleteWordBefore')).toEqual(at('git push ', 9));
    expect(run(at('cwd:~/a/b x', 9), 'deleteWordBefore')).toEqual(at(' x', 0));
    expect(run(at(line, 10), 'clear')).toEqual(EMPTY_LINE);
    expect(run(at(line, 3), 'killToEnd')).toEqual(at('fix', 3));
  });

  it('keeps the cursor on a boundary and the text clean under any edits (property)', () => {
    const action = fc.oneof(
      fc.record({
        type: fc.constant('insert' as const),
        text: fc.string({ unit: 'grapheme', maxLength: 4 }),
      }),
      fc.constantFrom<EditAction>(
        ...(
          [
            'backspace',
            'delete',
            'left',
            'right',
            'home',
            'end',
            'wordLeft',
            'wordRight',
            'deleteWordBefore',
            'killToEnd',
          ] as const
        ).map((t) => ({ type: t }) as EditAction),
      ),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        let s = EMPTY_LINE;
        for (const a of actions) s = editLine(s, a);
        const bounds = [0];
        for (const g of graphemes(s.text)) bounds.push((bounds.at(-1) as number) + g.length);
        expect(bounds).toContain(s.cursor);
        expect(s.text).not.toMatch(/[\u0000-\u001f\u007f]/);
      }),
    );
  });
});

describe('keyToEdit', () => {
  it('maps shell keys', () => {
    expect(keyToEdit('a', { ctrl: true })).toEqual({ type: 'home' });
    expect(keyToEdit('e', { ctrl: true })).toEqual({ type: 'end' });
    expect(keyToEdit('w', { ctrl: true })).toEqual({ type: 'deleteWordBefore' });
    expect(keyToEdit('u', { ctrl: true })).toEqual({ type: 'clear' });
    expect(keyToEdit('k', { ctrl: true })).toEqual({ type: 'killToEnd' });
    expect(keyToEdit('b', { meta: true })).toEqual({ type: 'wordLeft' });
    expect(keyToEdit('f', { meta: true })).toEqual({ type: 'wordRight' });
    expect(keyToEdit('', { leftArrow: true, ctrl: true })).toEqual({ type: 'wordLeft' });
    expect(keyToEdit('', { rightArrow: true, meta: true })).toEqual({ type: 'wordRight' });
    expect(keyToEdit('', { delete: true })).toEqual({ type: 'backspace' });
    expect(keyToEdit('', { home: true })).toEqual({ type: 'home' });
    expect(keyToEdit('pasted text', {})).toEqual({ type: 'insert', text: 'pasted text' });
  });
  it('leaves Enter, Esc, ↑/↓ and unknown chords to the caller', () => {
    expect(keyToEdit('', { return: true })).toBeNull();
    expect(keyToEdit('', { escape: true, meta: true })).toBeNull();
    expect(keyToEdit('', { upArrow: true })).toBeNull();
    expect(keyToEdit('x', { ctrl: true })).toBeNull();
    // The app's key map owns these (search mode, paging).
    expect(keyToEdit('f', { ctrl: true })).toBeNull();
    expect(keyToEdit('d', { ctrl: true })).toBeNull();
  });
});

describe('history', () => {
  it('walks older with ↑, newer with ↓, and gives the draft back', () => {
    let h = historyOf(['alpha', 'beta', 'gamma']);
    const u1 = historyUp(h, 'my draft');
    expect(u1?.line.text).toBe('gamma');
    const u2 = historyUp(u1!.history, 'gamma');
    expect(u2?.line).toEqual(lineOf('beta'));
    const u3 = historyUp(u2!.history, 'beta');
    expect(u3?.line.text).toBe('alpha');
    expect(historyUp(u3!.history, 'alpha')).toBeNull();
    const d1 = historyDown(u3!.history);
    expect(d1?.line.text).toBe('beta');
    const d2 = historyDown(historyDown(d1!.history)!.history);
    expect(d2?.line).toEqual(lineOf('my draft'));
    expect(historyDown(d2!.history)).toBeNull();
    h = historyOf([]);
    expect(historyUp(h, 'x')).toBeNull();
  });

  it('dedupes (a repeat moves to newest) and stays bounded', () => {
    let h = historyOf(['a', 'b', 'c']);
    h = recordQuery(h, ' b ');
    expect(h.entries).toEqual(['a', 'c', 'b']);
    h = recordQuery(h, '   ');
    expect(h.entries).toEqual(['a', 'c', 'b']);
    for (let i = 0; i < HISTORY_MAX + 50; i++) h = recordQuery(h, `q${i}`);
    expect(h.entries).toHaveLength(HISTORY_MAX);
    expect(h.entries.at(-1)).toBe(`q${HISTORY_MAX + 49}`);
  });

  describe('files', () => {
    let dir = '';
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('saves and loads through a file in a directory it creates', () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'lookback-hist-'));
      const file = path.join(dir, 'nested', 'history.json');
      expect(loadHistory(file)).toEqual([]);
      expect(saveHistory(file, ['billing', 'auth refactor', 'billing'])).toBeNull();
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        version: 1,
        queries: ['auth refactor', 'billing'],
      });
      expect(loadHistory(file)).toEqual(['auth refactor', 'billing']);
    });

    it('reads a broken or foreign file as empty and reports a failed save in one line', () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'lookback-hist-'));
      const file = path.join(dir, 'history.json');
      writeFileSync(file, '{not json');
      expect(loadHistory(file)).toEqual([]);
      writeFileSync(file, JSON.stringify({ queries: ['ok', 5, null, 'x\u001b[2J'] }));
      expect(loadHistory(file)).toEqual(['ok', 'x']);
      const blocked = path.join(file, 'cannot', 'history.json');
      expect(saveHistory(blocked, ['a'])).toMatch(/^search history not saved: /);
    });

    it('finds the cache directory per platform', () => {
      expect(historyPath({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u')).toBe(
        '/x/cache/lookback/history.json',
      );
      expect(historyPath({}, 'linux', '/home/u')).toBe('/home/u/.cache/lookback/history.json');
      expect(historyPath({ XDG_CACHE_HOME: 'relative' }, 'linux', '/home/u')).toBe(
        '/home/u/.cache/lookback/history.json',
      );
      expect(historyPath({}, 'darwin', '/Users/u')).toBe(
        '/Users/u/Library/Caches/lookback/history.json',
      );
    });
  });
});

describe('visibleLine', () => {
  it('shows the whole line with the cursor cell when it fits', () => {
    expect(visibleLine(at('billing', 3), 20)).toEqual({
      before: 'bil',
      at: 'l',
      after: 'ing',
      column: 3,
      clippedLeft: false,
      clippedRight: false,
    });
    expect(visibleLine(at('ab', 2), 3)).toMatchObject({
      before: 'ab',
      at: ' ',
      after: '',
      column: 2,
    });
  });

  it('scrolls so the cursor stays visible and takes a wide character whole', () => {
    const v = visibleLine(at('漢字かな交じり文', 8), 6);
    expect(v).toMatchObject({ before: 'り文', at: ' ', clippedLeft: true, clippedRight: false });
    const w = visibleLine(at('ab漢字cd', 2), 3);
    expect(w.at).toBe('漢');
    expect(safeWidth(w.before + w.at + w.after)).toBeLessThanOrEqual(3);
  });

  it('never exceeds the width and always shows the cursor cell (property)', () => {
    const unit = fc.constantFrom('a', ' ', '漢', '👍🏽', 'é', '🇯🇵', 'ｶ');
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 30 }),
        fc.nat(),
        fc.integer({ min: 1, max: 20 }),
        (parts, pos, width) => {
          const text = parts.join('');
          const state = run(at(text, 0), ...Array<'right'>(pos % (parts.length + 1)).fill('right'));
          const v = visibleLine(state, width);
          expect(safeWidth(v.before + v.at + v.after)).toBeLessThanOrEqual(width);
          expect(v.at).not.toBe('');
          expect(v.column).toBe(safeWidth(v.before));
          if (v.at === '?' && !text.includes('?')) return; // the cursor grapheme is wider than the field
          expect(
            text.includes(
              v.before + (v.at === ' ' && state.cursor === text.length ? '' : v.at) + v.after,
            ),
          ).toBe(true);
        },
      ),
    );
  });
});
