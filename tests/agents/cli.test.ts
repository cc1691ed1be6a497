/**
 * The other agents through the built CLI: found, indexed, searched (the snippet
 * comes from the matched message), scrolled at the anchor, read; and their files
 * byte-for-byte unchanged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookback } from '../helpers/cli.js';
import { IDS, buildHome, hashTree } from './samples.js';

let dir: string;
let home: string;
let env: NodeJS.ProcessEnv;
let before: Record<string, string>;

type Obj = Record<string, unknown>;
const results = (r: { json: () => Obj }) => r.json().results as Obj[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-agents-'));
  home = join(dir, 'home');
  buildHome(home);
  before = hashTree(home);
  env = {
    HOME: home,
    LOOKBACK_INDEX: join(dir, 'index', 'agents.db'),
    XDG_DATA_HOME: '',
    XDG_CONFIG_HOME: '',
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lookback over other agents', () => {
  it('indexes every source and lists it with counts and counted problems', () => {
    const idx = lookback(['index', '--json'], env);
    expect(idx.code, idx.stderr).toBe(0);
    const s = lookback(['sources', '--json'], env);
    expect(s.code, s.stderr).toBe(0);
    const by = Object.fromEntries((s.json().sources as Obj[]).map((x) => [x.agent, x]));
    expect(by.claude).toMatchObject({ conversations: 2 });
    expect(by.codex).toMatchObject({ conversations: 2 });
    expect(by.gemini).toMatchObject({ conversations: 1 });
    expect(by.opencode).toMatchObject({ conversations: 2 });
    expect(by.praisonai).toMatchObject({ conversations: 1 });
    const reasons = (a: string) => (by[a]!.problems as Obj[]).map((p) => `${p.count} ${p.reason}`);
    expect(reasons('codex')).toContain('1 zstd-compressed rollout skipped (Node 20 has no zstd)');
    expect(reasons('claude')).toContain('1 unknown record type "brand-new-type"');
    expect(reasons('praisonai')).toContain('1 file is not valid JSON (truncated or garbage)');
    const text = lookback(['sources'], env);
    expect(text.stdout).toMatch(/^claude\s+2 conversations, \d+ messages · indexed /m);
    expect(text.stdout).toContain(
      '! 1 × zstd-compressed rollout skipped (Node 20 has no zstd) (1 file)',
    );
  });

  it('searches each agent with a snippet from the matched message, and scrolls there', () => {
    const cases: [string, string, string, string][] = [
      ['claude', 'payment gateway', IDS.claude, 'Done: the idempotency key is now required'],
      [
        'codex',
        'limiter middleware',
        IDS.codex,
        'add a rate limiter to the token bucket middleware',
      ],
      ['gemini', 'snapshot mismatch', IDS.gemini, '2 failing: snapshot mismatch in header'],
      ['opencode', 'PriceTag', IDS.opencode, 'The timestamp in PriceTag renders differently'],
      ['praisonai', 'wireguard', IDS.praisonai, 'the wireguard tunnel drops every hour'],
    ];
    for (const [agent, q, sid, text] of cases) {
      const args = ['search', q, '--agent', agent, '--json'];
      if (agent === 'gemini') args.push('--roles', 'user,assistant,tool');
      const r = lookback(args, env);
      expect(r.code, r.stderr).toBe(0);
      const hit = results(r)[0]!;
      expect(hit).toMatchObject({ agent, session_id: sid });
      const anchor = String(hit.match_message_id);
      const matched = (hit.messages as Obj[]).find((m) => m.anchor === true)!;
      expect(matched.id).toBe(anchor);
      expect(String(matched.content)).toContain(text);
      // The snippet's words come from that same message.
      const plain = String(hit.snippet).replace(/>>>|<<<|\.\.\./g, '');
      expect(String(matched.content)).toContain(plain.trim().slice(0, 20));
      expect(String(hit.snippet)).toMatch(/>>>.+<<</);
      const sc = lookback(['scroll', '--agent', agent, sid, anchor, '--json'], env);
      expect(sc.code, sc.stderr).toBe(0);
      const at = (sc.json().messages as Obj[]).find((m) => m.anchor === true)!;
      expect(at.id).toBe(anchor);
      expect(String(at.content)).toContain(text);
    }
  });

  it('merges streaming chunks, keeps compaction and the subagent, and reads whole sessions', () => {
    const r = lookback(['read', '--agent', 'claude', IDS.claude, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const p = r.json();
    expect(p.session_meta).toMatchObject({
      title: 'checkout double charge',
      cwd: '/home/ana/shop',
      git_branch: 'main',
      agent: 'claude',
    });
    const msgs = p.messages as Obj[];
    // Two chunks of msg_01X are one assistant message anchored on the first chunk's uuid.
    const a1 = msgs.find((m) => m.id === 'a-1')!;
    expect(a1).toMatchObject({ role: 'assistant', reasoning: 'Look for charge( callers.' });
    expect((a1.tool_calls as Obj[])[0]).toMatchObject({
      id: 'toolu_1',
      function: { name: 'Grep' },
    });
    expect(msgs.some((m) => m.id === 'a-2')).toBe(false);
    expect(msgs.find((m) => m.id === 'u-2')).toMatchObject({
      role: 'tool',
      tool_call_id: 'toolu_1',
    });
    expect(msgs.find((m) => m.id === 'c-1')).toMatchObject({
      role: 'system',
      content: 'Conversation compacted',
    });
    expect(msgs.find((m) => m.id === 'u-3')).toMatchObject({
      role: 'system',
      content: 'Summary: the double charge comes from a retry in pay.ts',
    });
    const sub = lookback(['search', 'reconciler', '--agent', 'claude', '--json'], env);
    expect(results(sub)[0]).toMatchObject({
      session_id: `agent-${IDS.claudeAgent}`,
      parent_session_id: IDS.claude,
    });
    const recent = lookback(['recent', '--agent', 'claude', '--json'], env);
    expect(results(recent).map((x) => x.session_id)).toEqual([IDS.claude]);
    expect(results(recent)[0]).toMatchObject({
      title: 'checkout double charge',
      preview: 'why does checkout double-charge?',
      message_count: 8,
    });
  });

  it('keeps one copy of a duplicated Codex prompt and none of a fork’s copied prefix', () => {
    const r = lookback(['read', '--agent', 'codex', IDS.codex, '--json'], env);
    const msgs = r.json().messages as Obj[];
    expect(
      msgs.filter((m) => m.content === 'add a rate limiter to the token bucket middleware'),
    ).toHaveLength(1);
    expect(r.json().session_meta).toMatchObject({
      title: 'token bucket limiter',
      model: 'gpt-5-codex',
      git_branch: 'fix/rate',
      source: 'cli',
    });
    const fork = lookback(['read', '--agent', 'codex', IDS.codexFork, '--json'], env).json();
    expect(fork.session_meta).toMatchObject({ parent_session_id: IDS.codex, parent_kind: 'fork' });
    expect((fork.messages as Obj[]).map((m) => m.content)).toEqual([
      'now try a leaky bucket instead',
    ]);
    const s = lookback(['search', 'sliding window limiter', '--agent', 'codex', '--json'], env);
    expect(results(s).map((x) => x.session_id)).toEqual([IDS.codex]);
  });

  it('applies Gemini upserts (last write wins) and keeps a rewound row out unless --all', () => {
    const p = lookback(['read', '--agent', 'gemini', IDS.gemini, '--json'], env).json();
    expect(p.session_meta).toMatchObject({
      title: 'Red build from snapshot mismatch',
      cwd: '/home/ana/web',
      model: 'gemini-2.5-pro',
    });
    const ids = (p.messages as Obj[]).map((m) => m.id);
    // m3 was taken back ($rewindTo): out of the default transcript and search.
    expect(ids).toEqual(['m1', 'm2', 'm2/run_shell_command-1']);
    expect(results(lookback(['search', 'lint step', '--agent', 'gemini', '--json'], env))).toEqual(
      [],
    );
    const all = lookback(['read', '--agent', 'gemini', IDS.gemini, '--all', '--json'], env).json();
    expect((all.messages as Obj[]).map((m) => [m.id, m.taken_back ?? false])).toEqual([
      ['m1', false],
      ['m2', false],
      ['m2/run_shell_command-1', false],
      ['m3', true],
    ]);
    const hit = results(
      lookback(['search', 'lint step', '--agent', 'gemini', '--all', '--json'], env),
    )[0]!;
    expect(hit).toMatchObject({ match_message_id: 'm3', taken_back: true });
  });

  it('shows opencode children and PraisonAI archived turns', () => {
    const child = lookback(
      ['read', '--agent', 'opencode', IDS.opencodeChild, '--json'],
      env,
    ).json();
    expect(child.session_meta).toMatchObject({
      parent_session_id: IDS.opencode,
      parent_kind: 'child',
      title: 'Explore components',
    });
    const pr = lookback(['read', '--agent', 'praisonai', IDS.praisonai, '--json'], env).json();
    expect(pr.session_meta).toMatchObject({ title: 'VPN fixes', source: 'telegram' });
    expect((pr.messages as Obj[]).map((m) => [m.id, m.content])).toEqual([
      ['0', 'the wireguard tunnel drops every hour'],
      ['1', 'Set PersistentKeepalive to 25 on the client peer.'],
      ['2', 'remind me of the VPN fix'],
      ['3', ''],
      ['4', 'PersistentKeepalive = 25'],
    ]);
  });

  it('answers --agent all across agents, and without --agent reads every source found (#17)', () => {
    const r = lookback(
      ['search', 'charge OR wireguard OR PriceTag', '--agent', 'all', '--json'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(new Set(results(r).map((x) => x.agent))).toEqual(
      new Set(['claude', 'praisonai', 'opencode']),
    );
    // No Hermes store here, only other agents: their history, not "no store" (issue #17).
    const plain = lookback(['search', 'charge OR wireguard OR PriceTag', '--json'], env);
    expect(plain.code, plain.stderr).toBe(0);
    expect(results(plain).map((x) => [x.agent, x.session_id])).toEqual(
      results(r).map((x) => [x.agent, x.session_id]),
    );
    expect(plain.json().skipped).toEqual([
      { profile: 'default', error: expect.stringContaining('no store at') as unknown },
    ]);
    const hermesOnly = lookback(['search', 'wireguard', '--agent', 'hermes', '--json'], env);
    expect(hermesOnly.code).toBe(1);
    expect(hermesOnly.json().success).toBe(false);
    const bad = lookback(['search', 'x', '--agent', 'windsurf', '--json'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--agent takes hermes, claude, codex, gemini, opencode, praisonai, qwen, kimi, copilot, aider, crush, goose, cursor, cline, roo, kilo or all',
    );
  });

  it('left every agent file byte-for-byte unchanged', () => {
    expect(hashTree(home)).toEqual(before);
  });
});
