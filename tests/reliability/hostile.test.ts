/**
 * Hostile text in the store: content, titles, tool names, tool-call JSON,
 * sources, models, roles and even session ids carrying OSC 52 (clipboard),
 * OSC 0/2 (window title), OSC 8 (links), CSI, DCS, C0/C1 controls, bidi
 * overrides, zero-width characters and combining floods. Whatever lookback
 * prints for a person (the CLI's text output, JSON on a terminal, the anchor
 * formats) must be inert: no ESC, no C1, no BEL, no bidi controls.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { discover } from '../../src/store/search.js';
import { readSession } from '../../src/store/messages.js';
import { contentText } from '../../src/store/content.js';
import { conversationMarkdown } from '../../src/export/conversation.js';
import { formatAnchor, link, multi, quote, scrollCall } from '../../src/anchors/format.js';
import { buildStore, insertMessage, insertSession } from '../helpers/stores.js';
import { lookback } from '../helpers/cli.js';
import { stderrProblems, unsafeIn } from '../helpers/inert.js';

const ESC = '\u001b';
export const PAYLOADS: Record<string, string> = {
  'OSC 52 clipboard': `${ESC}]52;c;cm0gLXJmIH4K\u0007`,
  'OSC 52 (ST)': `${ESC}]52;p;ZXZpbA==${ESC}\\`,
  'OSC 0 title': `${ESC}]0;you have been pwned\u0007`,
  'OSC 2 title': `${ESC}]2;fake prompt $ ${ESC}\\`,
  'OSC 8 link': `${ESC}]8;;https://evil.example/${ESC}\\click me${ESC}]8;;${ESC}\\`,
  'CSI clear + home': `${ESC}[2J${ESC}[H`,
  'CSI colour': `${ESC}[31;1mred${ESC}[0m`,
  'CSI alt screen': `${ESC}[?1049h`,
  'CSI report': `${ESC}[6n${ESC}[c`,
  DCS: `${ESC}P+q544e${ESC}\\`,
  'DCS 8-bit': `\u0090+q544e\u009c`,
  'APC / PM / SOS': `${ESC}_apc${ESC}\\${ESC}^pm${ESC}\\${ESC}Xsos${ESC}\\`,
  'C1 CSI': `\u009b31mred`,
  'C1 OSC': `\u009d0;title\u009c`,
  'C1 NEL and RI': `line\u0085next\u008dup`,
  'C0 controls': `nul\u0000soh\u0001bel\u0007bs\u0008vt\u000bff\u000cso\u000eus\u001fdel\u007f`,
  'carriage return overwrite': `safe text\rrm -rf /`,
  'unterminated OSC': `${ESC}]52;c;AAAA`,
  'bidi override': `invoice \u202egpj.exe\u202c ok`,
  'bidi isolates and marks': `\u2066a\u2069 \u200f\u200e\u061c`,
  'zero-width': `zero\u200bwidth\u200d\ufeff\u2060joiner`,
  'combining flood': `Z${'\u0301\u0336\u0353'.repeat(300)}algo`,
  'line separators': `one\u2028two\u2029three`,
};
const ALL = Object.values(PAYLOADS).join(' ');
const SID = `evil${ESC}]0;title\u0007${ESC}[31m\u202e`;

let path: string;
let anchorId = 0;

beforeAll(() => {
  path = buildStore(30, (db) => {
    insertSession(db, {
      id: SID,
      started_at: 1_790_000_000,
      title: `hostile title ${ALL}`,
      source: `cli${ESC}[2J\u009b`,
      model: `model${ESC}]52;c;AAAA\u0007`,
      cwd: `/tmp/${ESC}]8;;x${ESC}\\`,
    });
    insertSession(db, { id: 'untitled', started_at: 1_790_000_100 });
    for (const [name, payload] of Object.entries(PAYLOADS)) {
      const id = insertMessage(db, {
        session_id: SID,
        content: `hostile ${name}: ${payload} end`,
      });
      anchorId ||= id;
      insertMessage(db, {
        session_id: SID,
        role: 'assistant',
        content: `hostile reply ${payload}`,
        tool_calls: JSON.stringify([
          {
            id: `call${payload}`,
            type: 'function',
            function: { name: `tool${payload}`, arguments: JSON.stringify({ cmd: payload }) },
          },
        ]),
      });
      insertMessage(db, {
        session_id: SID,
        role: 'tool',
        tool_name: `terminal${payload}`,
        tool_call_id: `call${payload}`,
        content: `hostile output ${payload}`,
      });
    }
    insertMessage(db, {
      session_id: SID,
      role: `assistant${ESC}[8m`,
      content: `hostile role ${ALL}`,
    });
    insertMessage(db, {
      session_id: SID,
      content: 'tool calls that are not JSON',
      tool_calls: `[{${ALL}`,
    });
    // An untitled session shows a preview of its first message instead.
    insertMessage(db, { session_id: 'untitled', content: `hostile preview ${ALL}` });
  });
});

function inert(label: string, text: string): void {
  expect(unsafeIn(text), `${label}: ${JSON.stringify(text.slice(0, 300))}`).toEqual([]);
}

describe('the CLI output is inert', () => {
  const commands = (): [string, string[]][] => [
    ['recent', ['recent', '--all']],
    ['search', ['search', 'hostile', '--limit', '20']],
    [
      'search tool output',
      ['search', 'hostile', '--roles', 'user,assistant,tool', '--sort', 'newest'],
    ],
    ['search title words', ['search', 'pwned']],
    ['scroll', ['scroll', SID, String(anchorId), '--window', '20']],
    ['read', ['read', SID]],
    ['read untitled', ['read', 'untitled']],
    ['scroll error echoing the id', ['scroll', SID, '999999']],
  ];

  it('in text mode (stdout and stderr)', () => {
    for (const [label, args] of commands()) {
      const r = lookback([...args, '--db', path]);
      expect(r.code, `${label}: ${r.stderr}`).toBe(label.includes('error') ? 1 : 0);
      expect(stderrProblems(r.stderr)).toEqual([]);
      inert(`${label} stdout`, r.stdout);
      inert(`${label} stderr`, r.stderr);
      if (!label.includes('error')) expect(r.stdout.length).toBeGreaterThan(20);
    }
  });

  it('in JSON mode too (a person may run it in a terminal), ANSI stripped as the agent does, the rest unchanged', () => {
    for (const [label, args] of commands()) {
      const r = lookback([...args, '--db', path, '--json']);
      inert(`${label} --json`, r.stdout + r.stderr);
      expect(() => r.json(), label).not.toThrow();
    }
    // ANSI escape sequences are stripped as the agent's tool strips them (STORE.md
    // "Caps"); every other character is escaped, not stripped.
    const read = lookback(['read', SID, '--db', path, '--json']).json();
    expect(read.session_id).toBe(SID);
    const contents = (read.messages as { content: string }[]).map((m) => m.content).join('');
    expect(contents).not.toContain(PAYLOADS['OSC 52 clipboard']);
    expect(contents).not.toContain('\u001b');
    expect(contents).toContain('hostile OSC 52 clipboard:');
    expect(contents).toContain(PAYLOADS['bidi override']);
  });
});

describe('the anchor formats are inert', () => {
  it('link, scroll call, quote, window, multi-anchor', () => {
    const store = Store.open(path);
    try {
      const hits = discover(store, 'hostile', { limit: 5, roles: ['user', 'assistant', 'tool'] });
      expect(hits.results.length).toBeGreaterThan(0);
      const messages = readSession(store, SID).messages;
      expect(messages.length).toBeGreaterThan(10);
      for (const m of messages) {
        const target = {
          profile: `default${ESC}]0;x\u0007`,
          sessionId: m.session_id,
          messageId: m.id,
          role: m.role,
          timestamp: m.timestamp,
          content: contentText(m.content),
          title: `hostile title ${ALL}`,
        };
        for (const form of ['link', 'scroll', 'quote'] as const)
          inert(`${form} #${m.id}`, formatAnchor(form, target));
        inert('link', link(target));
        inert('scrollCall', scrollCall(target, 7));
        inert('quote', quote(target));
      }
      const window = conversationMarkdown(
        { profile: 'default', sessionId: SID, title: `hostile title ${ALL}` },
        messages,
        { anchorId, headingLevel: 2 },
      );
      inert('window', window.text);
      inert('multi', multi(messages.map((m) => ({ sessionId: m.session_id, messageId: m.id }))));
    } finally {
      store.close();
    }
  });
});
