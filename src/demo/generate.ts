// Deterministic generator of realistic agent session stores in any of the
// three schema layouts. Same seed and options => the same rows.

import Database from 'better-sqlite3';
import { buildConversation, type DraftMessage, type DraftSession } from './conversation.js';
import { TimeHeap } from './heap.js';
import { planConversations, type ConversationPlan, type ResolvedOptions } from './plan.js';
import { mix32, Rng } from './rng.js';
import { messageRow, sessionRow, systemPromptFor } from './rows.js';
import { LAYOUTS, type Layout } from './schema.js';
import {
  claimNewFile,
  DEFAULT_NOW,
  defaultJournal,
  discardFile,
  finishJournal,
  MessageBatch,
  StoreWriter,
  writeSchema,
  type Journal,
  type MessageInput,
} from './store.js';
import { baseTitle, cwdFor, Naming } from './naming.js';

export type { Layout } from './schema.js';
export {
  createEmptyStore,
  DEFAULT_NOW,
  insertMessage,
  insertSession,
  type MessageInput,
  type SessionInput,
} from './store.js';

export interface GenerateOptions {
  /** Schema version to write. */
  layout: Layout;
  /** Top-level conversations; lineage children (continuations, branches, subagents) come on top. */
  sessions: number;
  /** Approximate total messages, long sessions included. Default sessions*25 + the long sessions' messages. */
  targetMessages?: number;
  /** Default 1. */
  seed?: number;
  /** Epoch seconds of the newest activity. Default DEFAULT_NOW (fixed, so output is reproducible). */
  now?: number;
  /** Default 'wal' for layouts 16/30, 'delete' for 6. */
  journal?: Journal;
  /** Sessions with thousands of messages. Default 1 when sessions >= 100, else 0. */
  longSessions?: number;
  /** Messages per long session. Default 3000. */
  longSessionMessages?: number;
  /** Default true; false creates no FTS tables, views or triggers (FTS5 unavailable). */
  withFts?: boolean;
}

export interface GenerateReport {
  path: string;
  layout: Layout;
  /** Session rows written, lineage children included. */
  sessions: number;
  messages: number;
  ms: number;
}

const COMMIT_EVERY = 20_000;
const DAY = 86400;

function resolve(opts: GenerateOptions): ResolvedOptions & { journal: Journal; withFts: boolean } {
  if (!LAYOUTS.includes(opts.layout))
    throw new Error(
      `unsupported layout ${String(opts.layout)}; expected one of ${LAYOUTS.join(', ')}`,
    );
  const sessions = Math.max(0, Math.floor(opts.sessions));
  const longSessions = Math.max(
    0,
    Math.min(sessions, Math.floor(opts.longSessions ?? (sessions >= 100 ? 1 : 0))),
  );
  const longSessionMessages = Math.max(2, Math.floor(opts.longSessionMessages ?? 3000));
  return {
    layout: opts.layout,
    sessions,
    targetMessages: Math.max(
      0,
      Math.floor(opts.targetMessages ?? sessions * 25 + longSessions * longSessionMessages),
    ),
    seed: Math.floor(opts.seed ?? 1),
    now: opts.now ?? DEFAULT_NOW,
    longSessions,
    longSessionMessages,
    journal: opts.journal ?? defaultJournal(opts.layout),
    withFts: opts.withFts ?? true,
  };
}

/** Creates a new store at `path` (refusing to overwrite) and fills it. */
export function generateStore(path: string, opts: GenerateOptions): GenerateReport {
  const t0 = performance.now();
  const cfg = resolve(opts);
  claimNewFile(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    // Our own fresh file: durability during the build buys nothing.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -131072');
    db.pragma('temp_store = MEMORY');
    writeSchema(db, cfg.layout, cfg.withFts);
    const counts = writeConversations(db, cfg);
    finishJournal(db, cfg.journal);
    db.close();
    return { path, layout: cfg.layout, ...counts, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    try {
      db?.close();
    } catch {
      // already failing; the original error is the one worth reporting
    }
    discardFile(path);
    throw err;
  }
}

interface Span {
  lastMessage: number;
  end: number;
}

function spanOf(drafts: readonly DraftSession[]): Span {
  let lastMessage = 0;
  let end = 0;
  for (const d of drafts) {
    const last = d.messages[d.messages.length - 1];
    if (last) lastMessage = Math.max(lastMessage, last.t);
    end = Math.max(end, d.end ?? last?.t ?? d.start);
  }
  return { lastMessage, end: Math.max(end, lastMessage) };
}

/** Absolute start of a conversation: planned age, nudged to waking hours, never past `now`. */
function placeConversation(plan: ConversationPlan, span: Span, now: number, rng: Rng): number {
  if (plan.live) {
    const idle = plan.age === 0 ? rng.float(5, 90) : rng.float(120, 1800);
    return now - span.lastMessage - idle;
  }
  let start = now - plan.age;
  if (plan.cronJob) {
    start = Math.floor(start / DAY) * DAY + plan.cronJob.hour * 3600 + rng.float(0, 40);
  } else {
    const hour = Math.floor((start % DAY) / 3600);
    if (hour >= 1 && hour < 7 && rng.chance(0.8)) start += 7 * 3600;
  }
  const latest = now - span.end - rng.float(600, 7200);
  if (start > latest)
    start = plan.cronJob ? start - Math.ceil((start - latest) / DAY) * DAY : latest;
  return start;
}

function writeConversations(
  db: Database.Database,
  cfg: ReturnType<typeof resolve>,
): { sessions: number; messages: number } {
  const rng = new Rng(cfg.seed);
  const plans = planConversations(cfg, rng);
  const writer = new StoreWriter(db);
  const batch = new MessageBatch(db);
  const heap = new TimeHeap<MessageInput>();
  const naming = new Naming(rng);
  const prompts = new Set<string>();
  let sessions = 0;
  let messages = 0;
  let sinceCommit = 0;

  const drain = (until: number): void => {
    while (heap.peekTime() < until) {
      const row = heap.pop();
      if (!row) break;
      batch.add(row);
      messages++;
      if (++sinceCommit >= COMMIT_EVERY) {
        batch.flush();
        db.exec('COMMIT; BEGIN');
        sinceCommit = 0;
      }
    }
  };

  db.exec('BEGIN');
  for (const plan of plans) {
    const drafts = buildConversation({
      mode: plan.mode,
      cronPrompt: plan.cronJob?.prompt,
      layout: cfg.layout,
      rng: new Rng(mix32(cfg.seed, plan.index + 1)),
      topic: plan.topic,
      resetTopic: plan.resetTopic,
      lang: plan.lang,
      source: plan.source,
      model: plan.model,
      budget: plan.budget,
      lineage: plan.lineage,
      segments: plan.segments,
      delegateTasks: plan.delegateTasks,
      forced: plan.forced,
      live: plan.live,
      long: plan.long,
      epoch: cfg.now - plan.age,
    });
    const base = placeConversation(plan, spanOf(drafts), cfg.now, rng);
    drain(base);

    const ids = new Map<DraftSession, string>();
    const titles = new Map<DraftSession, string | null>();
    const cwds = new Map<DraftSession, string | null>();
    let continuation = 1;
    for (const d of drafts) {
      const startedAt = base + d.start;
      const id = naming.id(startedAt);
      ids.set(d, id);
      const parentId = d.parent ? (ids.get(d.parent) ?? null) : null;
      const parentTitle = d.parent ? (titles.get(d.parent) ?? null) : null;

      let title: string | null = null;
      let titleSource: string | null = null;
      if (d.kind === 'root' && plan.titled) {
        title = naming.title(baseTitle(plan, d.topic, startedAt, rng));
        titleSource = rng.weighted([
          ['llm', 70],
          ['user', 15],
          ['derived', 15],
        ]);
      } else if (d.kind === 'compression' && parentTitle) {
        continuation++;
        title = naming.title(`${parentTitle.replace(/ #\d+$/, '')} #${continuation}`);
        titleSource = 'derived';
      } else if (d.kind === 'branch' && parentTitle) {
        title = naming.title(`${parentTitle} (branch)`);
        titleSource = 'derived';
      } else if (d.kind === 'reset' && rng.chance(0.6)) {
        title = naming.title(baseTitle(plan, d.topic, startedAt, rng));
        titleSource = 'llm';
      }
      titles.set(d, title);

      const cwd = d.parent ? (cwds.get(d.parent) ?? null) : cwdFor(d.source, d.topic, rng);
      cwds.set(d, cwd);

      const prompt = systemPromptFor(d.source, rng);
      if (cfg.layout >= 25 && !prompts.has(prompt.hash)) {
        prompts.add(prompt.hash);
        writer.insert('system_prompts', { hash: prompt.hash, prompt: prompt.prompt });
      }
      const meta = {
        id,
        title,
        titleSource,
        archived: plan.archived,
        hidden: plan.hiddenSession && d.kind === 'root',
        pinned: title !== null && d.kind === 'root' && rng.chance(0.03),
        cwd,
        base,
      };
      writer.insert(
        'sessions',
        sessionRow(d, meta, { layout: cfg.layout, now: cfg.now, rng, parentId, prompt }),
      );
      sessions++;

      // Newer agent builds stamp display_order; older rows in the same store lack it.
      const ordered = cfg.layout === 30 && startedAt > cfg.now - 60 * DAY;
      // A compaction's tail copy shares its original's display_order.
      const orderOf = (m: DraftMessage, i: number) => (m.copyOf ? d.messages.indexOf(m.copyOf) : i);
      d.messages.forEach((m, i) =>
        heap.push(base + m.t, messageRow(m, id, base, ordered ? orderOf(m, i) : null)),
      );
    }
  }
  drain(Infinity);
  batch.close();
  db.exec('COMMIT');
  return { sessions, messages };
}
