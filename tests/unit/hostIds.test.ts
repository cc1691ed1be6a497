/**
 * The app's ids of another machine's agents (src/ids/app.ts): a session id names
 * the agent, the host (a `:` or `%` in it encoded) and the native id, and reads
 * back to the same three; message ids of each host's range never meet this
 * machine's agents' range or another host's, and read back to the same slot,
 * conversation row and ordinal.
 */
import { describe, expect, it } from 'vitest';
import {
  agentMessageId,
  agentSessionId,
  IdRangeError,
  MAX_HOST_CONV_ID,
  MAX_HOST_SLOT,
  MAX_LOCAL_CONV_ID,
  MAX_ORDINAL,
  messageRef,
  sessionRef,
  splitAgentMessageId,
  splitAgentSession,
  splitProfileSession,
} from '../../src/ids/app.js';

describe("another machine's agents' ids", () => {
  it('a session id reads back to its agent, host and native id', () => {
    for (const host of ['devbox', 'ana@box.example.org', 'fe80::1', 'odd%host:22']) {
      for (const native of ['5f0c1111-2222', 'a:b/c', 'kimi-sess/agent-1']) {
        const sid = agentSessionId('claude', native, host);
        expect(splitAgentSession(sid)).toEqual({
          kind: 'agent',
          agent: 'claude',
          nativeId: native,
          host,
        });
        expect(sessionRef(sid)).toEqual({ kind: 'agent', agent: 'claude', nativeId: native, host });
      }
    }
    // This machine's stay as they were, with no host.
    expect(splitAgentSession('codex:0199')).toEqual({
      kind: 'agent',
      agent: 'codex',
      nativeId: '0199',
    });
    // Never read as a profile's session, even with a '/' in the native id.
    expect(sessionRef(agentSessionId('kimi', 's/agent', 'devbox')).kind).toBe('agent');
    expect(splitProfileSession('claude@devbox/20260101_000000_abcdef')?.profile).toBe(
      'claude@devbox',
    );
  });

  it("message ids of each host's range read back and never meet another range", () => {
    const here = agentMessageId(MAX_HOST_CONV_ID * 2, 5);
    expect(splitAgentMessageId(here)).toEqual({
      convId: MAX_HOST_CONV_ID * 2,
      ordinal: 5,
      slot: 0,
    });
    const seen = new Set<number>([here]);
    for (const slot of [1, 2, MAX_HOST_SLOT]) {
      for (const [conv, ord] of [
        [0, 0],
        [1, 7],
        [MAX_HOST_CONV_ID - 1, 2 ** 24 - 1],
      ] as const) {
        const id = agentMessageId(conv, ord, slot);
        expect(Number.isSafeInteger(id)).toBe(true);
        expect(splitAgentMessageId(id)).toEqual({ convId: conv, ordinal: ord, slot });
        expect(messageRef(id)).toEqual({ kind: 'agent', convId: conv, ordinal: ord, slot });
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
    }
    // A host's first id is above every id this machine's index can give a row below 2^26.
    expect(agentMessageId(0, 0, 1)).toBeGreaterThan(agentMessageId(2 ** 26 - 1, 2 ** 24 - 1));
  });

  it('the exact limits: the last id of each range reads back; one past is refused in one line', () => {
    expect([MAX_LOCAL_CONV_ID, MAX_HOST_CONV_ID, MAX_ORDINAL, MAX_HOST_SLOT]).toEqual([
      2 ** 26,
      2 ** 20,
      2 ** 24,
      384,
    ]);
    // The last of this machine's range sits just below the first host's.
    const lastHere = agentMessageId(MAX_LOCAL_CONV_ID - 1, MAX_ORDINAL - 1);
    expect(lastHere + 1).toBe(agentMessageId(0, 0, 1));
    // The last of one host's range just below the next host's; the last host's is 2^53 - 1.
    expect(agentMessageId(MAX_HOST_CONV_ID - 1, MAX_ORDINAL - 1, 1) + 1).toBe(
      agentMessageId(0, 0, 2),
    );
    const last = agentMessageId(MAX_HOST_CONV_ID - 1, MAX_ORDINAL - 1, MAX_HOST_SLOT);
    expect(last).toBe(Number.MAX_SAFE_INTEGER);
    expect(splitAgentMessageId(last)).toEqual({
      convId: MAX_HOST_CONV_ID - 1,
      ordinal: MAX_ORDINAL - 1,
      slot: MAX_HOST_SLOT,
    });
    // One past any limit would have been another conversation's (or another host's) id: refused.
    const past: [number, number, number, RegExp][] = [
      [
        MAX_LOCAL_CONV_ID,
        0,
        0,
        /^conversation row 67,108,864 of this machine's agents' index is past the app's 67,108,864; read it with lookback scroll$/,
      ],
      [
        MAX_HOST_CONV_ID,
        0,
        1,
        /^conversation row 1,048,576 of a synced host's agents' index is past the app's 1,048,576; read it with lookback scroll$/,
      ],
      [
        0,
        MAX_ORDINAL,
        2,
        /^message 16,777,217 of a conversation is past the app's 16,777,216 per conversation; read it with lookback scroll$/,
      ],
      [0, 0, MAX_HOST_SLOT + 1, /^the app numbers at most 384 synced hosts \(this is host 385\)$/],
      [-1, 0, 0, /past the app's/],
      [1.5, 0, 1, /past the app's/],
    ];
    for (const [conv, ord, slot, line] of past) {
      let thrown: unknown = null;
      try {
        agentMessageId(conv, ord, slot);
      } catch (e) {
        thrown = e;
      }
      expect(thrown, `${conv} ${ord} ${slot}`).toBeInstanceOf(IdRangeError);
      expect((thrown as Error).message).toMatch(line);
    }
  });
});
