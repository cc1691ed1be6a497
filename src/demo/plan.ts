// Decides, before any text is written, what each top-level conversation is:
// its source, topic, size, lineage shape and which edge-case features it must
// carry. Features a reader has to cope with are forced at least once (when the
// store is big enough) so that even a small demo store exercises all of them.

import { CHINESE, CRON_JOBS, JAPANESE, MODELS, TOPICS, type Topic } from './corpus.js';
import type { Forced, Lang, Lineage, Mode } from './conversation.js';
import { Rng } from './rng.js';
import type { Layout } from './schema.js';

export interface ResolvedOptions {
  layout: Layout;
  sessions: number;
  targetMessages: number;
  seed: number;
  now: number;
  longSessions: number;
  longSessionMessages: number;
}

export interface ConversationPlan {
  index: number;
  mode: Mode;
  source: string;
  lang: Lang;
  topic: Topic;
  resetTopic: Topic;
  model: string;
  budget: number;
  lineage: Lineage;
  segments: number;
  delegateTasks: number;
  forced: Forced;
  archived: boolean;
  /** `hidden = 1` (v30): out of every default list, still searchable. */
  hiddenSession: boolean;
  titled: boolean;
  live: boolean;
  long: boolean;
  /** Planned start, seconds before `now`. */
  age: number;
  cronJob?: (typeof CRON_JOBS)[number];
}

const YEAR = 365 * 86400;
const NO_FEATURES: Forced = {
  multimodal: false,
  rewind: false,
  hidden: false,
  compaction: false,
  malformed: false,
  regression: false,
  huge: false,
  nullContent: false,
};

function topicByKey(key: string): Topic {
  const t = TOPICS.find((x) => x.key === key);
  if (!t) throw new Error(`unknown topic ${key}`);
  return t;
}

function baseConversation(index: number, rng: Rng, age: number): ConversationPlan {
  const topic = rng.pick(TOPICS);
  return {
    index,
    mode: 'chat',
    source: rng.weighted([
      ['cli', 55],
      ['tui', 15],
      ['telegram', 17],
      ['discord', 10],
    ]),
    lang: 'en',
    topic,
    resetTopic: rng.pick(TOPICS),
    model: rng.weighted(MODELS),
    budget: 0,
    lineage: 'none',
    segments: 1,
    delegateTasks: 0,
    forced: { ...NO_FEATURES },
    archived: false,
    hiddenSession: false,
    titled: rng.chance(0.6),
    live: false,
    long: false,
    age,
  };
}

export function planConversations(opts: ResolvedOptions, rng: Rng): ConversationPlan[] {
  const n = opts.sessions;
  if (n <= 0) return [];
  // More activity recently than a year ago, like a real store.
  const ages = Array.from({ length: n }, () => YEAR * rng.next() ** 1.6).sort((a, b) => b - a);
  const plans = ages.map((age, i) => baseConversation(i, rng, age));
  const newest = plans[n - 1];
  if (newest) {
    newest.age = 0;
    newest.live = true;
    newest.source = 'cli';
    newest.titled = true;
  }
  const second = n >= 3 ? plans[n - 2] : undefined;
  if (second && rng.chance(0.6)) second.live = true;

  // Candidates for special shapes: never the live tail, so "now" stays simple.
  const pool = plans.slice(0, Math.max(0, n - 2));
  const chats = () => pool.filter((p) => p.mode === 'chat' && !p.long && p.lang === 'en');
  const take = (list: ConversationPlan[], count: number): ConversationPlan[] =>
    rng.sample(list, count);

  for (const p of pool) {
    const r = rng.next();
    if (r < 0.06) p.mode = 'cron';
    else if (r < 0.08) p.mode = 'tool';
  }
  if (pool.length >= 8) {
    if (!pool.some((p) => p.mode === 'cron')) for (const p of take(chats(), 1)) p.mode = 'cron';
    if (!pool.some((p) => p.mode === 'tool')) for (const p of take(chats(), 1)) p.mode = 'tool';
  }
  for (const p of pool) {
    if (p.mode === 'cron') {
      p.source = 'cron';
      p.cronJob = rng.pick(CRON_JOBS);
      p.titled = rng.chance(0.4);
    } else if (p.mode === 'tool') {
      p.source = 'tool';
      p.titled = false;
    }
  }
  // Kanban dispatcher workers (hidden from history like tool runs) exist in the newest layout.
  if (opts.layout === 30) {
    const tools = pool.filter((p) => p.mode === 'tool');
    for (const [i, p] of tools.entries()) if (i % 2 === 1) p.source = 'kanban';
    if (tools.length === 1 && pool.length >= 8)
      for (const p of take(chats(), 1)) {
        p.mode = 'tool';
        p.source = 'kanban';
        p.titled = false;
      }
  }

  if (pool.length >= 10) {
    for (const source of ['telegram', 'discord', 'tui']) {
      if (!pool.some((p) => p.source === source))
        for (const p of take(chats(), 1)) p.source = source;
    }
  }

  for (const p of take(chats(), Math.min(opts.longSessions, chats().length))) {
    p.long = true;
    p.titled = true;
    p.budget = opts.longSessionMessages;
  }

  // CJK conversations: a share of each, and at least one of each language.
  const setLang = (p: ConversationPlan, lang: Lang, topicKey?: string): void => {
    p.lang = lang;
    const corpus = lang === 'zh' ? CHINESE : JAPANESE;
    p.topic = topicByKey(topicKey ?? rng.pick(corpus.topics).topic);
  };
  for (const p of chats()) {
    const r = rng.next();
    if (r < 0.03) setLang(p, 'zh');
    else if (r < 0.05) setLang(p, 'ja');
  }
  // The guaranteed ones use the topics whose openings carry the long CJK terms
  // (数据迁移, 接続プール) so trigram search always has something to find.
  if (pool.length >= 6) {
    for (const p of take(chats(), 1)) setLang(p, 'zh', 'billing');
    for (const p of take(chats(), 1)) setLang(p, 'ja', 'pgpool');
  }

  allocateBudgets(plans, opts, rng);
  assignShapes(plans, pool, opts, rng);
  return plans;
}

function allocateBudgets(plans: ConversationPlan[], opts: ResolvedOptions, rng: Rng): void {
  let fixed = 0;
  const weights = new Map<ConversationPlan, number>();
  for (const p of plans) {
    if (p.long) fixed += p.budget;
    else if (p.mode === 'cron') fixed += p.budget = rng.int(4, 12);
    else if (p.mode === 'tool') fixed += p.budget = 2;
    else if (rng.chance(0.12))
      fixed += p.budget = rng.int(2, 4); // quick one-question sessions
    else weights.set(p, rng.logNormal(1, 0.8));
  }
  let sum = 0;
  for (const w of weights.values()) sum += w;
  const rest = Math.max(0, opts.targetMessages - fixed);
  for (const [p, w] of weights) p.budget = Math.max(4, Math.round((w / sum) * rest));
}

function assignShapes(
  plans: ConversationPlan[],
  pool: ConversationPlan[],
  opts: ResolvedOptions,
  rng: Rng,
): void {
  const eligible = (min: number) =>
    pool.filter((p) => p.mode === 'chat' && !p.long && p.lineage === 'none' && p.budget >= min);
  const grow = (p: ConversationPlan, min: number) => {
    p.budget = Math.max(p.budget, min);
  };
  const small = pool.length < 12;

  // Compression chains: every length from 2 to 4 at least once, plus a random share.
  for (const segments of [2, 3, 4]) {
    const chosen = rng.sample(eligible(12 * segments), 1)[0] ?? rng.sample(eligible(4), 1)[0];
    if (!chosen || (small && segments > 2)) continue;
    chosen.lineage = 'chain';
    chosen.segments = segments;
    grow(chosen, 12 * segments);
  }
  for (const p of eligible(30)) {
    if (rng.chance(0.1)) {
      p.lineage = 'chain';
      p.segments = rng.weighted([
        [2, 60],
        [3, 30],
        [4, 10],
      ]);
      grow(p, 10 * p.segments);
    }
  }
  const shape = (lineage: Lineage, share: number) => {
    const list = eligible(10);
    const chosen = list.filter(() => rng.chance(share));
    if (chosen.length === 0 && list.length > 0) chosen.push(...rng.sample(list, 1));
    for (const p of chosen) {
      p.lineage = lineage;
      p.segments = 2;
      grow(p, 16);
    }
  };
  shape('branch', 0.03);
  if (opts.layout === 30) shape('reset', 0.03);

  // Delegations: subagent children started while their parent is live.
  const delegating = pool.filter((p) => p.mode === 'chat' && !p.long && rng.chance(0.08));
  if (delegating.length === 0)
    delegating.push(
      ...rng.sample(
        pool.filter((p) => p.mode === 'chat' && !p.long),
        1,
      ),
    );
  for (const p of delegating) {
    p.delegateTasks = rng.int(1, 3);
    grow(p, 12 + p.delegateTasks * 8);
  }

  // Forced reader edge cases, each in its own randomly chosen conversations.
  const force = (feature: keyof Forced, count: number, when = true) => {
    if (!when) return;
    const list = pool.filter((p) => p.mode === 'chat' && !p.long && !p.forced[feature]);
    for (const p of rng.sample(list, count)) {
      p.forced[feature] = true;
      grow(p, 14);
    }
  };
  force('multimodal', 2);
  force('malformed', 1);
  force('regression', 2);
  force('huge', 1);
  force('nullContent', 1);
  force('rewind', 2, opts.layout >= 16);
  force('hidden', 2, opts.layout === 30);
  force('compaction', 3, opts.layout === 30);

  if (opts.layout >= 16) {
    const older = plans.slice(0, Math.floor(plans.length * 0.8)).filter((p) => !p.live);
    const archived = older.filter(() => rng.chance(0.05));
    if (archived.length === 0 && older.length > 0) archived.push(...rng.sample(older, 1));
    for (const p of archived) p.archived = true;
  }
  if (opts.layout === 30) {
    const older = plans
      .slice(0, Math.floor(plans.length * 0.8))
      .filter((p) => !p.live && !p.archived);
    const hidden = older.filter(() => rng.chance(0.03));
    if (hidden.length === 0 && older.length > 0) hidden.push(...rng.sample(older, 1));
    for (const p of hidden) p.hiddenSession = true;
  }
}
