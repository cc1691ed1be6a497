/**
 * Discovery: the agents' default places, their own environment overrides, and
 * `--source-dir AGENT=PATH`; CJK search through the trigram rows; Hermes answers
 * unchanged without --agent and tagged with it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceRoots } from '../../src/agents/discover.js';
import { isMoreAgent } from '../../src/agents/discoverMore.js';
import { lookback } from '../helpers/cli.js';
import { fixtureCopy } from '../helpers/fixtures.js';
import { IDS, buildHome } from './samples.js';

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-disc-'));
  home = join(dir, 'home');
  buildHome(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Obj = Record<string, unknown>;

describe('where the agents keep their files', () => {
  it('uses each agent’s own override, and --source-dir over all of them', () => {
    const roots = (env: NodeJS.ProcessEnv, o = {}) =>
      Object.fromEntries(
        sourceRoots({ HOME: '/h', ...env }, o)
          // The agents of AGENTS.md §9 have their own test (moreAgents.test.ts).
          .filter((r) => !isMoreAgent(r.agent))
          .map((r) => [r.agent, `${r.path} (${r.from})`]),
      );
    expect(roots({})).toEqual({
      claude: '/h/.claude/projects (default)',
      codex: '/h/.codex (default)',
      gemini: '/h/.gemini (default)',
      opencode: '/h/.local/share/opencode (default)',
      praisonai: '/h/.praisonai/sessions (default)',
    });
    expect(
      roots({
        CLAUDE_CONFIG_DIR: '/c',
        CODEX_HOME: '/x',
        GEMINI_CLI_HOME: '/g',
        OPENCODE_DB: '/o/opencode.db',
        PRAISONAI_HOME: '/p',
      }),
    ).toEqual({
      claude: '/c/projects (CLAUDE_CONFIG_DIR)',
      codex: '/x (CODEX_HOME)',
      gemini: '/g/.gemini (GEMINI_CLI_HOME)',
      opencode: '/o/opencode.db (OPENCODE_DB)',
      praisonai: '/p/sessions (PRAISONAI_HOME)',
    });
    expect(roots({ CODEX_HOME: '/x' }, { codex: '/copy' }).codex).toBe('/copy (--source-dir)');
  });

  it('reads a copy given with --source-dir and the env overrides through the CLI', () => {
    const copy = join(dir, 'copy-of-codex');
    cpSync(join(home, '.codex'), copy, { recursive: true });
    const env = { HOME: join(dir, 'empty'), LOOKBACK_INDEX: join(dir, 'a.db') };
    const r = lookback(
      ['search', 'token bucket', '--agent', 'codex', '--source-dir', `codex=${copy}`, '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect((r.json().results as Obj[])[0]).toMatchObject({ session_id: IDS.codex, agent: 'codex' });
    const viaEnv = lookback(['recent', '--agent', 'all', '--json'], {
      HOME: join(dir, 'empty'),
      LOOKBACK_INDEX: join(dir, 'b.db'),
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      GEMINI_CLI_HOME: home,
      OPENCODE_DB: join(home, '.local', 'share', 'opencode', 'opencode.db'),
      PRAISONAI_HOME: join(home, '.praisonai'),
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(new Set((viaEnv.json().results as Obj[]).map((x) => x.agent))).toEqual(
      new Set(['claude', 'gemini', 'opencode', 'praisonai']),
    );
    const bad = lookback(['index', '--source-dir', 'windsurf=/x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--source-dir takes AGENT=PATH');
  });
});

describe('search semantics', () => {
  it('finds CJK text through the trigram rows (3+ characters) and a substring scan (2)', () => {
    const env = { HOME: join(dir, 'cjk'), LOOKBACK_INDEX: join(dir, 'cjk.db') };
    const proj = join(dir, 'cjk', '.gemini', 'tmp', 'p', 'chats');
    mkdirSync(proj, { recursive: true });
    writeFileSync(
      join(proj, 'session-2026-08-20T10-01-cafe0000.jsonl'),
      [
        {
          sessionId: 'cafe0000-1',
          startTime: '2026-08-20T10:01:00.000Z',
          lastUpdated: '2026-08-20T10:01:00.000Z',
        },
        {
          id: 'k1',
          timestamp: '2026-08-20T10:01:04.000Z',
          type: 'user',
          content: '数据库连接池超时了怎么办',
        },
        {
          id: 'k2',
          timestamp: '2026-08-20T10:01:05.000Z',
          type: 'gemini',
          content: '先检查 pgbouncer 的配置',
        },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n') + '\n',
    );
    const tri = lookback(['search', '连接池', '--agent', 'gemini', '--json'], env);
    expect(tri.code, tri.stderr).toBe(0);
    const hit = (tri.json().results as Obj[])[0]!;
    expect(hit).toMatchObject({ match_message_id: 'k1' });
    expect(hit.snippet).toContain('>>>连接池<<<');
    const two = lookback(['search', '超时', '--agent', 'gemini', '--json'], env);
    expect((two.json().results as Obj[])[0]).toMatchObject({ match_message_id: 'k1' });
    expect(String((two.json().results as Obj[])[0]!.snippet)).toContain('超时');
  });

  it('leaves the Hermes JSON exactly as it was without --agent, and tags it with --agent hermes', () => {
    const db = fixtureCopy(30);
    const plain = lookback(['search', 'migration', '--db', db, '--json']);
    const tagged = lookback(['search', 'migration', '--db', db, '--agent', 'hermes', '--json']);
    expect(plain.code).toBe(0);
    const p = plain.json();
    expect((p.results as Obj[]).length).toBeGreaterThan(0);
    expect(JSON.stringify(p)).not.toContain('"agent"');
    const t = tagged.json();
    expect((t.results as Obj[]).every((r) => r.agent === 'hermes')).toBe(true);
    const untag = (t.results as Obj[]).map(({ agent: _a, ...rest }) => rest);
    expect(untag).toEqual(p.results);
    const bad = lookback(['scroll', 'some-session', 'u-4', '--db', db, '--agent', 'hermes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('MESSAGE_ID must be a whole number, not "u-4"');
  });

  it('merges Hermes and the other agents with --agent all, taking turns by relevance', () => {
    const db = fixtureCopy(30);
    const env = { HOME: home, LOOKBACK_INDEX: join(dir, 'all.db') };
    const r = lookback(
      ['search', 'migration OR charge', '--db', db, '--agent', 'all', '--limit', '4', '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const res = r.json().results as Obj[];
    expect(res.map((x) => x.agent)).toEqual(['hermes', 'claude', 'hermes', 'claude']);
    // Both sides print `when` the same way (ISO-8601 UTC).
    for (const x of res) expect(String(x.when)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const claudeHit = res.find((x) => x.agent === 'claude' && x.session_id === IDS.claude)!;
    expect(String(claudeHit.snippet)).toContain('>>>charge<<<');
    // An anchor of a conversation in the index is answered there, with --db naming the Hermes store.
    const sc = lookback(['scroll', IDS.claude, 'u-4', '--db', db, '--agent', 'all', '--json'], env);
    expect(sc.code).toBe(0);
    expect(sc.json()).toMatchObject({
      around_message_id: 'u-4',
      session_meta: { agent: 'claude' },
    });
    const miss = lookback(['scroll', 'nope', 'zz', '--db', db, '--agent', 'all', '--json'], env);
    expect(miss.code).toBe(1);
    // A session no source holds is one line over them all (#17), not the Hermes store's alone.
    expect(miss.json()).toEqual({
      success: false,
      error: 'session_id not found in any source: nope',
    });
  });
});
