/**
 * Relevance over the agents' index (src/agents/queries.ts rankedPool): the newest
 * RANK_WINDOW matches are scored first, best message per conversation, and a
 * window holding too few conversations widens until it covers every match. Real
 * Claude Code transcripts indexed into a real index; the command line and the
 * app must name the same conversations and show text from the hit's own message.
 */
import { RANK_WINDOW } from '../../src/budgets.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexReader } from '../../src/agents/appReads.js';
import { indexAll } from '../../src/agents/indexer.js';
import { openIndex } from '../../src/agents/indexDb.js';
import { AGENTS } from '../../src/agents/model.js';

import { searchAgentsJson } from '../../src/agents/recall.js';

let dir: string;
let indexFile: string;
const OLD = '00000000-0000-4000-8000-00000000000a';
const BUSY = '00000000-0000-4000-8000-00000000000b';
const STRONG = '00000000-0000-4000-8000-00000000000c';

function transcript(home: string, id: string, texts: string[], day: number): void {
  const proj = join(home, '.claude', 'projects', '-home-dev-ledger');
  mkdirSync(proj, { recursive: true });
  const lines = texts.map((text, i) =>
    JSON.stringify({
      type: 'user',
      uuid: `${id}-${i}`,
      sessionId: id,
      cwd: '/home/dev/ledger',
      timestamp: new Date(Date.UTC(2026, 7, day, 0, 0, i)).toISOString(),
      message: { role: 'user', content: text },
    }),
  );
  writeFileSync(join(proj, `${id}.jsonl`), lines.join('\n') + '\n');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lookback-rank-'));
  const home = join(dir, 'home');
  indexFile = join(dir, 'agents.db');
  const env = { HOME: home, XDG_DATA_HOME: '', XDG_CONFIG_HOME: '' };
  // The old conversation is indexed first, so its match has the lowest rowid: outside
  // the newest RANK_WINDOW matches, which the busy conversation fills on its own.
  transcript(home, OLD, ['the old ledger reconciliation notes'], 1);
  const { db } = openIndex(indexFile);
  indexAll(db, { env });
  const busy = Array.from(
    { length: RANK_WINDOW + 100 },
    (_, i) =>
      `step ${i} of the nightly batch wrote one ledger row and moved on to the next queue item`,
  );
  transcript(home, BUSY, busy, 2);
  transcript(home, STRONG, ['ledger ledger: the ledger totals disagree'], 3);
  indexAll(db, { env });
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('relevance over the newest matches', () => {
  it('ranks the strongest match first and widens past the window to fill the limit (CLI)', () => {
    const { db } = openIndex(indexFile);
    try {
      const out = searchAgentsJson(db, 'ledger', AGENTS, { limit: 3, all: false });
      const results = out.results as { session_id: string; snippet: string }[];
      // Widened, the window covers every match and ranks them all: the short old match beats
      // the busy conversation's long ones.
      expect(results.map((r) => r.session_id)).toEqual([STRONG, OLD, BUSY]);
      expect(results[0]!.snippet).toBe(
        '>>>ledger<<< >>>ledger<<<: the >>>ledger<<< totals disagree',
      );
      expect(results[1]!.snippet).toBe('the old >>>ledger<<< reconciliation notes');
      // Every snippet is cut from its own hit (the matched message the answer anchors on).
      for (const r of out.results as {
        snippet: string;
        messages: { content: string; anchor?: boolean }[];
      }[]) {
        const own = r.messages.find((m) => m.anchor)!.content;
        expect(own).toContain(r.snippet.replaceAll('>>>', '').replaceAll('<<<', ''));
      }
      // Limit 2 is met inside the newest RANK_WINDOW matches: the old match is never scored.
      const two = searchAgentsJson(db, 'ledger', AGENTS, { limit: 2, all: false });
      expect((two.results as { session_id: string }[]).map((r) => r.session_id)).toEqual([
        STRONG,
        BUSY,
      ]);
    } finally {
      db.close();
    }
  });

  it('gives the app the same conversations, each with its own message text', () => {
    const reader = new IndexReader(indexFile, AGENTS);
    try {
      const hits = reader.search('ledger', {
        limit: 3,
        roles: ['user', 'assistant'],
        sort: 'relevance',
        markers: ['<', '>'],
      });
      expect(hits.map((h) => h.conv.native_id)).toEqual([STRONG, OLD, BUSY]);
      expect(hits[0]!.msg.text).toBe('ledger ledger: the ledger totals disagree');
      expect(hits[1]!.snippet).toBe('the old ledger reconciliation notes');
      expect(hits[2]!.msg.text).toMatch(/^step \d+ of the nightly batch wrote one ledger row/);
    } finally {
      reader.close();
    }
  });
});
