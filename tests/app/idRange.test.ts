/**
 * The app's id ranges at their edge (src/ids/app.ts), over a real index of the
 * agents' sample histories: a conversation whose index row is the last one this
 * machine's range can number opens at its messages with ids that read back to
 * it; one row past it is refused in one line (opening it, a search that hits it),
 * never numbered into a synced host's range, where it would read as another
 * machine's conversation.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexReader } from '../../src/agents/appReads.js';
import { AGENTS } from '../../src/agents/model.js';
import { AgentSource } from '../../src/app/data/agentSource.js';
import { HostAgents } from '../../src/app/data/hostAgents.js';
import { DataSource } from '../../src/app/data/source.js';
import {
  IdRangeError,
  MAX_HOST_SLOT,
  MAX_LOCAL_CONV_ID,
  splitAgentMessageId,
} from '../../src/ids/app.js';
import { IDS, indexSamples } from '../agents/samples.js';
import { tempDir } from '../helpers/fixtures.js';
import { answerQuery, type QueryResponse } from '../../src/app/data/queries.js';
import { Store } from '../../src/store/store.js';
import { storeWithAgents } from './withAgents.js';

let indexFile: string;
let agents: AgentSource;
let store: Store;
let close: (() => void) | undefined;

/** Moves a conversation to index row `id`, as a long-lived index's rows grow. */
function moveRow(nativeId: string, id: number): void {
  const db = new Database(indexFile);
  try {
    db.transaction(() => {
      const { id: old } = db
        .prepare('SELECT id FROM conversations WHERE native_id = ?')
        .get(nativeId) as { id: number };
      db.prepare('UPDATE conversations SET id = ? WHERE id = ?').run(id, old);
      db.prepare('UPDATE messages SET conv_id = ? WHERE conv_id = ?').run(id, old);
      db.prepare('UPDATE files SET conv_id = ? WHERE conv_id = ?').run(id, old);
    })();
  } finally {
    db.close();
  }
}

beforeAll(() => {
  const dir = tempDir();
  indexFile = join(dir, 'agents.db');
  indexSamples(join(dir, 'home'), indexFile);
  moveRow(IDS.claude, MAX_LOCAL_CONV_ID - 1);
  moveRow(IDS.codex, MAX_LOCAL_CONV_ID);
  ({ store, agents, close } = storeWithAgents(dir, indexFile));
});

afterAll(() => close?.());

describe("this machine's agents' id range at its edge", () => {
  it('the last row it can number opens, its ids reading back to it', () => {
    const opened = agents.openTail(`claude:${IDS.claude}`)!;
    const ids = opened.window.items.flatMap((i) => (i.kind === 'message' ? [i.msg.id] : []));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(splitAgentMessageId(id)).toMatchObject({ convId: MAX_LOCAL_CONV_ID - 1, slot: 0 });
      expect(agents.holds(id)).toBe(true);
    }
  });

  it('one row past it is refused in one line when opened; a search leaves out only its hits, said once; still listed in Recent', () => {
    const line =
      /^conversation row 67,108,864 of this machine's agents' index is past the app's 67,108,864; read it with lookback scroll$/;
    expect(() => agents.openTail(`codex:${IDS.codex}`)).toThrow(IdRangeError);
    expect(() => agents.openTail(`codex:${IDS.codex}`)).toThrow(line);
    expect(() => agents.search('sliding window', 'relevance', [], 50, ['codex'])).toThrow(line);
    // With somewhere to say it, a search leaves out only the hits it cannot number, said once.
    const said: string[] = [];
    const kept = agents.search('the', 'relevance', [], 50, undefined, undefined, (l, n) =>
      said.push(`${l} / ${n}`),
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^conversation row 67,108,864 .*lookback scroll( \(\d+ hits\))? \/ \d+$/,
    );
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.some((i) => i.sessionId === `claude:${IDS.claude}`)).toBe(true);
    expect(kept.some((i) => i.sessionId === `codex:${IDS.codex}`)).toBe(false);
    // In the app's search over this store and the index, only that row is left out, said in
    // that line once; the store and the index's other conversation still answer.
    const out: QueryResponse[] = [];
    answerQuery(
      store,
      {
        kind: 'search',
        generation: 1,
        query: 'the',
        sort: 'relevance',
        roles: ['user', 'assistant'],
        limit: 50,
      },
      (r) => out.push(r),
      agents,
      null,
    );
    const answer = out.find((r) => r.kind === 'search');
    const items = answer?.kind === 'search' ? answer.items : [];
    expect(items.some((i) => i.agent === undefined || i.agent === 'hermes')).toBe(true);
    expect(items.some((i) => i.sessionId === `claude:${IDS.claude}`)).toBe(true);
    expect(items.some((i) => i.sessionId === `codex:${IDS.codex}`)).toBe(false);
    const refused = answer?.kind === 'search' ? (answer.refused ?? []) : [];
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(
      /^conversation row 67,108,864 of this machine's agents' index is past the app's 67,108,864; read it with lookback scroll( \(\d+ hits\))?; left out$/,
    );
    // Recent rows carry no message ids: the conversation is listed, with its title.
    expect(agents.recent(50, true).some((r) => r.sessionId === `codex:${IDS.codex}`)).toBe(true);
  });
});

describe("synced hosts past the app's id blocks", () => {
  it('are left out of the lists in one line that names them and says why', () => {
    const dir = tempDir();
    // 386 synced hosts: the first holds the sample histories, the others nothing yet.
    const hosts = Array.from({ length: MAX_HOST_SLOT + 2 }, (_, i) => ({
      host: `box-${i + 1}`,
      file: i === 0 ? indexFile : join(dir, `none-${i + 1}.db`),
    }));
    const listing = (n: number) => {
      // This machine's agents are read too: the app lists the hosts' agents it reads here.
      const own = new AgentSource(new IndexReader(indexFile, [...AGENTS]));
      const synced = new HostAgents(() => hosts.slice(0, n), [...AGENTS]);
      try {
        const data = new DataSource(store, own, undefined, null, synced);
        return { recent: data.recent(10_000, true), refs: data.hostIndexRefs() };
      } finally {
        synced.close();
        own.close();
      }
    };
    const all = listing(MAX_HOST_SLOT);
    expect(all.recent.refused).toEqual([]);
    expect(all.recent.rows.some((r) => r.host === 'box-1')).toBe(true);
    const past = listing(MAX_HOST_SLOT + 2);
    expect(past.refs.map((r) => r.host)).toEqual(['box-1']);
    expect(past.recent.rows.some((r) => r.host === 'box-1')).toBe(true);
    expect(past.recent.refused).toEqual([
      `2 synced hosts not shown (box-385, box-386): the app numbers the conversations of at most ${MAX_HOST_SLOT} hosts; lookback list --host NAME --agent AGENT lists any of them`,
    ]);
  });
});
