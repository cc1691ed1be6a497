import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FILTER_KEYS,
  describeFilters,
  noResultsHint,
  onlyNegations,
  parseFilters,
} from '../../src/query/filters.js';
import { resolveLine } from '../../src/app/data/filters.js';

describe('parseFilters', () => {
  it('splits filters from the free query and keeps the query words in order', () => {
    const line = 'billing source:cli migration after:2026-03-01 before:2026-04-01';
    const p = parseFilters(line);
    expect(p.text).toBe('billing migration');
    expect(p.filters).toEqual({ sources: ['cli'], after: '2026-03-01', before: '2026-04-01' });
    expect(p.error).toBeUndefined();
    expect(p.chips.map((c) => line.slice(c.start, c.end))).toEqual([
      'source:cli',
      'after:2026-03-01',
      'before:2026-04-01',
    ]);
  });

  it('maps every key and alias to its field', () => {
    const p = parseFilters(
      'in:cli repo:~/code/app model:claude-sonnet profile:work role:user agent:hermes',
    );
    expect(p.filters).toEqual({
      sources: ['cli'],
      cwd: '~/code/app',
      model: 'claude-sonnet',
      profiles: ['work'],
      roles: ['user'],
      agents: ['hermes'],
    });
    expect(p.text).toBe('');
    expect(p.chips.map((c) => c.key)).toEqual(['in', 'repo', 'model', 'profile', 'role', 'agent']);
  });

  it('takes quoted values with spaces, and the chip covers the quotes', () => {
    const line = 'notes cwd:"~/my dir" x';
    const p = parseFilters(line);
    expect(p.filters.cwd).toBe('~/my dir');
    expect(p.text).toBe('notes x');
    const chip = p.chips[0];
    expect(chip && line.slice(chip.start, chip.end)).toBe('cwd:"~/my dir"');
  });

  it('ORs repeated keys and comma lists, without duplicates', () => {
    const p = parseFilters('source:cli source:telegram in:cli,discord role:user,tool');
    expect(p.filters.sources).toEqual(['cli', 'telegram', 'discord']);
    expect(p.filters.roles).toEqual(['user', 'tool']);
  });

  it('keeps the query syntax intact: phrases, OR, NOT, prefixes, URLs, session links', () => {
    const line =
      '"billing migration" OR stripe NOT webhook deploy* https://x.io/a @session:default/abc';
    const p = parseFilters(line);
    expect(p.text).toBe(line);
    expect(p.chips).toEqual([]);
    expect(p.error).toBeUndefined();
  });

  it('names an unknown key and lists the known ones', () => {
    const p = parseFilters('billing title:plan');
    expect(p.error).toBe(
      'unknown filter title: (filters: source: in: after: before: cwd: repo: model: profile: role: agent: host:)',
    );
    expect(p.chips).toEqual([{ key: 'title', value: 'plan', start: 8, end: 18, known: false }]);
    expect(p.text).toBe('billing');
  });

  it('host: takes several machines, joined by OR', () => {
    const p = parseFilters('retry host:devbox,gpu-1 host:devbox');
    expect(p.error).toBeUndefined();
    expect(p.filters.hosts).toEqual(['devbox', 'gpu-1']);
    expect(p.text).toBe('retry');
    expect(describeFilters(p.filters)).toBe('host:devbox,gpu-1');
  });

  it('says when a key has no value yet, and when a single-valued key is given twice', () => {
    expect(parseFilters('x source:').error).toBe('source: needs a value, e.g. source:cli');
    expect(parseFilters('after:2026-01-01 after:2026-02-01').error).toBe(
      'after: given twice (2026-01-01, 2026-02-01); keep one',
    );
    expect(parseFilters('after:2026-01-01 after:2026-01-01').error).toBeUndefined();
  });

  it('rejects a role the store never has', () => {
    expect(parseFilters('role:robot').error).toBe(
      'role:robot is not a role (roles: user, assistant, tool, system)',
    );
  });

  it('detects a query of only NOT terms', () => {
    expect(parseFilters('NOT stripe').error).toMatch(/^only NOT terms/);
    expect(parseFilters('NOT stripe source:cli').error).toMatch(/^only NOT terms/);
    expect(parseFilters('billing NOT stripe').error).toBeUndefined();
  });

  it('accepts keys in any case and sanitizes what it echoes', () => {
    expect(parseFilters('Source:cli').filters.sources).toEqual(['cli']);
    expect(parseFilters('bad\u001b]52;x:1').error).toBeUndefined();
    const p = parseFilters('zz:\u001b[31mred');
    expect(p.error).not.toMatch(/\u001b/);
  });

  it('never throws and chips always point at their text (property)', () => {
    const part = fc.oneof(
      fc.constantFrom('source:cli', 'cwd:"~/a b"', 'NOT', 'x', '"', 'after:', 'zz:1', ' ', '  '),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const line = parts.join(' ');
        const p = parseFilters(line);
        for (const c of p.chips) {
          expect(line.slice(c.start, c.end).toLowerCase().startsWith(`${c.key}:`)).toBe(true);
        }
      }),
    );
  });
});

describe('onlyNegations', () => {
  it.each([
    ['NOT x', true],
    ['NOT a NOT b', true],
    ['a NOT b', false],
    ['NOT', false],
    ['', false],
    ['not x', false],
  ])('%s → %s', (q, expected) => expect(onlyNegations(q)).toBe(expected));
});

describe('describeFilters', () => {
  it('writes filters back as one would type them', () => {
    expect(
      describeFilters({ sources: ['cli', 'telegram'], cwd: '~/my dir', after: '2026-03-01' }),
    ).toBe('source:cli,telegram after:2026-03-01 cwd:"~/my dir"');
    expect(FILTER_KEYS).toContain('repo');
  });
});

describe('noResultsHint', () => {
  it('only NOT terms', () => {
    expect(noResultsHint({ text: 'NOT stripe', filters: {}, mode: 'full-text' })).toBe(
      'nothing found: only NOT terms: NOT excludes from what a word finds, so give one (billing NOT stripe)',
    );
  });
  it('names the filter that excluded everything', () => {
    expect(
      noResultsHint({
        text: 'billing',
        filters: { sources: ['cli'] },
        mode: 'full-text',
        unfilteredCount: 12,
        excludingFilter: 'source:cli',
      }),
    ).toBe(
      'no results with source:cli (12 without the filters): source:cli excludes them all; remove a filter from the search line',
    );
  });
  it('offers a prefix, then fuzzy', () => {
    expect(
      noResultsHint({
        text: 'billing migra',
        filters: {},
        mode: 'full-text',
        prefixWouldMatch: true,
      }),
    ).toBe('no whole-word match for “billing migra”: migra* finds words that start with migra');
    expect(
      noResultsHint({ text: 'bilng', filters: {}, mode: 'full-text', fuzzyWouldMatch: true }),
    ).toBe('no full-text match for “bilng”: f switches to fuzzy, which finds some');
  });
  it('plain misses in both modes', () => {
    expect(noResultsHint({ text: 'zzz', filters: {}, mode: 'full-text' })).toBe(
      'no messages say “zzz”: try fewer words, a prefix (word*), or f for fuzzy titles',
    );
    expect(noResultsHint({ text: 'zzz', filters: {}, mode: 'fuzzy', modeKey: 'Ctrl-F' })).toBe(
      'no titles or previews like “zzz”: Ctrl-F switches to full-text over message bodies',
    );
    expect(noResultsHint({ text: '', filters: { model: 'gpt' }, mode: 'full-text' })).toBe(
      'no conversations match model:gpt: remove a filter from the search line',
    );
  });
});

describe('the app reads host: against the machines it lists', () => {
  const ctx = (hosts: string[]) => ({ now: 0, home: '/h', profile: 'default', hosts });
  it('keeps local and synced hosts; another machine is one line naming the way to sync it', () => {
    expect(resolveLine('x host:local,devbox', ctx(['devbox'])).store.hosts).toEqual([
      'local',
      'devbox',
    ]);
    expect(resolveLine('x host:gpu', ctx(['devbox'])).error).toBe(
      'host:gpu: not synced (hosts: local, devbox); lookback sync --host NAME reads another',
    );
    expect(resolveLine('x host:gpu', ctx([])).error).toBe(
      'host:gpu: no other machine is synced; lookback sync --host gpu reads it',
    );
  });
});
