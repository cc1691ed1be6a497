/**
 * The recall benchmark's corpus: a real Hermes store made by the demo
 * generator (fixed seed), with the hand-written needle conversations added as
 * ordinary sessions through the store's own triggers, so every search mode
 * runs the real search path over the real index.
 */
import Database from 'better-sqlite3';
import { generateStore } from '../../../src/demo/generate.js';
import { insertMessage, insertSession, DEFAULT_NOW } from '../../../src/demo/store.js';
import { Rng } from '../../../src/demo/rng.js';
import { NEEDLES, NO_ANSWER, type Stratum } from './needles.js';
import { thinCollidingTopics } from './collisions.js';

export interface Qrel {
  query: string;
  stratum: Stratum | 'none';
  /** The needle's session id, null for a question with no answer. */
  session: string | null;
  /** The message id the question is about. */
  message: number | null;
  /**
   * Which half of the needles the question is about (alternate needles): ranking
   * changes are chosen looking at `tune` only, and `held` says whether they generalise.
   */
  half: 'tune' | 'held';
}

/**
 * Chat with no topic, to pad the needles (LOOKBACK_RECALL_PAD=n exchanges
 * each): the needles are two messages long, the generator's conversations ~23,
 * so a ranking that favours short conversations would look better here than
 * on a real history. Padded needles say how much of a gain is that.
 */
const FILLER: [string, string][] = [
  ['ok, trying that now', 'Sure, tell me what you see.'],
  ['done, looks fine on my side', 'Good. Anything else on this?'],
  ['one sec, rerunning it', 'Take your time.'],
  ['hmm, let me check again', 'Of course.'],
  ['thanks, that helped', 'Glad it did.'],
];
const PAD = Number(process.env.LOOKBACK_RECALL_PAD ?? 0);
/** LOOKBACK_RECALL_THIN=0 keeps every generated conversation on a needle's own topic (the old corpus). */
const THIN = process.env.LOOKBACK_RECALL_THIN !== '0';
/** 11 of the generator's 25 topics are thinned to a few conversations each. */
const SCALE = THIN ? 25 / 14 : 1;

export interface RecallCorpus {
  path: string;
  qrels: Qrel[];
  sessions: number;
  messages: number;
  /** Generated sessions dropped as right answers on a needle's own topic (collisions.ts). */
  thinned?: number;
}

/** Builds the corpus at `path` (a new file): `sessions` generated conversations plus the needles. */
export function buildRecallCorpus(path: string, sessions: number, seed = 7): RecallCorpus {
  // More are generated than asked for: thinCollidingTopics() then drops about 40 % of them.
  generateStore(path, { layout: 30, sessions: Math.round(sessions * SCALE), seed });
  const db = new Database(path);
  const rng = new Rng(seed);
  const qrels: Qrel[] = [];
  try {
    const thinned = THIN ? thinCollidingTopics(db).dropped : 0;
    db.transaction(() => {
      for (const [k, n] of NEEDLES.entries()) {
        const half = k % 2 === 0 ? 'tune' : 'held';
        // Spread over the generator's year, between its conversations.
        const started = DEFAULT_NOW - Math.floor(rng.float(2, 300) * 86400);
        const id = insertSession(db, {
          started_at: started,
          source: 'cli',
          model: 'openai/gpt-5',
          title: `needle ${n.key}`,
        });
        const ids = [
          insertMessage(db, {
            session_id: id,
            role: 'user',
            content: n.user,
            timestamp: started + 5,
          }),
          insertMessage(db, {
            session_id: id,
            role: 'assistant',
            content: n.assistant,
            timestamp: started + 40,
          }),
        ];
        for (let p = 0; p < PAD; p++)
          for (const [r, content] of [
            ['user', FILLER[p % FILLER.length]![0]],
            ['assistant', FILLER[p % FILLER.length]![1]],
          ] as const)
            insertMessage(db, { session_id: id, role: r, content, timestamp: started + 50 + p });
        db.prepare(`UPDATE sessions SET ended_at = ? WHERE id = ?`).run(started + 60 + PAD, id);
        for (const [query, stratum, m] of n.queries)
          qrels.push({ query, stratum, session: id, message: ids[m] ?? null, half });
      }
      for (const [k, query] of NO_ANSWER.entries())
        qrels.push({
          query,
          stratum: 'none',
          session: null,
          message: null,
          half: k % 2 === 0 ? 'tune' : 'held',
        });
    })();
    const count = (sql: string): number => db.prepare(sql).pluck().get() as number;
    return {
      path,
      qrels,
      sessions: count(`SELECT count(*) FROM sessions`),
      messages: count(`SELECT count(*) FROM messages`),
      thinned,
    };
  } finally {
    db.close();
  }
}

/** The questions of a corpus built before (LOOKBACK_RECALL_KEEP=1): needles found by their titles. */
export function loadRecallCorpus(path: string): RecallCorpus {
  const db = new Database(path, { readonly: true });
  try {
    const qrels: Qrel[] = [];
    for (const [k, n] of NEEDLES.entries()) {
      const half = k % 2 === 0 ? 'tune' : 'held';
      const id = db
        .prepare(`SELECT id FROM sessions WHERE title = ?`)
        .pluck()
        .get(`needle ${n.key}`) as string;
      const ids = db
        .prepare(`SELECT id FROM messages WHERE session_id = ? ORDER BY id`)
        .pluck()
        .all(id) as number[];
      for (const [query, stratum, m] of n.queries)
        qrels.push({ query, stratum, session: id, message: ids[m] ?? null, half });
    }
    for (const [k, query] of NO_ANSWER.entries())
      qrels.push({
        query,
        stratum: 'none',
        session: null,
        message: null,
        half: k % 2 === 0 ? 'tune' : 'held',
      });
    const count = (sql: string): number => db.prepare(sql).pluck().get() as number;
    return {
      path,
      qrels,
      sessions: count(`SELECT count(*) FROM sessions`),
      messages: count(`SELECT count(*) FROM messages`),
    };
  } finally {
    db.close();
  }
}
