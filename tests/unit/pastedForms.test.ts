/**
 * Every form `Y` offers reads back as the anchor it was made from (parse.ts),
 * built here with the same writers the app copies with: this profile's and
 * another profile's messages, a synced host's Hermes messages, this machine's
 * and a synced host's other agents' messages and resume commands. The app's
 * journeys (journey-hosts, journey-host-agents, journey-agents, journey-profiles)
 * paste them into the search line and open the message.
 */
import { describe, expect, it } from 'vitest';
import {
  agentCall,
  agentQuote,
  agentResume,
  agentScroll,
  agentWindowMarkdown,
} from '../../src/anchors/agentForms.js';
import { link, quote, scrollCall } from '../../src/anchors/format.js';
import { parseAnchor, parseAnchors } from '../../src/anchors/parse.js';
import { resumeCommand } from '../../src/app/resume.js';
import { hostScrollCommand } from '../../src/recall/hostTag.js';

const SID = '20261105_001544_6b3de4';
const CLAUDE = '5f0c1111-2222-4333-8444-555566667777';

/** What the app does with a paste: the block's one anchor, else its first line's. */
const pasted = (text: string) => parseAnchor(text) ?? parseAnchors(text)[0] ?? null;

describe('every copy form reads back', () => {
  it("a synced host's Hermes message: call, scroll command, quote (default and another profile)", () => {
    for (const profile of ['default', 'work']) {
      const named = profile === 'default' ? {} : { profile };
      const want = {
        kind: 'scroll',
        sessionId: SID,
        messageId: 1234,
        host: 'remote-box',
        ...named,
      };
      const call = scrollCall(
        { sessionId: SID, messageId: 1234 },
        5,
        profile === 'default' ? undefined : profile,
        'remote-box',
      );
      expect(pasted(call)).toEqual({ ...want, window: 5 });
      const cmd = hostScrollCommand({ agent: 'hermes', profile, host: 'remote-box' }, SID, '1234');
      expect(cmd).toBe(
        `lookback scroll --host remote-box ${profile === 'default' ? '' : '--profile work '}${SID} 1234`,
      );
      expect(pasted(cmd)).toEqual(want);
      const q = quote({
        profile,
        sessionId: SID,
        messageId: 1234,
        host: 'remote-box',
        callNamesProfile: profile !== 'default',
        role: 'user',
        timestamp: 1_760_000_000,
        content: 'the ferry timetable\n\nsecond paragraph',
      });
      expect(pasted(q)).toEqual({ ...want, window: 5 });
      expect(pasted(link({ profile, sessionId: SID, host: 'remote-box' }))).toEqual({
        kind: 'link',
        profile: `${profile}@remote-box`,
        sessionId: SID,
      });
    }
  });

  it('this machine: a Hermes quote reads back as its call', () => {
    const q = quote({
      profile: 'work',
      sessionId: SID,
      messageId: 7,
      callNamesProfile: true,
      role: 'assistant',
      timestamp: null,
      content: 'x',
    });
    expect(pasted(q)).toEqual({
      kind: 'scroll',
      sessionId: SID,
      messageId: 7,
      window: 5,
      profile: 'work',
    });
  });

  it("a synced host's agent message: call, scroll command, quote, window heading", () => {
    const ref = { agent: 'claude', sessionId: CLAUDE, anchor: 'a-7', host: 'remote-box' };
    const want = {
      kind: 'agentMessage',
      agent: 'claude',
      sessionId: CLAUDE,
      anchor: 'a-7',
      host: 'remote-box',
    };
    expect(agentScroll(ref)).toBe(`lookback scroll --host remote-box --agent claude ${CLAUDE} a-7`);
    expect(pasted(agentScroll(ref))).toEqual(want);
    expect(pasted(agentCall(ref))).toEqual(want);
    expect(
      pasted(agentQuote(ref, { role: 'user', timestamp: 1_760_000_000, content: 'hi\nthere' })),
    ).toEqual(want);
    const md = agentWindowMarkdown(ref, 'checkout', [
      { anchor: 'a-7', role: 'user', timestamp: null, content: 'hi', isAnchor: true },
    ]).text;
    expect(pasted(md)).toEqual(want);
    // A host name the shell needs quoted reads back unquoted.
    const odd = { ...ref, host: 'ana box' };
    expect(pasted(agentScroll(odd))).toEqual({ ...want, host: 'ana box' });
    // This machine's form stays hostless.
    const { host: _h, ...here } = ref;
    expect(pasted(agentScroll(here))).toEqual({
      kind: 'agentMessage',
      agent: 'claude',
      sessionId: CLAUDE,
      anchor: 'a-7',
    });
  });

  it("a synced host's agent conversation: the resume R runs over ssh -t", () => {
    for (const [agent, id, cwd] of [
      ['claude', CLAUDE, '/home/ana/shop'],
      ['codex', '0199a3e2-7c1d', '/home/ana/api'],
      ['claude', CLAUDE, "/home/ana/it's here"],
    ] as const) {
      const plan = resumeCommand(
        { sessionId: id, profile: '', agent, cwd, host: 'remote-box' },
        { env: { LOOKBACK_SSH_CONFIG: '/tmp/ssh config' } },
      );
      expect(plan.ok).toBe(true);
      if (!plan.ok) continue;
      expect(pasted(plan.display)).toEqual({
        kind: 'agentSession',
        agent,
        sessionId: id,
        host: 'remote-box',
      });
    }
    expect(pasted(agentResume('claude', CLAUDE)!)).toEqual({
      kind: 'agentSession',
      agent: 'claude',
      sessionId: CLAUDE,
    });
  });

  it('reads nothing from a scroll command that names no message', () => {
    expect(parseAnchor('lookback scroll --host remote-box --agent claude')).toBeNull();
    expect(parseAnchor('lookback scroll --host remote-box 20261105_001544_6b3de4')).toBeNull();
    expect(parseAnchor('lookback scroll --host remote-box --window 20 1')).toBeNull();
  });
});
