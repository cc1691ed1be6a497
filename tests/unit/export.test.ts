import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversationJson,
  conversationMarkdown,
  markedJson,
  markedMarkdown,
  type ConversationInfo,
} from '../../src/export/conversation.js';
import { exportBaseName, uniqueExportPath } from '../../src/export/fileName.js';
import { contentText } from '../../src/store/content.js';
import { sessionMeta } from '../../src/store/lineage.js';
import { readSession } from '../../src/store/messages.js';
import { readJson } from '../../src/store/recall.js';
import { Store } from '../../src/store/store.js';
import type { Message } from '../../src/store/types.js';
import { sanitize } from '../../src/text/sanitize.js';
import { lookback } from '../helpers/cli.js';
import { fixtureCopy, sha256 } from '../helpers/fixtures.js';

describe('export of a real conversation (schema 30 fixture)', () => {
  let path: string;
  let hash: string;
  let store: Store;
  let sid: string;
  let info: ConversationInfo;
  let messages: Message[];

  beforeAll(() => {
    path = fixtureCopy(30);
    hash = sha256(path);
    store = Store.open(path, { profile: 'work' });
    // A whole (untruncated) conversation with tool calls and tool output.
    const ids = store.db
      .prepare(
        `SELECT s.id FROM sessions s WHERE
           (SELECT count(*) FROM messages m WHERE m.session_id = s.id) BETWEEN 6 AND 30
           AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'tool')
         ORDER BY s.id`,
      )
      .pluck()
      .all() as string[];
    for (const id of ids) {
      const r = readSession(store, id);
      if (!r.truncated && r.messages.some((m) => Array.isArray(m.tool_calls))) {
        sid = id;
        messages = r.messages;
        break;
      }
    }
    const meta = sessionMeta(store, sid);
    if (!meta) throw new Error('fixture session has no meta');
    info = {
      profile: 'work',
      sessionId: sid,
      title: meta.title,
      source: meta.source,
      model: meta.model,
      startedAt: meta.started_at,
      cwd: meta.cwd,
    };
  });
  afterAll(() => {
    store.close();
    expect(sha256(path)).toBe(hash);
  });

  it('JSON is what `read --json` prints for the same conversation', () => {
    expect(messages.length).toBeGreaterThan(0);
    const mine = JSON.parse(JSON.stringify(conversationJson(info, messages)));
    expect(mine).toEqual(JSON.parse(JSON.stringify(readJson(store, sid))));
    const cli = lookback(['read', sid, '--json', '--db', path]);
    expect(cli.code).toBe(0);
    // The CLI reads the file by --db, so its link names the default profile.
    expect(cli.json().link).toBe(`@session:default/${sid}`);
    expect({ ...mine, link: cli.json().link }).toEqual(cli.json());
  });

  it('Markdown holds the title, link, and every message in order with role, time, id and text', () => {
    const { text, chars } = conversationMarkdown(info, messages);
    expect(chars).toBe(text.length);
    expect(
      text.startsWith(`# ${info.title ?? `Session ${sid}`}\n\n- link: \`@session:work/${sid}\``),
    ).toBe(true);
    let at = 0;
    for (const m of messages) {
      const iso = new Date(m.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const role = m.tool_name ? `${m.role} (${m.tool_name})` : m.role;
      const header = `### ${role} · ${iso} · #${m.id}`;
      const found = text.indexOf(header, at);
      expect(found, header).toBeGreaterThanOrEqual(at);
      at = found + header.length;
      const body = sanitize(contentText(m.content)).trimEnd();
      // Text a person wrote is there verbatim (tool output may be re-indented as pretty JSON).
      if (m.role === 'user' || m.role === 'assistant') expect(text).toContain(body);
    }
  });

  it('tool calls are fenced blocks naming the tool, their JSON arguments pretty-printed', () => {
    const { text } = conversationMarkdown(info, messages);
    const withCalls = messages.find((m) => Array.isArray(m.tool_calls));
    const call = Array.isArray(withCalls?.tool_calls) ? withCalls.tool_calls[0] : undefined;
    const name = call?.function?.name ?? '';
    expect(name).not.toBe('');
    expect(text).toContain(`Tool call \`${name}\`:\n\n\`\`\``);
    const args = JSON.parse(call?.function?.arguments ?? '{}') as Record<string, unknown>;
    for (const key of Object.keys(args)) expect(text).toContain(`  "${key}": `);
  });

  it('the copy-menu window form: level-2 heading, a note, the anchor marked, long text capped', () => {
    const anchor = messages[1] as Message;
    const doc = conversationMarkdown(info, messages.slice(0, 3), {
      headingLevel: 2,
      anchorId: anchor.id,
      note: 'visible window: 3 of 12 messages',
      maxMessageChars: 10,
    });
    expect(doc.text).toContain(`## ${info.title ?? `Session ${sid}`}\n`);
    expect(doc.text).toContain('_visible window: 3 of 12 messages_');
    expect(doc.text).toMatch(new RegExp(`#### [^\\n]* · #${anchor.id} · \\(anchor\\)\\n`));
    expect(doc.text).toMatch(/… \(truncated: 10 of [\d,]+ characters\)/);
  });
});

const msg = (over: Partial<Message>): Message => ({
  id: 1,
  session_id: 's1',
  role: 'assistant',
  content: '',
  timestamp: 1_772_366_400,
  tool_name: null,
  tool_calls: null,
  tool_call_id: null,
  reasoning: null,
  ...over,
});

describe('Markdown edge cases', () => {
  const info: ConversationInfo = { profile: 'default', sessionId: 's1', title: 'T' };

  it('a fence longer than any backtick run inside, so content cannot close it', () => {
    const out = 'line\n```\nnot the end\n````';
    const { text } = conversationMarkdown(info, [
      msg({ role: 'tool', tool_name: 'terminal', content: out }),
    ]);
    expect(text).toContain(`\`\`\`\`\`text\n${out}\n\`\`\`\`\``);
  });

  it('sanitizes everything and says when a message has no text', () => {
    const { text } = conversationMarkdown({ ...info, title: 'x\u001b]0;pwned\u0007y' }, [
      msg({ content: 'a\u001b[2Jb\u202e' }),
      msg({ id: 2, content: null }),
    ]);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(text).toContain('# xy\n');
    expect(text).toContain('ab');
    expect(text).toContain('_(no text content)_');
  });

  it('tool arguments with a multi-line string are shown as lines, fenced as text', () => {
    const calls = [{ function: { name: 'terminal', arguments: '{"command":"cd /x\\nmake"}' } }];
    const { text } = conversationMarkdown(info, [msg({ tool_calls: calls })]);
    expect(text).toContain(
      'Tool call `terminal`:\n\n```text\n{\n  "command": "cd /x\n    make"\n}\n```',
    );
  });

  it('marked messages from two conversations: one section each', () => {
    const groups = [
      { info, messages: [msg({ content: 'first' })] },
      {
        info: { ...info, sessionId: 's2', title: 'U' },
        messages: [msg({ id: 9, content: 'second' })],
      },
    ];
    const md = markedMarkdown(groups).text;
    expect(md.startsWith('# Marked messages (2 from 2 conversations)\n\n## T\n')).toBe(true);
    expect(md).toContain('## U\n\n- link: `@session:default/s2`');
    expect(md).toContain('#### assistant · 2026-03-01T12:00:00Z · #9\n\nsecond');
    const json = markedJson(groups);
    expect(json.count).toBe(2);
    expect((json.sessions as { session_id: string }[]).map((s) => s.session_id)).toEqual([
      's1',
      's2',
    ]);
  });
});

describe('export file names', () => {
  it('date, title words and a short id; safe characters only', () => {
    expect(
      exportBaseName(
        {
          sessionId: '20260301_120000_ab12cd34',
          title: 'Billing: migration / plan?',
          startedAt: 1_772_366_400,
        },
        'md',
      ),
    ).toBe('2026-03-01-billing-migration-plan-ab12cd34.md');
    expect(exportBaseName({ sessionId: '../../etc/passwd', title: '..' }, 'json')).toBe(
      'tcpasswd.json',
    );
    expect(exportBaseName({ sessionId: '\u001b', title: '漢字 メモ' }, 'md')).toBe(
      '漢字-メモ-session.md',
    );
    const long = exportBaseName({ sessionId: 'x', title: 'word '.repeat(40) }, 'md');
    expect(long.length).toBeLessThanOrEqual(60 + 1 + 1 + 3);
  });

  it('adds -2, -3… until the name is free in the directory', () => {
    const taken = new Set(['/out/a-x.md', '/out/a-x-2.md']);
    expect(
      uniqueExportPath('/out', { sessionId: 'x', title: 'a' }, 'md', (f) => taken.has(f)),
    ).toBe('/out/a-x-3.md');
    expect(
      uniqueExportPath('/out', { sessionId: 'y', title: 'a' }, 'md', (f) => taken.has(f)),
    ).toBe('/out/a-y.md');
  });
});

describe('Markdown options', () => {
  const info: ConversationInfo = { profile: 'default', sessionId: 's1', title: 'T' };
  it('reasoning only when asked; system prompts fenced as text', () => {
    const m = msg({ content: 'answer', reasoning: 'because' });
    expect(conversationMarkdown(info, [m]).text).not.toContain('because');
    expect(conversationMarkdown(info, [m], { reasoning: true }).text).toContain(
      '<details><summary>reasoning</summary>\n\n```text\nbecause\n```\n\n</details>',
    );
    const sys = conversationMarkdown(info, [msg({ role: 'system', content: '# not a heading' })]);
    expect(sys.text).toContain(
      '### system · 2026-03-01T12:00:00Z · #1\n\n```text\n# not a heading\n```',
    );
  });
});
