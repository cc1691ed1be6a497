/** The other agents' copy forms, and parse.ts reading each of them back. */
import { describe, expect, it } from 'vitest';
import {
  agentCall,
  agentQuote,
  agentResume,
  agentScroll,
  agentWindowMarkdown,
} from '../../src/anchors/agentForms.js';
import { parseAnchor } from '../../src/anchors/parse.js';
import { agentFilter } from '../../src/app/data/agentFilter.js';

const ref = { agent: 'codex', sessionId: '0199a3e2-7c1d-7000-8000-00000000c0de', anchor: '7' };

describe('agent copy forms', () => {
  it('writes the scroll command, quoting only ids that need it', () => {
    expect(agentScroll(ref)).toBe(
      'lookback scroll --agent codex 0199a3e2-7c1d-7000-8000-00000000c0de 7',
    );
    expect(agentScroll({ agent: 'praisonai', sessionId: 'my chat', anchor: '3' })).toBe(
      'lookback scroll --agent praisonai "my chat" 3',
    );
  });

  it('writes the session_search call an MCP-connected agent runs, and reads it back', () => {
    const call = agentCall(ref);
    expect(call).toBe(
      'session_search(session_id="0199a3e2-7c1d-7000-8000-00000000c0de", around_message_id="7", window=5, agent="codex")',
    );
    expect(parseAnchor(call)).toEqual({
      kind: 'agentMessage',
      agent: 'codex',
      sessionId: ref.sessionId,
      anchor: '7',
    });
    const odd = { agent: 'praisonai', sessionId: 'my "chat"\u001b[2J', anchor: 'L-3' };
    expect(agentCall(odd)).not.toContain('\u001b');
    expect(parseAnchor(agentCall(odd))).toMatchObject({ agent: 'praisonai', anchor: 'L-3' });
    expect(parseAnchor('session_search(session_id="s1", agent="claude")')).toEqual({
      kind: 'agentSession',
      agent: 'claude',
      sessionId: 's1',
    });
    expect(
      parseAnchor('session_search(session_id="s1", around_message_id="x", agent="windsurf")'),
    ).toBeNull();
  });

  it('knows each agent’s own resume command', () => {
    expect(agentResume('claude', 'abc')).toBe('claude --resume abc');
    expect(agentResume('codex', 'abc')).toBe('codex resume abc');
    expect(agentResume('gemini', 'abc')).toBe('gemini --resume abc');
    expect(agentResume('opencode', 'ses_1')).toBe('opencode --session ses_1');
    expect(agentResume('praisonai', 'x')).toBeNull();
  });

  it('parses every form back to the same message or session', () => {
    const msg = { kind: 'agentMessage', agent: 'codex', sessionId: ref.sessionId, anchor: '7' };
    expect(parseAnchor(agentScroll(ref))).toEqual(msg);
    expect(parseAnchor('`' + agentScroll(ref) + '`')).toEqual(msg);
    const q = agentQuote(ref, { role: 'user', timestamp: 1_755_000_000, content: 'hello\nworld' });
    expect(q).toBe(
      `> hello\n> world\n\n— user · 2025-08-12T12:00:00Z · codex · ${agentScroll(ref)}`,
    );
    expect(parseAnchor(q)).toEqual(msg);
    const w = agentWindowMarkdown(ref, 'Rate limits', [
      { anchor: '7', role: 'user', timestamp: null, content: 'hi', isAnchor: true },
    ]);
    expect(parseAnchor(w.text)).toEqual(msg);
    expect(parseAnchor(agentScroll({ ...ref, sessionId: 'a "b"' }))).toEqual({
      ...msg,
      sessionId: 'a "b"',
    });
    expect(parseAnchor('codex resume 0199a3e2')).toEqual({
      kind: 'agentSession',
      agent: 'codex',
      sessionId: '0199a3e2',
    });
    expect(parseAnchor('opencode --session ses_1')).toEqual({
      kind: 'agentSession',
      agent: 'opencode',
      sessionId: 'ses_1',
    });
    expect(parseAnchor('lookback scroll --agent nobody x 1')).toBeNull();
  });
});

describe('agentFilter (the agent: chip)', () => {
  it('keeps known agents, reports unknown ones, and tests rows', () => {
    const f = agentFilter(['Codex', 'hermes', 'vim', 'codex']);
    expect(f.agents).toEqual(['codex', 'hermes']);
    expect(f.unknown).toEqual(['vim']);
    expect(f.test({ agent: 'codex' })).toBe(true);
    expect(f.test({})).toBe(true); // a row without an agent is a Hermes row
    expect(f.test({ agent: 'claude' })).toBe(false);
    expect(agentFilter([]).test({ agent: 'claude' })).toBe(true);
  });
});
