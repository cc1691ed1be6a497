/**
 * One key function for the full and the incremental path (AGENTS.md rule 2): for
 * every line boundary of every sample transcript, indexing the prefix and then the
 * rest gives exactly the rows a single pass over the whole file gives.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import type { Agent } from '../../src/agents/model.js';
import { IDS, buildHome } from './samples.js';

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-resume-'));
  home = join(dir, 'home');
  buildHome(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dump(root: string, agent: Agent, indexFile: string, passes: (() => void)[]): unknown[] {
  const { db } = openIndex(indexFile);
  try {
    for (const before of passes) {
      before();
      indexAll(db, { env: { HOME: root }, agents: [agent] });
    }
    return db
      .prepare(
        `SELECT c.native_id, c.parent_native_id, c.parent_kind, c.title, c.cwd, c.model, c.message_count, c.preview,
                m.ordinal, m.anchor, m.role, m.kind, m.text, m.reasoning, m.tool_calls, m.call_id, m.flags
         FROM conversations c JOIN messages m ON m.conv_id = c.id ORDER BY c.native_id, m.ordinal`,
      )
      .all();
  } finally {
    db.close();
  }
}

const files: [Agent, string][] = [
  ['claude', `.claude/projects/-home-ana-shop/${IDS.claude}.jsonl`],
  [
    'claude',
    `.claude/projects/-home-ana-shop/${IDS.claude}/subagents/agent-${IDS.claudeAgent}.jsonl`,
  ],
  [
    'codex',
    '.codex/sessions/2026/08/19/rollout-2026-08-19T09-02-11-0199a3e2-7c1d-7000-8000-00000000c0de.jsonl',
  ],
  [
    'codex',
    '.codex/sessions/2026/08/19/rollout-2026-08-19T10-00-00-0199a3e2-7c1d-7000-8000-00000000f0f0.jsonl',
  ],
  ['gemini', `.gemini/tmp/web/chats/session-2026-08-20T10-01-${IDS.gemini.slice(0, 8)}.jsonl`],
];

describe('resuming at any line gives the same rows as one pass', () => {
  for (const [n, [agent, rel]] of files.entries())
    it(`${agent}: ${rel.split('/').pop()}`, () => {
      const text = readFileSync(join(home, rel), 'utf8');
      const place = (root: string, body: string) => {
        mkdirSync(dirname(join(root, rel)), { recursive: true });
        writeFileSync(join(root, rel), body);
        if (agent === 'gemini')
          writeFileSync(join(root, '.gemini/tmp/web/.project_root'), '/home/ana/web\n');
      };
      const whole = join(dir, `whole-${n}`);
      place(whole, text);
      const expected = dump(whole, agent, join(whole, 'i.db'), [() => {}]);
      expect(expected.length).toBeGreaterThan(0);
      const cuts = [...text.matchAll(/\n/g)].map((m) => m.index! + 1).slice(0, -1);
      for (const cut of cuts) {
        const root = join(dir, `cut-${agent}-${cut}-${Math.random().toString(36).slice(2)}`);
        place(root, text.slice(0, cut));
        const got = dump(root, agent, join(root, 'i.db'), [
          () => {},
          () => appendFileSync(join(root, rel), text.slice(cut)),
        ]);
        expect(got, `cut after byte ${cut}`).toEqual(expected);
        rmSync(root, { recursive: true, force: true });
      }
    });
});
